import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, FileSearch, Pencil, X } from 'lucide-react';
import { useState } from 'react';
import { ApiError, get, messageOf, post } from '../api/client';
import type { ApiBody, ApiData, Workspace } from '../api/types';
import { useStreamEvent } from '../notifications/stream';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { useToast } from '../ui/Toasts';
import { vendorKey } from '../vendors/api';
import { countryFromText } from '../ui/countries';
import { formatDate, formatDateTime } from '../ui/format';
import { reflowQuote } from '../ui/reflow';
import { OpenPassage } from '../viewer/DocumentViewer';
import { countryLabel, ICT_OPTIONS } from './codes';
import styles from './Profile.module.css';

/** A register draft as the API returns it (docs/register-drafting.md): as listed, with its fields once read in full. */
type FullDraft = ApiData<'getProfileDraft'>['draft'];
type Draft = ApiData<'listProfileDrafts'>['drafts'][number] & Partial<Pick<FullDraft, 'fields'>>;
type DraftField = FullDraft['fields'][number];
type Evidence = DraftField['evidence'][number];
type Decision = ApiBody<'decideProfileDraft'>['decisions'][number];
/** The contract created with a decision when the vendor has none (docs/register-drafting.md, "Decisions"). */
type NewContract = Required<NonNullable<ApiBody<'decideProfileDraft'>['contract']>>;

const draftsKey = (ws: string) => ['profile-drafts', ws] as const;

/** A value in words: countries by name, null end date as indefinite, days, yes/no. */
export function formatValue(form: string, v: unknown): string {
  if (v === undefined) return '';
  if (form === 'dateOrIndefinite' && v === null) return 'Indefinite (until terminated)';
  if ((form === 'date' || form === 'dateOrIndefinite') && typeof v === 'string') return formatDate(v);
  if (form === 'days') return `${String(v)} days`;
  if (form === 'boolean') return v ? 'Yes' : 'No';
  if (form === 'country') return countryLabel(String(v));
  if (form === 'countries') return (v as string[]).map(countryLabel).join(', ');
  if (form === 'serviceType') return ICT_OPTIONS.find((o) => o.value === v)?.label ?? String(v);
  if (form === 'subcontractors') return (v as { name: string; country?: string }[]).map((s) => (s.country ? `${s.name} (${s.country})` : s.name)).join('; ');
  return String(v);
}

/** What the analyst typed, in the field's form (the API checks it and names the problem). */
function parseEdit(form: string, text: string): unknown {
  const t = text.trim();
  if (form === 'days') return /^\d+$/.test(t) ? Number(t) : t;
  if (form === 'dateOrIndefinite') return /^indefinite$/i.test(t) || t === '' ? null : t;
  if (form === 'boolean') return /^(yes|true)$/i.test(t) ? true : /^(no|false)$/i.test(t) ? false : t;
  // A country by name or code ("Germany", "DE"); what is not one goes as typed, for the API to refuse.
  if (form === 'country') return countryFromText(t) ?? t.toUpperCase();
  if (form === 'serviceType') return t.toUpperCase();
  if (form === 'countries')
    return t
      .split(/\s*[,;]\s*/)
      .flatMap((c) => (/^[A-Za-z]{2}(\s+[A-Za-z]{2})+$/.test(c) ? c.split(/\s+/) : [c]))
      .filter(Boolean)
      .map((c) => countryFromText(c) ?? c.toUpperCase());
  if (form === 'subcontractors') {
    try {
      return JSON.parse(t);
    } catch {
      return t;
    }
  }
  return t;
}
const editText = (form: string, v: unknown) =>
  v === undefined
    ? ''
    : form === 'subcontractors'
      ? JSON.stringify(v)
      : form === 'countries'
        ? (v as string[]).join(', ')
        : form === 'dateOrIndefinite' && v === null
          ? 'indefinite'
          : form === 'boolean'
            ? v
              ? 'yes'
              : 'no'
            : String(v);

function Passage({ e, ws }: { e: Evidence; ws: string }) {
  return (
    <figure className={styles.passage}>
      <blockquote className="quote">{reflowQuote(e.quote)}</blockquote>
      <figcaption>
        <OpenPassage
          target={{
            ws,
            source: { kind: 'document', documentId: e.documentId, chunkId: e.chunkId },
            title: e.title,
            section: e.section,
            page: e.page,
            passage: e.quote,
          }}
        >
          {e.title}
        </OpenPassage>
        {e.section ? ` · ${e.section}` : ''}
        {e.page ? ` · page ${e.page}` : ''}
      </figcaption>
    </figure>
  );
}

