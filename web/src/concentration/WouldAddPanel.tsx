import { useMemo } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '../ui/Alert';
import { Loading } from '../ui/Spinner';
import { useVendorImpact, type ChainLink } from './api';
import { Chain } from './Chain';
import styles from './Concentration.module.css';

/**
 * On a vendor's page: what it would add to concentration (for a vendor in onboarding, before
 * signing: DORA Art. 28(4)(c), 29), or what it contributes (a vendor under contract).
 */
export function WouldAddPanel({ workspaceId }: { workspaceId: string }) {
  const q = useVendorImpact(workspaceId);
  const links = useMemo(() => new Map<string, ChainLink>((q.data?.links ?? []).map((l) => [l.id, l])), [q.data]);
  if (q.isPending) return <Loading label="Reading concentration…" />;
  if (q.isError) return <ErrorMessage error={q.error} onRetry={() => q.refetch()} />;
  const i = q.data;
  const shared = i.providers.filter((p) => p.alreadyDependedOn);
  return (
    <section className={`card ${styles.panel}`} aria-labelledby="would-add-title" data-testid="would-add">
      <h2 id="would-add-title">{i.onboarding ? 'What signing would add to concentration' : 'What this vendor adds to concentration'}</h2>
      <p className="muted small">
        The portfolio with this vendor against without it (DORA Articles 28(4)(c) and 29). <Link to="/concentration">The whole portfolio</Link>
      </p>
      <p data-testid="would-add-summary">
        {shared.length
          ? `${shared.length} of its ${i.providers.length} providers are already depended on by other vendors.`
          : `None of its ${i.providers.length} providers is depended on by another vendor.`}{' '}
        {i.newlyConcentratedFunctions.length
          ? `Newly concentrated: ${i.newlyConcentratedFunctions.map((f) => `${f.code} ${f.name} (on ${f.providers.join(', ')})`).join('; ')}.`
          : 'No critical or important function becomes newly concentrated.'}{' '}
        HHI over critical functions {i.index.criticalFunctions.before} → {i.index.criticalFunctions.after}.
        {i.newThirdCountries.length ? ` New third countries: ${i.newThirdCountries.join(', ')}.` : ''}
      </p>
      {shared.length > 0 && (
        <div className="table-wrap">
          <table className={`table ${styles.rows}`}>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Vendors</th>
                <th scope="col">Critical functions</th>
                <th scope="col">Chain</th>
              </tr>
            </thead>
            <tbody>
              {shared.map((p) => (
                <tr key={p.key} data-provider={p.key}>
                  <th scope="row">{p.name}</th>
                  <td>
                    {p.vendorsBefore} → {p.vendorsAfter}
                  </td>
                  <td>
                    {p.criticalFunctionsBefore} → {p.criticalFunctionsAfter}
                  </td>
                  <td>
                    <Chain path={p.path} links={links} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
