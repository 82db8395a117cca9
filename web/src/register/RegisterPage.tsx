import { useMutation } from '@tanstack/react-query';
import { AlertCircle, AlertTriangle, CheckCircle2, Download, FileArchive, FileSpreadsheet, Settings2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { downloadApiFile } from '../api/download';
import { useTitle } from '../lib/useTitle';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { EmptyState } from '../ui/EmptyState';
import { plural } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import { usePreflight, type PreflightIssue } from './api';
import styles from './Register.module.css';

/** Where an issue is fixed: a field of the vendor profile, the vendor's assessments, or an entity setting. */
export function fixLink(slug: string, field: string): { to: string; label: string } | null {
  if (field.startsWith('vendorProfile')) {
    const path = field.replace(/^vendorProfile\.?/, '') || 'legalName';
    return { to: `/vendors/${encodeURIComponent(slug)}/profile#${path}`, label: 'Fix in the profile' };
  }
  if (field === 'assessments') return { to: `/vendors/${encodeURIComponent(slug)}/assessments`, label: 'Run an assessment' };
  if (field === 'function RTO/RPO') return null;
  return { to: `/vendors/${encodeURIComponent(slug)}/profile#contracts`, label: 'Open the contracts' };
}

function Severity({ s }: { s: 'error' | 'warning' }) {
  return s === 'error' ? (
    <span className="badge badge-error">
      <AlertCircle size={13} aria-hidden="true" /> Blocking
    </span>
  ) : (
    <span className={`badge ${styles.warn}`}>
      <AlertTriangle size={13} aria-hidden="true" /> Missing
    </span>
  );
}

const where = (i: PreflightIssue) => [i.template, i.column].filter(Boolean).join(' ');

/** The Register of Information: the pre-flight as a to-do list, then the two downloads. */
export default function RegisterPage() {
  useTitle('Register of Information');
  const pf = usePreflight();
  const toast = useToast();
  const [onlyBlocking, setOnlyBlocking] = useState(false);
  const download = useMutation({
    mutationFn: (format: 'xlsx' | 'xbrl-csv') =>
      downloadApiFile('/workspaces/roi-export', { query: { format } }, format === 'xlsx' ? 'register.xlsx' : 'register.zip'),
    onSuccess: ({ filename }) => toast.show(`Downloaded ${filename}`, 'success'),
  });

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Register of Information</h1>
          <p className="page-sub">DORA Article 28(3): every vendor you can access, as the EBA templates (Implementing Regulation (EU) 2024/2956) need them.</p>
        </div>
        <Button icon={<Settings2 size={16} aria-hidden="true" />} onClick={() => pf.refetch()} busy={pf.isFetching && !pf.isPending}>
          Check again
        </Button>
      </header>
      {pf.isPending || !pf.current ? (
        <Loading label="Checking the register…" />
      ) : pf.isError ? (
        <ErrorMessage error={pf.error} title="The pre-flight check could not run" onRetry={() => pf.refetch()} />
      ) : (
        <>
          <section className={`card ${styles.summary}`} aria-labelledby="pf-summary">
            <h2 id="pf-summary" className="visually-hidden">
              Pre-flight summary
            </h2>
            <div className={styles.status} role="status">
              {pf.data.ready ? (
                <CheckCircle2 size={28} aria-hidden="true" className={styles.okIcon} />
              ) : (
                <AlertCircle size={28} aria-hidden="true" className={styles.errIcon} />
              )}
              <div>
                <strong>{pf.data.ready ? 'Ready to file: no blocking issue' : `Not ready to file: ${plural(pf.data.errors, 'blocking issue')}`}</strong>
                <p className="muted small">The xBRL-CSV package is produced once nothing blocks it; the workbook is always available.</p>
              </div>
            </div>
            <dl className={styles.counts}>
              <div>
                <dt>Blocking</dt>
                <dd data-testid="count-errors">{pf.data.errors}</dd>
              </div>
              <div>
                <dt>Missing values</dt>
                <dd data-testid="count-warnings">{pf.data.warnings}</dd>
              </div>
              <div>
                <dt>Vendors in the package</dt>
                <dd>
                  {pf.data.vendors.filter((v) => v.included).length} of {pf.data.vendors.length}
                </dd>
              </div>
            </dl>
            <div className={styles.downloads}>
              <Button
                variant="primary"
                icon={<FileSpreadsheet size={16} aria-hidden="true" />}
                busy={download.isPending && download.variables === 'xlsx'}
                onClick={() => download.mutate('xlsx')}
              >
                Download the workbook (XLSX)
              </Button>
              <Button
                variant={pf.data.ready ? 'primary' : 'secondary'}
                icon={<FileArchive size={16} aria-hidden="true" />}
                busy={download.isPending && download.variables === 'xbrl-csv'}
                disabled={!pf.data.ready}
                aria-describedby={pf.data.ready ? undefined : 'xbrl-why'}
                onClick={() => download.mutate('xbrl-csv')}
              >
                Download the xBRL-CSV package
              </Button>
              {!pf.data.ready && (
                <p id="xbrl-why" className="muted small">
                  Fix the blocking issues below first.
                </p>
              )}
            </div>
            {download.isError && <ErrorMessage error={download.error} title="The download failed" />}
          </section>

          <section aria-labelledby="todo-title">
            <div className={styles.todoHead}>
              <h2 id="todo-title">To do</h2>
              <label className={styles.filter}>
                <input type="checkbox" checked={onlyBlocking} onChange={(e) => setOnlyBlocking(e.target.checked)} /> Blocking issues only
              </label>
            </div>
            {pf.data.vendors.length === 0 && (
              <EmptyState icon={<Download size={32} />} title="No vendor yet">
                <p>
                  Create a vendor on the <Link to="/vendors">vendor list</Link>, fill its profile, and it appears here.
                </p>
              </EmptyState>
            )}
            {pf.data.entity.filter((i) => !onlyBlocking || i.severity === 'error').length > 0 && (
              <div className="card">
                <h3>Your entity</h3>
                <ul className={styles.issues}>
                  {pf.data.entity
                    .filter((i) => !onlyBlocking || i.severity === 'error')
                    .map((i) => (
                      <li key={i.field + i.message}>
                        <Severity s={i.severity} />
                        <span className={styles.msg}>
                          {i.message} <span className="muted small">({where(i)})</span>
                        </span>
                        <a href={`#setting-${i.field}`}>Set {i.field}</a>
                      </li>
                    ))}
                </ul>
              </div>
            )}
            {pf.data.vendors.map((v) => {
              const issues = v.issues.filter((i) => !onlyBlocking || i.severity === 'error');
              const errs = v.issues.filter((i) => i.severity === 'error').length;
              return (
                <div key={v.workspaceId} className="card" data-vendor={v.name}>
                  <div className={styles.vendorHead}>
                    <h3>
                      <Link to={`/vendors/${encodeURIComponent(v.workspaceSlug)}/profile`}>{v.name}</Link>
                    </h3>
                    <span className="muted small">
                      {v.included ? 'In the package' : 'Left out of the package'} · {plural(errs, 'blocking issue')} ·{' '}
                      {plural(v.issues.length - errs, 'missing value')}
                    </span>
                  </div>
                  {issues.length === 0 ? (
                    <p className={styles.done}>
                      <CheckCircle2 size={16} aria-hidden="true" /> Nothing {onlyBlocking ? 'blocking' : 'to do'} for this vendor.
                    </p>
                  ) : (
                    <ul className={styles.issues}>
                      {issues.map((i, n) => {
                        const fix = fixLink(v.workspaceSlug, i.field);
                        return (
                          <li key={n}>
                            <Severity s={i.severity} />
                            <span className={styles.msg}>
                              {i.message} {where(i) && <span className="muted small">({where(i)})</span>}
                            </span>
                            {fix ? (
                              <Link to={fix.to} aria-label={`${fix.label}: ${v.name}, ${i.message}`}>
                                {fix.label}
                              </Link>
                            ) : (
                              <span className="muted small">Not in the profile</span>
                            )}
                          </li>
                        );
                      })}
                    </ul>
                  )}
                </div>
              );
            })}
          </section>

          <section className="card" aria-labelledby="settings-title">
            <h2 id="settings-title">Entity settings</h2>
            <p className="muted">
              The financial entity that files the register. These are settings of the service, not of a user: an operator sets them as environment variables (
              <code>.env</code> or the container's environment, listed in <code>.env.example</code>) and restarts the service.
            </p>
            <div className="table-wrap">
              <table className="table">
                <caption className="visually-hidden">Entity settings in force</caption>
                <thead>
                  <tr>
                    <th scope="col">Setting</th>
                    <th scope="col">Value</th>
                    <th scope="col">Set with</th>
                  </tr>
                </thead>
                <tbody>
                  {pf.data.settings.map((s) => (
                    <tr key={s.variable} id={`setting-${s.variable}`}>
                      <td>{s.label}</td>
                      <td>
                        {s.value === null ? (
                          <span className="muted">Not set</span>
                        ) : (
                          <>
                            {s.value}
                            {s.isDefault && <span className="muted small"> (default)</span>}
                          </>
                        )}
                      </td>
                      <td>
                        <code>{s.variable}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
    </div>
  );
}