/**
 * The contract the decision needs, asked for at the button pressed: a reference (the title of the
 * document the value comes from, as the service would make it) and a start date.
 */
function NewContractFields({ f, vendorName, value: c, onChange }: { f: DraftField; vendorName: string; value: NewContract; onChange(c: NewContract): void }) {
  return (
    <fieldset className={styles.newContract}>
      <legend>{vendorName} has no contract yet: create it to record this value</legend>
      <label>
        Contract reference
        <input
          value={c.reference}
          maxLength={100}
          onChange={(e) => onChange({ ...c, reference: e.target.value })}
          aria-label={`Contract reference for ${f.label}`}
        />
      </label>
      <label>
        Start date
        <input
          type="date"
          value={c.startDate}
          onChange={(e) => onChange({ ...c, startDate: e.target.value })}
          aria-label={`Contract start date for ${f.label}`}
        />
      </label>
    </fieldset>
  );
}

function FieldRow({
  f,
  ws,
  canDecide,
  busy,
  onDecide,
  needsContract,
  vendorName,
  suggestedStart,
  error,
}: {
  f: DraftField;
  ws: string;
  canDecide: boolean;
  busy: boolean;
  onDecide(d: Decision, contract?: NewContract): void;
  /** The vendor has no contract and the field goes into one. */
  needsContract: boolean;
  vendorName: string;
  suggestedStart?: string;
  /** The error of the last decision on this field, shown here at the button. */
  error: unknown;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(editText(f.form, f.value));
  /** The accept (or candidate) waiting for the contract to be created. */
  const [pending, setPending] = useState<Decision | null>(null);
  const [edited, setContract] = useState<NewContract | null>(null);
  const contract = edited ?? {
    reference: f.evidence[0]?.title ?? f.candidates?.[0]?.evidence[0]?.title ?? `${vendorName} contract`,
    startDate: suggestedStart ?? '',
  };
  const decided = f.decision;
  const askContract = needsContract || (error instanceof ApiError && error.code === 'CONTRACT_REQUIRED');
  // Without a contract, an accept first asks for the contract to create (the form below sends both).
  const decide = (d: Decision) => {
    if (askContract && d.action !== 'reject') return setPending(d);
    setPending(null);
    onDecide(d);
  };
  return (
    <li className={styles.draftField} data-draft-field={f.field} aria-label={f.label}>
      <div className={styles.draftHead}>
        <strong>{f.label}</strong>
        {f.status === 'proposed' && <span className={styles.draftValue}>{formatValue(f.form, f.value)}</span>}
        {f.status === 'conflict' && <span className="badge badge-warn">Documents disagree</span>}
        {f.confidence !== undefined && <span className={styles.confidence}>confidence {Math.round(f.confidence * 100)}%</span>}
        {decided && (
          <span className={`badge ${decided.action === 'rejected' ? 'badge-muted' : 'badge-ok'}`}>
            {decided.action === 'accepted' ? 'Accepted' : decided.action === 'edited' ? `Edited: ${formatValue(f.form, decided.value)}` : 'Rejected'}
          </span>
        )}
      </div>
      {f.status === 'proposed' && f.evidence.slice(0, f.form === 'subcontractors' ? 1 : 2).map((e, i) => <Passage key={i} e={e} ws={ws} />)}
      {f.status === 'conflict' &&
        f.candidates!.map((c, i) => (
          <div key={i} className={styles.candidate}>
            <span className={styles.draftValue}>{formatValue(f.form, c.value)}</span>
            {c.evidence.slice(0, 1).map((e, j) => (
              <Passage key={j} e={e} ws={ws} />
            ))}
            {canDecide && !decided && (
              <Button
                size="sm"
                busy={busy}
                icon={<Check size={14} />}
                onClick={() => decide({ field: f.field, action: 'accept', candidate: i })}
                aria-label={`Accept ${formatValue(f.form, c.value)} for ${f.label}`}
              >
                Accept this
              </Button>
            )}
          </div>
        ))}
      {canDecide && !decided && (
        <div className={styles.draftActions}>
          {editing ? (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                onDecide({ field: f.field, action: 'edit', value: parseEdit(f.form, text) }, askContract ? contract : undefined);
              }}
            >
              {askContract && <NewContractFields f={f} vendorName={vendorName} value={contract} onChange={setContract} />}
              <label>
                <span className="visually-hidden">New value for {f.label}</span>
                <input value={text} onChange={(e) => setText(e.target.value)} aria-label={`New value for ${f.label}`} />
              </label>
              <Button type="submit" size="sm" variant="primary" busy={busy}>
                Save value
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            </form>
          ) : (
            <>
              {f.status === 'proposed' && (
                <Button
                  size="sm"
                  variant="primary"
                  busy={busy}
                  icon={<Check size={14} />}
                  onClick={() => decide({ field: f.field, action: 'accept' })}
                  aria-label={`Accept ${f.label}`}
                >
                  Accept
                </Button>
              )}
              <Button size="sm" icon={<Pencil size={14} />} onClick={() => setEditing(true)} aria-label={`Edit ${f.label}`}>
                Edit
              </Button>
              <Button
                size="sm"
                variant="ghost"
                busy={busy}
                icon={<X size={14} />}
                onClick={() => decide({ field: f.field, action: 'reject' })}
                aria-label={`Reject ${f.label}`}
              >
                Reject
              </Button>
            </>
          )}
        </div>
      )}
      {canDecide && !decided && pending && askContract && (
        <form
          className={styles.draftActions}
          onSubmit={(e) => {
            e.preventDefault();
            onDecide(pending, contract);
          }}
          aria-label={`Create the contract for ${f.label}`}
        >
          <NewContractFields f={f} vendorName={vendorName} value={contract} onChange={setContract} />
          <Button type="submit" size="sm" variant="primary" busy={busy} disabled={!contract.reference.trim() || !contract.startDate}>
            Create the contract and accept
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setPending(null)}>
            Cancel
          </Button>
        </form>
      )}
      {error !== null && error !== undefined && !(askContract && pending && error instanceof ApiError && error.code === 'CONTRACT_REQUIRED') && (
        <p className={`alert alert-error ${styles.fieldError}`} role="alert">
          {error instanceof ApiError && error.details.length && error.code === 'VALIDATION_ERROR' ? error.details.join('; ') : messageOf(error)}
        </p>
      )}
    </li>
  );
}

