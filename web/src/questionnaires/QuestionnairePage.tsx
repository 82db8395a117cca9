import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, ArrowLeft, CheckCircle2, Copy, FileSearch, Send, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Link, useOutletContext, useParams } from 'react-router';
import { patch, post } from '../api/client';
import type { ApiData } from '../api/types';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Field, TextArea } from '../ui/Field';
import { formatDate, formatDateTime } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import { reflowQuote } from '../ui/reflow';
import type { VendorOutletContext } from '../vendors/VendorPage';
import { OpenPassage } from '../viewer/DocumentViewer';
import { answerText, CLAIM_VERDICT, questionnairesKey, useQuestionnaire, type AnalystQuestion, type ClaimFlag } from './api';
import { QStatusBadge } from './QStatusBadge';
import styles from './Questionnaires.module.css';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** One questionnaire for the analyst: pre-fill, send, follow, review answers and scores, complete. */
export default function QuestionnairePage() {
  const { vendor } = useOutletContext<VendorOutletContext>();
  const { questionnaireId = '' } = useParams();
  const ws = vendor.workspaceId;
  const q = useQuestionnaire(ws, questionnaireId);
  const qc = useQueryClient();
  const toast = useToast();
  const canWrite = vendor.permissions.canManageSync;
  const [email, setEmail] = useState('');
  const [completing, setCompleting] = useState(false);
  const [note, setNote] = useState('');
  const [flaggedOnly, setFlaggedOnly] = useState(false);
  /** The vendor link of the last send (the API shows it only then: it stores the token hashed). */
  const [shownLink, setShownLink] = useState<string | null>(null);
  const path = `/questionnaires/${encodeURIComponent(questionnaireId)}`;
  const act = useMutation({
    mutationFn: async (a: { kind: 'prefill' | 'send' | 'status' | 'contact' | 'accept'; status?: string; questionId?: string; note?: string }) => {
      if (a.kind === 'prefill') return (await post<ApiData<'prefillQuestionnaire'>>(`${path}/prefill`, undefined, { workspace: ws })).questionnaire;
      if (a.kind === 'send') return (await post<ApiData<'sendQuestionnaire'>>(`${path}/send`, undefined, { workspace: ws })).questionnaire;
      if (a.kind === 'contact')
        return (await patch<ApiData<'updateQuestionnaire'>>(path, { vendorContact: { email: email.trim() } }, { workspace: ws })).questionnaire;
      if (a.kind === 'accept')
        return (await patch<ApiData<'updateQuestionnaire'>>(path, { reviews: [{ questionId: a.questionId, acceptSuggestion: true }] }, { workspace: ws }))
          .questionnaire;
      const body = a.note !== undefined ? { status: a.status, reviewerNotes: a.note } : { status: a.status };
      return (await patch<ApiData<'updateQuestionnaire'>>(path, body, { workspace: ws })).questionnaire;
    },
    onSuccess: (data, a) => {
      qc.setQueryData([...questionnairesKey(ws), questionnaireId], data);
      if (a.kind === 'send' && data.link.url) setShownLink(data.link.url);
      void qc.invalidateQueries({ queryKey: questionnairesKey(ws) });
      const words = {
        prefill: 'Answers proposed from the documents',
        send: `Link sent to ${data.vendorContact?.email}`,
        contact: 'Contact saved',
        accept: 'Proposed answer accepted',
        status: 'Status changed',
      };
      toast.show(words[a.kind], 'success');
    },
  });

  if (q.isPending) return <Loading label="Loading the questionnaire…" />;
  if (q.isError) return <ErrorMessage error={q.error} title="The questionnaire could not be loaded" onRetry={() => q.refetch()} />;
  const d = q.data;
  const prefilled = d.questions.filter((x) => x.suggestion?.value !== null && x.suggestion?.value !== undefined).length;
  const sendable = ['draft', 'sent', 'in_progress'].includes(d.status);
  const flagged = d.claims.flagged;
  const noteNeeded = flagged > 0 && !note.trim();
  return (
    <div>
      <p className="breadcrumb">
        <Link to=".." relative="path">
          <ArrowLeft size={14} aria-hidden="true" /> All questionnaires
        </Link>
      </p>
      <div className="page-header" style={{ marginBottom: 12 }}>
        <div>
          <h2>{d.title}</h2>
          <p className="page-sub">
            <QStatusBadge status={d.status} /> {d.progress.answered} of {d.progress.questions} answered
            {d.vendorContact && <> · vendor contact {d.vendorContact.email}</>}
            {d.dueDate && <> · due {formatDate(d.dueDate)}</>}
            {flagged > 0 && (
              <>
                {' '}
                · <strong>{flagged} flagged</strong>
              </>
            )}
          </p>
        </div>
        <div className={styles.actions}>
          {canWrite && ['draft', 'sent', 'in_progress'].includes(d.status) && (
            <Button
              icon={<Sparkles size={16} aria-hidden="true" />}
              busy={act.isPending && act.variables?.kind === 'prefill'}
              onClick={() => act.mutate({ kind: 'prefill' })}
            >
              {prefilled ? 'Pre-fill again' : 'Pre-fill from documents'}
            </Button>
          )}
          {canWrite && sendable && d.vendorContact && (
            <Button
              variant="primary"
              icon={<Send size={16} aria-hidden="true" />}
              busy={act.isPending && act.variables?.kind === 'send'}
              onClick={() => act.mutate({ kind: 'send' })}
            >
              {d.status === 'draft' ? 'Send to the vendor' : 'Send a new link'}
            </Button>
          )}
          {canWrite && d.status === 'submitted' && (
            <>
              <Button onClick={() => act.mutate({ kind: 'status', status: 'in_progress' })}>Return to the vendor</Button>
              <Button
                variant="primary"
                icon={<CheckCircle2 size={16} aria-hidden="true" />}
                busy={act.isPending && act.variables?.kind === 'status'}
                onClick={() => setCompleting(true)}
                aria-haspopup="dialog"
              >
                Accept and complete
              </Button>
            </>
          )}
          {canWrite && d.status === 'complete' && <Button onClick={() => act.mutate({ kind: 'status', status: 'submitted' })}>Reopen the review</Button>}
        </div>
      </div>
      {act.isError && <ErrorMessage error={act.error} title="That did not work" />}
      <Dialog
        open={completing}
        onClose={() => setCompleting(false)}
        title="Accept the answers and complete?"
        footer={
          <>
            <Button onClick={() => setCompleting(false)}>Cancel</Button>
            <Button
              variant="primary"
              busy={act.isPending && act.variables?.kind === 'status'}
              disabled={noteNeeded}
              onClick={() => act.mutate({ kind: 'status', status: 'complete', note: note.trim() || undefined }, { onSettled: () => setCompleting(false) })}
            >
              Complete
            </Button>
          </>
        }
      >
        <p>
          The vendor’s answers are accepted and the score is frozen
          {d.scoring.total !== null ? ` at ${d.scoring.total}/100` : ''}: the portfolio and the Register of Information use it. You can reopen the review later.
        </p>
        {flagged > 0 && (
          <p className="small">
            <AlertTriangle size={14} aria-hidden="true" /> {flagged} answer{flagged > 1 ? 's are' : ' is'} contradicted or limited by the vendor’s documents: a
            reviewer note is required.
          </p>
        )}
        <TextArea
          label={flagged > 0 ? 'Reviewer note (required)' : 'Reviewer note'}
          required={flagged > 0}
          rows={3}
          maxLength={10000}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          hint="Why the answers are accepted, and what follows (e.g. a contract addendum requested)."
        />
      </Dialog>

      {shownLink && (
        <div className="alert alert-success" role="status" aria-label="Vendor link">
          <p>
            <strong>Vendor link</strong>: copy it now to pass it on yourself. It is not shown again (sending a new link replaces it).
          </p>
          <div className={styles.vendorLink}>
            <code data-testid="vendor-link">{shownLink}</code>
            <Button
              size="sm"
              icon={<Copy size={14} aria-hidden="true" />}
              onClick={() => {
                void navigator.clipboard?.writeText(shownLink).then(
                  () => toast.show('Link copied', 'success'),
                  () => toast.show('The link could not be copied: select it and copy it', 'error'),
                );
              }}
            >
              Copy the link
            </Button>
            <Button size="sm" onClick={() => setShownLink(null)}>
              Done
            </Button>
          </div>
        </div>
      )}

      {canWrite && sendable && !d.vendorContact && (
        <form
          className={`card ${styles.contact}`}
          onSubmit={(e) => {
            e.preventDefault();
            act.mutate({ kind: 'contact' });
          }}
        >
          <Field
            label="Vendor contact e-mail"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            hint="The link to answer is e-mailed there."
          />
          <Button type="submit" busy={act.isPending && act.variables?.kind === 'contact'}>
            Save the contact
          </Button>
        </form>
      )}

      <section className={`card ${styles.scoreCard}`} aria-label="Score">
        <div>
          <div className="muted small">{d.scoring.final ? 'Final score' : 'Score so far (provisional)'}</div>
          <div className={styles.score} data-testid="questionnaire-score">
            {d.scoring.total ?? '—'}
            {d.scoring.total !== null && <small>/100</small>}
          </div>
        </div>
        <div className="table-wrap" style={{ flex: 1, minWidth: 280 }}>
          <table className="table">
            <caption className="visually-hidden">Scores per section</caption>
            <thead>
              <tr>
                <th scope="col">Section</th>
                <th scope="col" className="num">
                  Answered
                </th>
                <th scope="col" className="num">
                  Score
                </th>
              </tr>
            </thead>
            <tbody>
              {d.scoring.sections.map((s) => (
                <tr key={s.sectionId}>
                  <td>{s.title}</td>
                  <td className="num">
                    {s.answered}/{s.questions}
                  </td>
                  <td className="num">{s.score ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <dl className={styles.link}>
          <div>
            <dt>Link</dt>
            <dd>{d.link.active ? (d.link.writable ? 'Open for answers' : 'Read-only') : 'Not sent'}</dd>
          </div>
          <div>
            <dt>Sent</dt>
            <dd>{d.link.sentAt ? `${formatDateTime(d.link.sentAt)} (${d.link.sendCount}×)` : '—'}</dd>
          </div>
          <div>
            <dt>Vendor last active</dt>
            <dd>{formatDateTime(d.link.lastVendorActivityAt)}</dd>
          </div>
          <div>
            <dt>Pre-filled</dt>
            <dd>
              {prefilled} of {d.questions.length} questions
            </dd>
          </div>
        </dl>
      </section>

      {d.reviewerNotes && (
        <section className="card" aria-label="Reviewer note">
          <div className="muted small">Reviewer note</div>
          <p style={{ whiteSpace: 'pre-line', margin: 0 }}>{d.reviewerNotes}</p>
        </section>
      )}

      <div className={styles.reviewBar}>
        <span data-testid="flagged-count">
          {d.claims.checked ? (
            <>
              <AlertTriangle size={14} aria-hidden="true" /> {flagged} flagged answer{flagged === 1 ? '' : 's'}: the vendor’s documents contradict or limit them
            </>
          ) : (
            <span className="muted">Answers not checked against documents (none indexed for this vendor)</span>
          )}
        </span>
        <label className="small">
          <input type="checkbox" checked={flaggedOnly} onChange={(e) => setFlaggedOnly(e.target.checked)} disabled={!flagged && !flaggedOnly} /> Flagged only
        </label>
      </div>

      {d.sections.map((s) => {
        const qs = d.questions.filter((x) => x.sectionId === s.id && (!flaggedOnly || x.claim));
        if (!qs.length) return null;
        return (
          <section key={s.id} aria-labelledby={`sec-${s.id}`}>
            <h3 id={`sec-${s.id}`} className={styles.section}>
              {s.title}
            </h3>
            <ol className={styles.questions}>
              {qs.map((x) => (
                <QuestionReview
                  key={x.id}
                  q={x}
                  ws={ws}
                  canAccept={canWrite && d.status === 'submitted'}
                  onAccept={() => act.mutate({ kind: 'accept', questionId: x.id })}
                />
              ))}
            </ol>
          </section>
        );
      })}
    </div>
  );
}

function QuestionReview({ q, ws, canAccept, onAccept }: { q: AnalystQuestion; ws: string; canAccept: boolean; onAccept: () => void }) {
  const s = q.suggestion;
  const hasValue = s && s.value !== null && s.value !== undefined;
  const vendorValue = q.answer?.value ?? null;
  return (
    <li className={styles.question} data-question={q.id}>
      <div className={styles.qHead}>
        <span className="muted small">{q.id}</span>
        <span className={styles.qText}>{q.text}</span>
        <span className="muted small">{q.articles.join(', ')}</span>
      </div>
      <div className={styles.answerRow}>
        <div>
          <div className="muted small">Vendor's answer</div>
          <strong>{answerText(q, vendorValue)}</strong>
          {q.answer?.comment && <p className="small">“{q.answer.comment}”</p>}
          {hasValue && vendorValue !== null && (
            <p className="small muted">{same(vendorValue, s.value) ? 'Same as the pre-filled answer.' : 'Differs from the pre-filled answer.'}</p>
          )}
          {q.review?.overrideValue != null && <p className="small">Reviewer's value: {answerText(q, q.review.overrideValue)}</p>}
        </div>
        <div>
          <div className="muted small">Points</div>
          <strong>{q.points === null ? (q.weight === 0 ? 'Not scored' : '—') : `${Math.round(q.points * 100)}%`}</strong>
        </div>
      </div>
      {q.claim && <ClaimCheck claim={q.claim} ws={ws} />}
      {s && (
        <div className={styles.prefill}>
          <p className={styles.prefillHead}>
            <FileSearch size={14} aria-hidden="true" /> <strong>Pre-filled from the vendor's documents:</strong>
            <span>{hasValue ? answerText(q, s.value) : 'no answer found'}</span>
          </p>
          <p className="small">{s.rationale}</p>
          {s.citations.length > 0 && (
            <ul className={styles.citations} aria-label="Sources of the proposed answer">
              {s.citations.map((c, i) => (
                <li key={i}>
                  <span className={styles.citeTitle}>
                    <OpenPassage
                      target={{
                        ws,
                        source: { kind: 'document', documentId: c.documentId, chunkId: c.sourceId },
                        title: c.title,
                        section: c.section,
                        passage: c.passage,
                      }}
                    >
                      {c.title}
                    </OpenPassage>
                    {c.section ? ` · ${c.section}` : ''}
                  </span>
                  <span className={styles.citePassage}>“{reflowQuote(c.passage.length > 260 ? `${c.passage.slice(0, 260)}…` : c.passage)}”</span>
                </li>
              ))}
            </ul>
          )}
          {canAccept && hasValue && !same(vendorValue, s.value) && (
            <Button size="sm" onClick={onAccept}>
              Use the pre-filled answer for scoring
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

const ROLE_WORDS = { limitation: 'Limits it', contrary: 'Points the other way', partial: 'Only partly', evidence: 'Evidence' } as const;

/** A vendor's "yes" that its documents contradict or limit: the reading, the limitation and the passages. */
function ClaimCheck({ claim, ws }: { claim: ClaimFlag; ws: string }) {
  return (
    <div className={styles.claim} data-testid="claim-flag" role="note" aria-label="Checked against the vendor's documents">
      <p className={styles.claimHead}>
        <AlertTriangle size={14} aria-hidden="true" /> Flagged: {CLAIM_VERDICT[claim.verdict]} “Yes”.
      </p>
      {claim.obligations.map((o) => (
        <div key={o.id}>
          <p className="small">
            <strong>DORA {o.ref}</strong> · {o.title}
          </p>
          {o.limitations.length > 0 && (
            <ul className="small" aria-label="Limitations">
              {o.limitations.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          )}
          {o.passages.length > 0 && (
            <ul className={styles.citations} aria-label="Passages of the vendor's documents">
              {o.passages.map((p) => (
                <li key={`${p.documentId}:${p.role}:${p.quote.slice(0, 80)}`}>
                  <span className={styles.citeTitle}>
                    {ROLE_WORDS[p.role]}:{' '}
                    <OpenPassage
                      target={{ ws, source: { kind: 'document', documentId: p.documentId }, title: p.document, section: p.section, passage: p.quote }}
                    >
                      {p.document}
                    </OpenPassage>
                    {p.section ? ` · ${p.section}` : ''}
                  </span>
                  <span className={styles.citePassage}>“{reflowQuote(p.quote)}”</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </div>
  );
}
