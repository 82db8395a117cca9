import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, FileSearch, Pencil, X } from 'lucide-react';
import { useState } from 'react';
import { ApiError, get, messageOf, post } from '../api/client';
import type { Workspace } from '../api/types';
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

/** A register draft as the API returns it (docs/register-drafting.md). */
interface Evidence {
  documentId: string;
  chunkId: string;
  title: string;
  section: string;
  page: string | null;
  quote: string;
  link: string;
}
interface DraftField {
  field: string;
  label: string;
  form: string;
  status: 'proposed' | 'conflict' | 'not_found' | 'unchanged';
  value?: unknown;
  confidence?: number;
  evidence: Evidence[];
  candidates?: { value: unknown; confidence: number; evidence: Evidence[] }[];
  decision: { action: 'accepted' | 'edited' | 'rejected'; value?: unknown } | null;
}
interface Draft {
  id: string;
  status: 'pending' | 'running' | 'completed' | 'failed';
  error: string | null;
  createdAt: string;
  summary: { proposed: number; conflicts: number; notFound: number; unchanged: number } | null;
  fields?: DraftField[];
}
type Decision = { field: string; action: 'accept' | 'edit' | 'reject'; value?: unknown; candidate?: number };

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

function FieldRow({ f, ws, canDecide, busy, onDecide }: { f: DraftField; ws: string; canDecide: boolean; busy: boolean; onDecide(d: Decision): void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(editText(f.form, f.value));
  const decided = f.decision;
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
                onClick={() => onDecide({ field: f.field, action: 'accept', candidate: i })}
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
                onDecide({ field: f.field, action: 'edit', value: parseEdit(f.form, text) });
              }}
            >
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
                  onClick={() => onDecide({ field: f.field, action: 'accept' })}
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
                onClick={() => onDecide({ field: f.field, action: 'reject' })}
                aria-label={`Reject ${f.label}`}
              >
                Reject
              </Button>
            </>
          )}
        </div>
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
    queryFn: async () => {
      const { drafts } = await get<{ drafts: Draft[] }>(`/workspaces/${encodeURIComponent(ws)}/profile-drafts`, { query: { limit: 1 } });
      const latest = drafts[0];
      if (!latest || latest.status !== 'completed') return latest ?? null;
      return (await get<{ draft: Draft }>(`/workspaces/${encodeURIComponent(ws)}/profile-drafts/${latest.id}`)).draft;
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
    mutationFn: () => post<{ draft: Draft }>(`/workspaces/${encodeURIComponent(ws)}/profile-drafts`),
    onSuccess: ({ draft: d }) => {
      qc.setQueryData(draftsKey(ws), d);
      toast.show('Drafting from the documents; you will be notified when it is ready', 'info');
    },
  });
  const decide = useMutation({
    mutationFn: (d: Decision) =>
      post<{ draft: Draft; vendorProfile: unknown }>(`/workspaces/${encodeURIComponent(ws)}/profile-drafts/${draft!.id}/decisions`, { decisions: [d] }),
    onSuccess: async (res, d) => {
      qc.setQueryData(draftsKey(ws), res.draft);
      await qc.invalidateQueries({ queryKey: vendorKey(vendor.workspaceId) });
      await qc.invalidateQueries({ queryKey: ['roi-preflight'] });
      toast.show(d.action === 'reject' ? 'Value rejected' : 'Value written to the profile', 'success');
    },
  });

  const running = draft && (draft.status === 'pending' || draft.status === 'running');
  const fields = draft?.fields ?? [];
  const open = fields.filter((f) => f.status === 'proposed' || f.status === 'conflict');
  const notFound = fields.filter((f) => f.status === 'not_found');
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
      {decide.error && (
        <p className="alert alert-error" role="alert">
          {decide.error instanceof ApiError && decide.error.details.length ? decide.error.details.join('; ') : messageOf(decide.error)}
        </p>
      )}
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
                <FieldRow key={`${draft.id}-${f.field}`} f={f} ws={ws} canDecide={canDecide} busy={decide.isPending} onDecide={(d) => decide.mutate(d)} />
              ))}
            </ul>
          )}
          {notFound.length > 0 && <p className={styles.draftNote}>Not found in the documents: {notFound.map((f) => f.label).join(', ')}.</p>}
          {unchanged.length > 0 && <p className={styles.draftNote}>Unchanged since accepted: {unchanged.map((f) => f.label).join(', ')}.</p>}
        </>
      )}
    </section>
  );
}