/**
 * "Draft from documents" on the vendor profile (docs/register-drafting.md): starts a draft,
 * shows each proposed value with its passage and confidence, conflicts with both passages
 * and the fields not found; the analyst accepts, edits or rejects each value.
 */
export function DraftPanel({ vendor }: { vendor: Workspace }) {
  // Reading drafts needs canViewSources (they quote the documents): without it the panel is not shown.
  if (!vendor.permissions.canViewSources) return null;
  return <DraftPanelBody vendor={vendor} />;
}

function DraftPanelBody({ vendor }: { vendor: Workspace }) {
  const ws = vendor.id;
  const canDecide = vendor.permissions.canManageSync;
  const qc = useQueryClient();
  const toast = useToast();
  const list = useQuery({
    queryKey: draftsKey(ws),
    queryFn: async (): Promise<Draft | null> => {
      const { drafts } = await get<ApiData<'listProfileDrafts'>>(`/workspaces/${encodeURIComponent(ws)}/profile-drafts`, { query: { limit: 1 } });
      const latest = drafts[0];
      if (!latest || latest.status !== 'completed') return latest ?? null;
      return (await get<ApiData<'getProfileDraft'>>(`/workspaces/${encodeURIComponent(ws)}/profile-drafts/${latest.id}`)).draft;
    },
  });
  const draft = list.data ?? null;
  const refresh = () => void qc.invalidateQueries({ queryKey: draftsKey(ws) });
  // The job's end arrives as a notification on the push channel (no polling).
  useStreamEvent('notification:new', (e) => {
    const n = e as { type?: string; data?: { draftId?: string } };
    if (n.type?.startsWith('profile_draft_')) refresh();
  });
  useStreamEvent('stream:reconnecting', refresh);

  const start = useMutation({
    mutationFn: () => post<ApiData<'startProfileDraft'>>(`/workspaces/${encodeURIComponent(ws)}/profile-drafts`),
    onSuccess: ({ draft: d }) => {
      qc.setQueryData(draftsKey(ws), d);
      toast.show('Drafting from the documents; you will be notified when it is ready', 'info');
    },
  });
  const decide = useMutation({
    mutationFn: ({ d, contract }: { d: Decision; contract?: NewContract }) =>
      post<ApiData<'decideProfileDraft'>>(`/workspaces/${encodeURIComponent(ws)}/profile-drafts/${draft!.id}/decisions`, {
        decisions: [d],
        ...(contract ? { contract: { startDate: contract.startDate, reference: contract.reference.trim() || undefined } } : {}),
      }),
    onSuccess: async (res, { d, contract }) => {
      qc.setQueryData(draftsKey(ws), res.draft);
      // The profile as the decision left it, at once: a field decided next sees the contract this one created.
      qc.setQueryData(vendorKey(vendor.workspaceId), (old: Workspace | undefined) =>
        old ? { ...old, vendorProfile: res.vendorProfile as Record<string, unknown>, vendorProfileSources: res.vendorProfileSources } : old,
      );
      await qc.invalidateQueries({ queryKey: vendorKey(vendor.workspaceId) });
      await qc.invalidateQueries({ queryKey: ['roi-preflight'] });
      toast.show(
        d.action === 'reject' ? 'Value rejected' : contract ? `Contract ${contract.reference} created; value written to it` : 'Value written to the profile',
        'success',
      );
    },
  });

  const running = draft && (draft.status === 'pending' || draft.status === 'running');
  const hasContract = ((vendor.vendorProfile as { contracts?: unknown[] }).contracts ?? []).length > 0;
  const startField = draft?.fields?.find((f) => f.field === 'startDate');
  const startProposal = startField?.status === 'proposed' && typeof startField.value === 'string' ? startField.value : undefined;
  const fields = draft?.fields ?? [];
  const open = fields.filter((f) => f.status === 'proposed' || f.status === 'conflict');
  // Fields the documents address but leave open say why; the others were not found at all.
  const leftOpen = fields.filter((f) => f.status === 'not_found' && f.reason);
  const notFound = fields.filter((f) => f.status === 'not_found' && !f.reason);
  const unchanged = fields.filter((f) => f.status === 'unchanged');
  return (
    <section className={styles.draftPanel} aria-labelledby="draft-heading">
      <div className={styles.draftTop}>
        <div>
          <h2 id="draft-heading">Draft from documents</h2>
          <p className="page-sub">
            Register fields read from this vendor's documents, each with the passage it comes from. Nothing is written until you accept it.
          </p>
        </div>
        {canDecide && (
          <Button variant="primary" icon={<FileSearch size={16} />} busy={start.isPending || !!running} onClick={() => start.mutate()}>
            {running ? 'Drafting…' : draft ? 'Draft again' : 'Draft from documents'}
          </Button>
        )}
      </div>
      {start.error && <ErrorMessage error={start.error} />}
      {list.isLoading && <p className="page-sub">Loading the latest draft…</p>}
      {draft?.status === 'failed' && <p className="alert alert-error">The draft failed: {draft.error}</p>}
      {running && <p role="status">Drafting from the documents…</p>}
      {draft?.status === 'completed' && draft.summary && (
        <>
          <p role="status" className={styles.draftSummary}>
            Draft of {formatDateTime(draft.createdAt)}: {draft.summary.proposed} proposed, {draft.summary.conflicts} conflict(s), {draft.summary.notFound} not
            found, {draft.summary.unchanged} unchanged.
          </p>
          {open.length > 0 && (
            <ul className={styles.draftList} aria-label="Proposed values">
              {open.map((f) => (
                <FieldRow
                  key={`${draft.id}-${f.field}`}
                  f={f}
                  ws={ws}
                  canDecide={canDecide}
                  busy={decide.isPending && decide.variables?.d.field === f.field}
                  onDecide={(d, contract) => decide.mutate({ d, contract })}
                  needsContract={f.target === 'contract' && !hasContract}
                  vendorName={vendor.workspaceName}
                  suggestedStart={startProposal}
                  error={decide.variables?.d.field === f.field ? decide.error : null}
                />
              ))}
            </ul>
          )}
          {leftOpen.length > 0 && (
            <>
              <h3 className={styles.draftSubhead}>Left open by the documents</h3>
              <ul className={styles.draftList} aria-label="Left open by the documents">
                {leftOpen.map((f) => (
                  <li key={`${draft.id}-${f.field}`} className={styles.draftField} data-draft-field={f.field} aria-label={f.label}>
                    <div className={styles.draftHead}>
                      <strong>{f.label}</strong>
                      <span className="badge badge-muted">No value</span>
                    </div>
                    <p className={styles.draftReason}>{f.reason}</p>
                    {f.evidence.slice(0, 1).map((e) => (
                      <Passage key={e.chunkId} e={e} ws={ws} />
                    ))}
                  </li>
                ))}
              </ul>
            </>
          )}
          {notFound.length > 0 && <p className={styles.draftNote}>Not found in the documents: {notFound.map((f) => f.label).join(', ')}.</p>}
          {unchanged.length > 0 && <p className={styles.draftNote}>Unchanged since accepted: {unchanged.map((f) => f.label).join(', ')}.</p>}
        </>
      )}
    </section>
  );
}
