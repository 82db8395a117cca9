import { useMutation } from '@tanstack/react-query';
import { AlertCircle, AlertTriangle, CheckCircle2, Download, FileArchive, FileSpreadsheet, Settings2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useOrganization } from '../auth/session';
import { downloadApiFile } from '../api/download';
import { useTitle } from '../lib/useTitle';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { EmptyState } from '../ui/EmptyState';
import { plural } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import { usePreflight, type Preflight, type PreflightIssue } from './api';
import { AuditLog } from './AuditLog';
import { EntitySettings } from './EntitySettings';
import { Functions } from './Functions';
import { FxRates } from './FxRates';
import styles from './Register.module.css';

/** What fixes an issue: a link to a vendor's profile field, or a place on this page. */
export type Fix = { kind: 'link'; to: string; label: string } | { kind: 'here'; target: string; label: string };

/** Where an issue is fixed (`field` of the pre-flight, docs/register-of-information.md). */
export function fixOf(slug: string | null, field: string): Fix | null {
  if (field.startsWith('entity.')) return { kind: 'here', target: `entity-${field.slice(7)}`, label: 'Set it' };
  if (field.startsWith('fxRate:')) return { kind: 'here', target: `fx:${field.slice(7)}`, label: 'Record the rate' };
  const fn = /^function:([^.]+)\.(.+)$/.exec(field);
  if (fn)
    return fn[2] === 'contracts'
      ? { kind: 'link', to: '/vendors', label: 'Open the vendors' }
      : { kind: 'here', target: `fn:${fn[1]}`, label: 'Open the function' };
  if (field === 'contracts') return { kind: 'link', to: '/vendors', label: 'Open the vendors' };
  if (slug && field.startsWith('vendorProfile')) {
    const path = field.replace(/^vendorProfile\.?/, '') || 'legalName';
    return { kind: 'link', to: `/vendors/${encodeURIComponent(slug)}/profile#${path}`, label: 'Fix in the profile' };
  }
  return null;
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

/** The detail of an issue: the taxonomy check or the EBA rules, and the cell. */
function detailOf(i: PreflightIssue): string {
  const cell = [i.template, i.column].filter(Boolean).join(' ');
  const check = { key: 'Taxonomy key', unique: 'Taxonomy key, duplicate', reference: 'Taxonomy reference', rule: '', register: '' }[i.check];
  const rules = i.rules.length ? `EBA rule ${i.rules.join(', ')}` : '';
  return [[check, rules].filter(Boolean).join(', '), cell].filter(Boolean).join(' · ');
}

function IssueList({ issues, slug, name, onHere }: { issues: PreflightIssue[]; slug: string | null; name: string; onHere(target: string): void }) {
  return (
    <ul className={styles.issues}>
      {issues.map((i, n) => {
        const fix = fixOf(slug, i.field);
        const detail = detailOf(i);
        return (
          <li key={n}>
            <Severity s={i.severity} />
            <span className={styles.msg}>
              {i.message}
              {detail && <span className={`${styles.detail} muted small`}>{detail}</span>}
            </span>
            {fix?.kind === 'link' && (
              <Link to={fix.to} aria-label={`${fix.label}: ${name}, ${i.message}`}>
                {fix.label}
              </Link>
            )}
            {fix?.kind === 'here' && (
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => onHere(fix.target)} aria-label={`${fix.label}: ${i.message}`}>
                {fix.label}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function Summary({ pf, onDownload, busy }: { pf: Preflight; onDownload(f: 'xlsx' | 'xbrl-csv'): void; busy: 'xlsx' | 'xbrl-csv' | null }) {
  const p = pf.package;
  return (
    <>
      <div className={styles.status} role="status">
        {pf.ready ? (
          <CheckCircle2 size={28} aria-hidden="true" className={styles.okIcon} />
        ) : (
          <AlertCircle size={28} aria-hidden="true" className={styles.errIcon} />
        )}
        <div>
          <strong>{pf.ready ? 'Ready to file: no blocking issue' : `Not ready to file: ${plural(pf.errors, 'blocking issue')}`}</strong>
          <p className="muted small">
            Checked against the EBA's {pf.rules.active} active validation rules for the register and the DORA 4.0 taxonomy's keys and references, on the very
            tables the package holds.
          </p>
        </div>
      </div>
      <dl className={styles.counts}>
        <div>
          <dt>Blocking</dt>
          <dd data-testid="count-errors">{pf.errors}</dd>
        </div>
        <div>
          <dt>Missing values</dt>
          <dd data-testid="count-warnings">{pf.warnings}</dd>
        </div>
        <div>
          <dt>Vendors in the package</dt>
          <dd data-testid="count-vendors">
            {p.vendors} of {pf.vendors.length}
          </dd>
        </div>
      </dl>
      <p className={styles.holds} data-testid="package-holds">
        The package holds {plural(p.vendors, 'ICT third-party service provider')}, {plural(p.contracts, 'contract')}, {plural(p.functions, 'business function')}{' '}
        and {plural(p.subcontractors, 'subcontractor')} of rank 2.
      </p>
      <div className={styles.downloads}>
        <div className={styles.download}>
          <Button
            variant={pf.ready ? 'primary' : 'secondary'}
            icon={<FileArchive size={16} aria-hidden="true" />}
            busy={busy === 'xbrl-csv'}
            disabled={!pf.ready}
            aria-describedby="xbrl-what"
            onClick={() => onDownload('xbrl-csv')}
          >
            Download the xBRL-CSV package
          </Button>
          <p id="xbrl-what" className="muted small">
            What you file with your competent authority (EBA reporting framework 4.0, module DORA010100).
            {!pf.ready && ' It is produced once nothing blocks it: fix the blocking issues below first.'}
          </p>
        </div>
        <div className={styles.download}>
          <Button
            icon={<FileSpreadsheet size={16} aria-hidden="true" />}
            busy={busy === 'xlsx'}
            aria-describedby="xlsx-what"
            onClick={() => onDownload('xlsx')}
          >
            Download the workbook (XLSX)
          </Button>
          <p id="xlsx-what" className="muted small">
            For review, always available: summary sheets RT.01.01 to RT.05.01 (this service's view of your vendors), then the EBA templates B_01.01 to B_99.01
            as sheets, exactly as the package files them.
          </p>
        </div>
      </div>
    </>
  );
}

/** The Register of Information: the pre-flight as a to-do list, the two downloads, and the register's own records. */
export default function RegisterPage() {
  useTitle('Register of Information');
  const pf = usePreflight();
  const org = useOrganization().data;
  const toast = useToast();
  const [onlyBlocking, setOnlyBlocking] = useState(false);
  const [openFunction, setOpenFunction] = useState<string | null>(null);
  const [wantedRate, setWantedRate] = useState<string | null>(null);
  const download = useMutation({
    mutationFn: (format: 'xlsx' | 'xbrl-csv') =>
      downloadApiFile('/workspaces/roi-export', { query: { format } }, format === 'xlsx' ? 'register.xlsx' : 'register.zip'),
    onSuccess: ({ filename }) => toast.show(`Downloaded ${filename}`, 'success'),
  });
  const canWrite = org?.myRole === 'org_admin' || org?.myRole === 'analyst';

  // A to-do item fixed on this page: bring the place into view and focus it.
  const onHere = (target: string) => {
    let id = target;
    if (target.startsWith('fn:')) {
      setOpenFunction(`${target.slice(3)}:${Date.now()}`);
      id = 'functions';
    } else if (target.startsWith('fx:')) {
      setWantedRate(target.slice(3));
      id = 'fx-date';
    }
    requestAnimationFrame(() => {
      const el = document.getElementById(id);
      el?.scrollIntoView({ block: 'center' });
      (el?.matches('input, select, textarea') ? el : el?.querySelector<HTMLElement>('input, select, textarea'))?.focus({ preventScroll: true });
    });
  };
  const keep = (i: PreflightIssue) => !onlyBlocking || i.severity === 'error';

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
            <Summary pf={pf.data} onDownload={(f) => download.mutate(f)} busy={download.isPending ? (download.variables ?? null) : null} />
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
                  Create a vendor on the <Link to="/vendors">vendor list</Link>, record its contract, and it appears here.
                </p>
              </EmptyState>
            )}
            {pf.data.entity.filter(keep).length > 0 && (
              <div className="card" data-todo="entity">
                <h3>Your entity</h3>
                <IssueList issues={pf.data.entity.filter(keep)} slug={null} name="your entity" onHere={onHere} />
              </div>
            )}
            {pf.data.functions
              .filter((f) => f.issues.filter(keep).length)
              .map((f) => (
                <div key={f.id} className="card" data-todo={`function-${f.code}`}>
                  <h3>
                    Function {f.code}: {f.name}
                  </h3>
                  <IssueList issues={f.issues.filter(keep)} slug={null} name={`function ${f.code}`} onHere={onHere} />
                </div>
              ))}
            {pf.data.vendors.map((v) => {
              const issues = v.issues.filter(keep);
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
                    <IssueList issues={issues} slug={v.workspaceSlug} name={v.name} onHere={onHere} />
                  )}
                </div>
              );
            })}
          </section>

          <EntitySettings />
          <Functions canEdit={canWrite} focus={openFunction} />
          <FxRates canEdit={canWrite} wanted={wantedRate} />
          <AuditLog />
        </>
      )}
    </div>
  );
}
