import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { useTitle } from '../lib/useTitle';
import { countryLabel } from '../profile/codes';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { EmptyState } from '../ui/EmptyState';
import { Loading } from '../ui/Spinner';
import { pct, useConcentration, type ChainLink, type Concentration, type ProviderFigures } from './api';
import { Chain } from './Chain';
import { ProviderNames } from './ProviderNames';
import styles from './Concentration.module.css';

const LEVEL = { low: 'low', moderate: 'moderate', high: 'high' } as const;

/**
 * Concentration risk across the portfolio (docs/concentration.md): the figures, the providers
 * most depended on, and per provider the functions and vendors that depend on it, each vendor's
 * chain link by link with the passage every link came from.
 */
export default function ConcentrationPage() {
  useTitle('Concentration');
  const [input, setInput] = useState('');
  const [provider, setProvider] = useState<string | undefined>();
  const [open, setOpen] = useState<string | null>(null);
  const q = useConcentration(provider);
  // A provider opened from the table is read with its links (the table alone carries none).
  const opened = useConcentration(open ?? undefined, !!open && !provider);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = input.trim();
    setProvider(v || undefined);
    setOpen(null);
  };
  const c = q.data;
  // Opened from a KPI of the analytics page (/concentration#conc-exits): scroll to that section once it is there.
  const { hash } = useLocation();
  useEffect(() => {
    if (c && hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [c, hash]);
  const detail = provider ? c : opened.data;
  const shown = detail?.provider?.found ? detail.providers[0] : undefined;
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Concentration</h1>
          <p className="page-sub">
            Which providers your vendors and critical or important functions depend on, directly or through their subcontractors (DORA Articles 28(4)(c) and
            29).
          </p>
        </div>
      </header>
      <form className={styles.search} role="search" aria-label="Find a provider" onSubmit={submit}>
        <div className="field">
          <label htmlFor="conc-provider">Provider</label>
          <input id="conc-provider" className="input" value={input} onChange={(e) => setInput(e.target.value)} placeholder="e.g. AWS" maxLength={300} />
        </div>
        <Button variant="primary" type="submit">
          Show what depends on it
        </Button>
        {provider && (
          <Button
            variant="secondary"
            type="button"
            onClick={() => {
              setInput('');
              setProvider(undefined);
              setOpen(null);
            }}
          >
            All providers
          </Button>
        )}
      </form>
      {q.isPending ? (
        <Loading label="Reading the portfolio…" />
      ) : q.isError ? (
        <ErrorMessage error={q.error} onRetry={() => q.refetch()} />
      ) : !c || c.totals.vendors === 0 ? (
        <EmptyState title="No vendors yet">Add vendors and their subcontractors (from their documents) to see where they concentrate.</EmptyState>
      ) : (
        <>
          {!provider && <Figures c={c} />}
          {c.provider && !c.provider.found && (
            <p role="status" data-testid="provider-not-found">
              No vendor depends on {c.provider.name}.
            </p>
          )}
          <ProviderTable c={c} open={provider ? (shown?.key ?? null) : open} onOpen={(k) => setOpen(k === open ? null : k)} />
          {!provider && open && opened.isPending && <Loading label="Reading what depends on it…" />}
          {!provider && open && opened.isError && <ErrorMessage error={opened.error} onRetry={() => opened.refetch()} />}
          {shown && detail && <Dependencies provider={shown} c={detail} />}
          {!provider && <Exits c={c} />}
          {!provider && <ProviderNames />}
        </>
      )}
    </div>
  );
}

function Figures({ c }: { c: Concentration }) {
  const top = c.index.topProvider;
  return (
    <dl className="stat-list">
      <div>
        <dt>Vendors</dt>
        <dd data-testid="kpi-vendors">{c.totals.vendors}</dd>
      </div>
      <div>
        <dt>Critical or important functions</dt>
        <dd data-testid="kpi-critical-functions">{c.totals.criticalFunctions}</dd>
      </div>
      <div>
        <dt>Providers (all ranks)</dt>
        <dd>{c.totals.providers}</dd>
      </div>
      {top && (
        <div>
          <dt>Most depended on</dt>
          <dd data-testid="kpi-top-provider">
            {top.name} <span className={styles.ddSmall}>{pct(top.vendorShare)} of vendors</span>
          </dd>
        </div>
      )}
      <div>
        <dt>HHI, critical functions</dt>
        <dd>
          {c.index.criticalFunctions.hhi} <span className={styles.ddSmall}>{LEVEL[c.index.criticalFunctions.level]}</span>
        </dd>
      </div>
      <div>
        <dt>HHI, direct providers</dt>
        <dd>
          {c.index.direct.hhi} <span className={styles.ddSmall}>{LEVEL[c.index.direct.level]}</span>
        </dd>
      </div>
      <div>
        <dt>Vendors reaching a third country</dt>
        <dd data-testid="kpi-third-country">{pct(c.thirdCountry.vendorShare)}</dd>
      </div>
    </dl>
  );
}

