import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, Building2, Plus, X } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { post } from '../api/client';
import type { ApiData, WorkspaceListItem } from '../api/types';
import { useOrganization } from '../auth/session';
import { useTitle } from '../lib/useTitle';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { EmptyState } from '../ui/EmptyState';
import { Field } from '../ui/Field';
import { formatDate, formatDateTime, timeAgo } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import { useInventory, vendorsKey } from './api';
import styles from './Inventory.module.css';
import { SyncStatusBadge } from './SyncStatusBadge';

/** Sortable columns: the GET /workspaces sort key of each (docs/inventory.md, "Sorts"). */
const COLUMNS = [
  { key: 'workspaceName', label: 'Vendor' },
  { key: 'criticalityTier', label: 'Tier' },
  { key: 'riskRating', label: 'Risk' },
  { key: 'assessmentScore', label: 'Latest assessment' },
  { key: 'contractEnd', label: 'Contract end' },
  { key: 'nextReviewDate', label: 'Next review' },
  { key: 'outstandingQuestionnaires', label: 'Questionnaires' },
  { key: 'lifecycle', label: 'Lifecycle' },
] as const;
const TIERS = ['critical', 'high', 'medium', 'low'] as const;
const LIFECYCLES = ['onboarding', 'active', 'exiting', 'exited'] as const;
/** Filters a KPI link may set that have no control of their own: shown as removable chips. */
const LINKED_FILTERS: Record<string, (v: string) => string> = {
  contractEndWithinDays: (v) => `Contract ends within ${v} days`,
  exitPlan: () => 'No exit plan',
  signedOff: () => 'No signed-off assessment this review cycle',
  questionnaires: (v) => (v === 'overdue' ? 'Questionnaire overdue' : 'Questionnaire outstanding'),
  vendorOwnerId: () => 'One vendor owner',
  overdue: (v) => (v === 'true' ? 'Review overdue' : 'Review not overdue'),
};
const tone = (t: string | null | undefined) => (t === 'critical' || t === 'high' ? 'error' : t === 'medium' ? 'warn' : t === 'low' ? 'ok' : 'muted');
const today = () => new Date().toISOString().slice(0, 10);