function ProviderTable({ c, open, onOpen }: { c: Concentration; open: string | null; onOpen: (key: string) => void }) {
  return (
    <section aria-labelledby="conc-providers">
      <h2 id="conc-providers">{c.provider ? 'Provider' : 'Providers, most depended on first'}</h2>
      <div className="table-wrap">
        <table className={`table ${styles.rows}`} data-testid="providers">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Critical functions</th>
              <th scope="col">Vendors</th>
              <th scope="col">Directly</th>
              <th scope="col">Countries</th>
              <th scope="col">
                <span className="visually-hidden">Dependencies</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {c.providers.map((p) => (
              <tr key={p.key} data-provider={p.key}>
                <th scope="row">
                  {p.name}
                  {p.names.length > 1 || p.names[0] !== p.name ? <div className="muted small">{p.names.join(' · ')}</div> : null}
                </th>
                <td>
                  {p.criticalFunctionCount} <span className="muted small">({pct(p.criticalFunctionShare)})</span>
                </td>
                <td>
                  {p.vendorCount} <span className="muted small">({pct(p.vendorShare)})</span>
                </td>
                <td>{p.directVendorCount}</td>
                <td>
                  {p.countries.map(countryLabel).join(', ') || '—'}
                  {p.thirdCountry && <span className="badge badge-warn">third country</span>}
                </td>
                <td>
                  <Button variant="secondary" size="sm" aria-expanded={open === p.key} aria-controls="conc-deps" onClick={() => onOpen(p.key)}>
                    Dependencies<span className="visually-hidden"> on {p.name}</span>
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {c.more > 0 && <p className="muted small">{c.more} providers with fewer dependencies are not shown; find one by name above.</p>}
    </section>
  );
}

/** Per provider: the functions depending on it, then the vendors by rank, each with its chain. */
function Dependencies({ provider: p, c }: { provider: ProviderFigures; c: Concentration }) {
  const links = useMemo(() => new Map<string, ChainLink>(c.links.map((l) => [l.id, l])), [c.links]);
  const vendorName = useMemo(() => new Map(c.vendors.map((v) => [v.workspaceId, v])), [c.vendors]);
  const ranks = [...new Set(p.vendors.map((v) => v.rank))].sort((a, b) => a - b);
  return (
    <section id="conc-deps" className={`card ${styles.deps}`} aria-labelledby="conc-deps-title" data-testid="dependencies">
      <h2 id="conc-deps-title">What depends on {p.name}</h2>
      <div className={styles.depsGrid}>
        <div>
          <h3>Functions ({p.functions.length})</h3>
          {p.functions.length === 0 ? (
            <p className="muted">No function of the register is linked to these vendors' contracts.</p>
          ) : (
            <ul className={styles.list} data-testid="dependent-functions">
              {p.functions.map((f) => (
                <li key={f.id}>
                  <strong>
                    {f.code} {f.name}
                  </strong>
                  {f.critical && <span className="badge badge-error">critical or important</span>}
                  <div className="muted small">via {f.via.map((id) => vendorName.get(id)?.name ?? id).join(', ')}</div>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h3>Vendors ({p.vendors.length})</h3>
          {ranks.map((rank) => (
            <div key={rank}>
              <h4 className={styles.rank}>
                {rank === 1 ? 'The provider itself (rank 1)' : rank === 2 ? 'Its direct subcontractor (rank 2)' : `Through a chain (rank ${rank})`}
              </h4>
              <ul className={styles.list}>
                {p.vendors
                  .filter((v) => v.rank === rank)
                  .map((v) => (
                    <li key={v.workspaceId} data-vendor={v.name}>
                      <Link to={`/vendors/${vendorName.get(v.workspaceId)?.slug ?? v.workspaceId}/profile`}>{v.name}</Link>
                      {v.critical && <span className="badge badge-error">critical</span>}
                      <Chain path={v.path} links={links} />
                    </li>
                  ))}
              </ul>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}

function Exits({ c }: { c: Concentration }) {
  const e = c.exits;
  return (
    <section aria-labelledby="conc-exits" className={styles.exits}>
      <h2 id="conc-exits">Substitutability and exit (Article 28(8))</h2>
      <div className={styles.depsGrid}>
        <div className="card">
          <h3>Critical functions without an alternative provider</h3>
          {e.criticalFunctionsWithoutAlternative.length ? (
            <ul>
              {e.criticalFunctionsWithoutAlternative.map((f) => (
                <li key={f.id}>
                  {f.code} {f.name}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">None.</p>
          )}
        </div>
        <div className="card">
          <h3>Critical vendors without a tested exit plan</h3>
          {e.criticalVendorsWithoutTestedExit.length ? (
            <ul>
              {e.criticalVendorsWithoutTestedExit.map((v) => (
                <li key={v.workspaceId}>{v.name}</li>
              ))}
            </ul>
          ) : (
            <p className="muted">None.</p>
          )}
        </div>
        <div className="card">
          <h3>Alternatives on the same provider</h3>
          {e.concentratedAlternatives.length ? (
            <ul>
              {e.concentratedAlternatives.map((a) => (
                <li key={`${a.workspaceId}:${a.alternative}`}>
                  {a.vendor}: {a.alternative} (on {a.provider})
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">None.</p>
          )}
        </div>
      </div>
    </section>
  );
}