/** The vendor inventory: every vendor with tier, risk, latest assessment, contract end, next review and questionnaires; searched, filtered, sorted and paged by the server. */
export default function VendorsPage() {
  useTitle('Vendors');
  const [params, setParams] = useSearchParams();
  const vendors = useInventory(params);
  const org = useOrganization().data;
  const [creating, setCreating] = useState(false);
  const canCreate = org?.myRole !== 'viewer';
  const page = Number(params.get('page') ?? 1) || 1;
  const sort = params.get('sort') ?? 'workspaceName';
  /** Sets (or, with '' / null, removes) query parameters; any change but the page goes back to page 1. */
  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };
  // The search box writes `q` to the address 250 ms after typing stops; an address changed
  // otherwise (back, a link) sets the box.
  const urlQ = params.get('q') ?? '';
  const [search, setSearch] = useState(urlQ);
  const written = useRef(urlQ);
  useEffect(() => {
    if (urlQ !== written.current) {
      written.current = urlQ;
      setSearch(urlQ);
    }
  }, [urlQ]);
  useEffect(() => {
    const id = setTimeout(() => {
      if (urlQ !== search.trim()) {
        written.current = search.trim();
        update({ q: search.trim() });
      }
    }, 250);
    return () => clearTimeout(id);
  });
  const due = params.get('overdue') === 'true' && !params.get('dueWithinDays') ? 'overdue' : (params.get('dueWithinDays') ?? '');
  const linked = Object.keys(LINKED_FILTERS).filter((k) => params.has(k) && !(k === 'overdue' && due === 'overdue'));
  const filtered = ['q', 'tier', 'risk', 'lifecycle', 'dueWithinDays', ...Object.keys(LINKED_FILTERS)].some((k) => params.has(k));
  return (
    <div className="page page-inventory">
      <header className="page-header">
        <div>
          <h1>Vendors</h1>
          <p className="page-sub">The vendor inventory of {org?.name ?? 'your organization'}: criticality, risk, contracts, reviews and questionnaires.</p>
        </div>
        {canCreate && (
          <Button variant="primary" icon={<Plus size={16} aria-hidden="true" />} onClick={() => setCreating(true)}>
            New vendor
          </Button>
        )}
      </header>
      <form className={styles.filters} role="search" aria-label="Filter vendors" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="inv-q">Search</label>
          <input id="inv-q" type="search" value={search} maxLength={200} placeholder="Vendor name" onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="inv-tier">Tier</label>
          <select id="inv-tier" value={params.get('tier') ?? ''} onChange={(e) => update({ tier: e.target.value })}>
            <option value="">All tiers</option>
            {TIERS.map((t) => (
              <option key={t} value={t} className="cap">
                {t[0]!.toUpperCase() + t.slice(1)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="inv-risk">Risk</label>
          <select id="inv-risk" value={params.get('risk') ?? ''} onChange={(e) => update({ risk: e.target.value })}>
            <option value="">All ratings</option>
            {TIERS.map((t) => (
              <option key={t} value={t}>
                {t[0]!.toUpperCase() + t.slice(1)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="inv-due">Review due</label>
          <select
            id="inv-due"
            value={due}
            onChange={(e) =>
              e.target.value === 'overdue' ? update({ overdue: 'true', dueWithinDays: null }) : update({ dueWithinDays: e.target.value, overdue: null })
            }
          >
            <option value="">Any time</option>
            <option value="overdue">Overdue</option>
            <option value="30">Within 30 days</option>
            <option value="90">Within 90 days</option>
            <option value="365">Within a year</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="inv-life">Lifecycle</label>
          <select id="inv-life" value={params.get('lifecycle') ?? ''} onChange={(e) => update({ lifecycle: e.target.value })}>
            <option value="">All</option>
            {LIFECYCLES.map((l) => (
              <option key={l} value={l}>
                {l[0]!.toUpperCase() + l.slice(1)}
              </option>
            ))}
          </select>
        </div>
        {filtered && (
          <Button
            size="sm"
            onClick={() => {
              setSearch('');
              setParams(new URLSearchParams(params.has('sort') ? { sort } : {}), { replace: true });
            }}
          >
            Clear filters
          </Button>
        )}
      </form>
      {linked.length > 0 && (
        <ul className={styles.chips} aria-label="Other filters">
          {linked.map((k) => (
            <li key={k}>
              <span className="badge badge-muted">
                {LINKED_FILTERS[k]!(params.get(k)!)}
                <button
                  type="button"
                  className={styles.chipClose}
                  aria-label={`Remove the filter: ${LINKED_FILTERS[k]!(params.get(k)!)}`}
                  onClick={() => update({ [k]: null })}
                >
                  <X size={12} aria-hidden="true" />
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {vendors.isPending ? (
        <Loading label="Loading vendors…" />
      ) : vendors.isError ? (
        <ErrorMessage error={vendors.error} title="The vendors could not be loaded" onRetry={() => vendors.refetch()} />
      ) : vendors.data.workspaces.length === 0 && !filtered ? (
        <EmptyState
          icon={<Building2 size={36} />}
          title="No vendors yet"
          action={
            canCreate && (
              <Button variant="primary" onClick={() => setCreating(true)}>
                Create the first vendor
              </Button>
            )
          }
        >
          <p>A vendor workspace holds one ICT provider's contracts, policies and reports. Upload them, then ask questions with cited answers.</p>
        </EmptyState>
      ) : vendors.data.workspaces.length === 0 ? (
        <EmptyState title="No vendor matches these filters">
          <p>Change or clear the filters to see more vendors.</p>
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table table-cards">
            <caption className="visually-hidden">Vendors, sorted by {COLUMNS.find((c) => sort.replace(/^-/, '') === c.key)?.label ?? 'name'}</caption>
            <thead>
              <tr>
                {COLUMNS.map((c) => {
                  const active = sort.replace(/^-/, '') === c.key;
                  const desc = active && sort.startsWith('-');
                  return (
                    <th key={c.key} scope="col" aria-sort={active ? (desc ? 'descending' : 'ascending') : 'none'}>
                      <button type="button" className={styles.sortButton} onClick={() => update({ sort: active && !desc ? `-${c.key}` : c.key })}>
                        {c.label}
                        {active ? desc ? <ArrowDown size={13} aria-hidden="true" /> : <ArrowUp size={13} aria-hidden="true" /> : null}
                      </button>
                    </th>
                  );
                })}
                <th scope="col">Documents</th>
              </tr>
            </thead>
            <tbody>
              {vendors.data.workspaces.map((w) => (
                <InventoryRow key={w.id} w={w} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {vendors.data && vendors.data.pagination.pages > 1 && (
        <nav className="pager" aria-label="Pages of vendors">
          <Button size="sm" disabled={page <= 1} onClick={() => update({ page: String(page - 1) })}>
            Previous
          </Button>
          <span className="small">
            Page {page} of {vendors.data.pagination.pages} · {vendors.data.pagination.total} vendors
          </span>
          <Button size="sm" disabled={page >= vendors.data.pagination.pages} onClick={() => update({ page: String(page + 1) })}>
            Next
          </Button>
        </nav>
      )}
      {vendors.data && vendors.data.pagination.pages <= 1 && filtered && (
        <p className="small muted" aria-live="polite">
          {vendors.data.pagination.total} {vendors.data.pagination.total === 1 ? 'vendor matches' : 'vendors match'}
        </p>
      )}
      <CreateVendorDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}

function InventoryRow({ w }: { w: WorkspaceListItem }) {
  const now = today();
  const overdue = !!w.nextReviewDate && w.nextReviewDate < now;
  const la = w.latestAssessment;
  return (
    <tr>
      <td>
        <Link to={`/vendors/${encodeURIComponent(w.workspaceId)}`} className="strong-link">
          {w.workspaceName}
        </Link>
        <div className="muted small">{w.vendorOwner ? `Owner: ${w.vendorOwner.name}` : 'No owner'}</div>
      </td>
      <td data-label="Tier" className="cap">
        {w.criticalityTier ? <span className={`badge badge-${tone(w.criticalityTier)}`}>{w.criticalityTier}</span> : <span className="muted">—</span>}
      </td>
      <td data-label="Risk">
        {w.riskRating ? <span className={`badge badge-${tone(w.riskRating)} cap`}>{w.riskRating}</span> : <span className="muted">Not assessed</span>}
      </td>
      <td data-label="Latest assessment">
        {la ? (
          <>
            {la.score ?? '—'}
            <span className="muted">/100</span>
            <div className="muted small">
              {formatDate(la.completedAt)}
              {la.signedOffAt ? ' · signed off' : ''}
            </div>
          </>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td data-label="Contract end">{w.contractEnd ? formatDate(w.contractEnd) : <span className="muted">—</span>}</td>
      <td data-label="Next review">
        {w.nextReviewDate ? (
          <>
            {formatDate(w.nextReviewDate)}
            {overdue && (
              <div>
                <span className="badge badge-error">Overdue</span>
              </div>
            )}
          </>
        ) : (
          <span className="muted">Not set</span>
        )}
      </td>
      <td data-label="Questionnaires">
        {w.outstandingQuestionnaires ? (
          <>
            {w.outstandingQuestionnaires} outstanding
            {w.overdueQuestionnaires ? <div className="small">{w.overdueQuestionnaires} overdue</div> : null}
          </>
        ) : (
          <span className="muted">None outstanding</span>
        )}
      </td>
      <td data-label="Lifecycle" className="cap">
        {w.lifecycle ?? 'active'}
      </td>
      <td data-label="Documents">
        {w.syncStatus === 'active' && !w.documentCount ? <span className="badge badge-muted">No documents</span> : <SyncStatusBadge status={w.syncStatus} />}
        <div className="small">
          <span data-count="documents">{w.documentCount ?? 0}</span> documents ·{' '}
          {w.lastSyncedAt ? (
            <time dateTime={w.lastSyncedAt} title={formatDateTime(w.lastSyncedAt)}>
              {timeAgo(w.lastSyncedAt)}
            </time>
          ) : (
            <span className="muted">never synced</span>
          )}
        </div>
      </td>
    </tr>
  );
}

function CreateVendorDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => post<ApiData<'createWorkspace'>>('/workspaces', { workspaceName: name.trim() }),
    onSuccess: async ({ workspace }) => {
      await qc.invalidateQueries({ queryKey: vendorsKey });
      toast.show(`Vendor ${workspace.workspaceName} created`, 'success');
      setName('');
      onClose();
      navigate(`/vendors/${encodeURIComponent(workspace.workspaceId)}`);
    },
  });
  return (
    <Dialog
      open={open}
      onClose={() => {
        create.reset();
        onClose();
      }}
      title="New vendor"
    >
      <form
        className="form"
        id="create-vendor"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Field
          label="Vendor name"
          required
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. GitHub"
          autoFocus
          hint="The provider's usual name; the legal details go in its profile."
        />
        {create.isError && <ErrorMessage error={create.error} />}
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending} disabled={!name.trim()}>
            Create vendor
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
