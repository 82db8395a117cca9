import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BadgeCheck, MessageSquare, PenLine, Undo2 } from 'lucide-react';
import { useId, useState } from 'react';
import { api, post } from '../api/client';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TextArea } from '../ui/Field';
import { formatDateTime } from '../ui/format';
import { useToast } from '../ui/Toasts';
import { assessmentsKey, type AssessmentDetail, type GapResult, type GapStatus, type Review } from './api';
import { GapBadge } from './badges';
import styles from './Assessments.module.css';

/**
 * The analyst's side of an assessment (docs/assessments.md, "The analyst's verdict"): a
 * verdict that replaces the engine's, comments, and the sign-off after which the
 * assessment is read-only.
 */

const STATUS_WORDS: Record<GapStatus, string> = { covered: 'Covered', partial: 'Partial', missing: 'Missing' };

function useReviewMutation<T>(ws: string, fn: (body: T) => Promise<unknown>, done: string) {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: assessmentsKey(ws) });
      toast.show(done, 'success');
    },
  });
}

/** The sign-off: a banner once signed, else the button (for those who may review) and its dialog. */
export function SignOff({ ws, assessment, canReview }: { ws: string; assessment: AssessmentDetail; canReview: boolean }) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const sign = useReviewMutation(
    ws,
    (n: string) => post(`/assessments/${encodeURIComponent(assessment.id)}/sign-off`, { note: n }, { workspace: ws }),
    'Assessment signed off',
  );
  const s = assessment.signOff;
  if (s) {
    return (
      <p className={`card ${styles.signedOff}`} role="status" data-testid="signed-off">
        <BadgeCheck size={18} aria-hidden="true" /> Signed off by <strong>{s.userName ?? 'a former member'}</strong> on {formatDateTime(s.at)}: {s.note}
        <span className="muted small"> The assessment is read-only.</span>
      </p>
    );
  }
  if (assessment.status !== 'completed' || !canReview) return null;
  const verdicts = assessment.summary?.analystVerdicts ?? 0;
  return (
    <>
      <Button variant="secondary" icon={<BadgeCheck size={16} aria-hidden="true" />} onClick={() => setOpen(true)}>
        Sign off
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Sign the assessment off"
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button variant="primary" busy={sign.isPending} disabled={!note.trim()} onClick={() => sign.mutate(note, { onSuccess: () => setOpen(false) })}>
              Sign off
            </Button>
          </>
        }
      >
        <p>
          Signing off records you, the date and your note, and makes the assessment read-only: no verdict or comment can be changed afterwards. The score (
          {assessment.score}/100) and the {verdicts} verdict{verdicts === 1 ? '' : 's'} you or your colleagues set are what the report and the register will
          show.
        </p>
        <TextArea label="Sign-off note" value={note} onChange={(e) => setNote(e.target.value)} rows={3} maxLength={2000} required />
        {sign.isError && <ErrorMessage error={sign.error} title="The assessment was not signed off" />}
      </Dialog>
    </>
  );
}

/** Under a result: the analyst's verdict and comments, and the buttons to set, withdraw or comment. */
export function ResultReview({
  ws,
  assessmentId,
  result,
  reviews,
  canReview,
}: {
  ws: string;
  assessmentId: string;
  result: GapResult;
  reviews: Review[];
  canReview: boolean;
}) {
  const [dialog, setDialog] = useState<'verdict' | 'comment' | null>(null);
  const comments = reviews.filter((r) => r.kind === 'comment' && r.obligationId === result.obligationId);
  const base = `/assessments/${encodeURIComponent(assessmentId)}/results/${encodeURIComponent(result.obligationId)}`;
  const withdraw = useReviewMutation(ws, () => api('DELETE', `${base}/verdict`, { workspace: ws, body: {} }), 'Verdict withdrawn');
  const a = result.analyst;
  return (
    <div className={styles.review}>
      {a && (
        <p className={styles.analyst} data-testid="analyst-verdict">
          <strong>Analyst's verdict:</strong> {STATUS_WORDS[a.status]} (the engine said {STATUS_WORDS[a.engineStatus]}). {a.reason}{' '}
          <span className="muted small">
            {a.userName ?? 'a former member'}, {formatDateTime(a.at)}
          </span>
        </p>
      )}
      {comments.map((c) => (
        <p key={c.id} className={styles.comment}>
          <MessageSquare size={13} aria-hidden="true" /> {c.text}{' '}
          <span className="muted small">
            {c.userName ?? 'a former member'}, {formatDateTime(c.at)}
          </span>
        </p>
      ))}
      {canReview && (
        <div className={styles.reviewActions}>
          <Button variant="ghost" size="sm" icon={<PenLine size={14} aria-hidden="true" />} onClick={() => setDialog('verdict')}>
            {a ? 'Change verdict' : 'Set verdict'}
            <span className="visually-hidden"> for {result.ref}</span>
          </Button>
          {a && (
            <Button
              variant="ghost"
              size="sm"
              icon={<Undo2 size={14} aria-hidden="true" />}
              busy={withdraw.isPending}
              onClick={() => withdraw.mutate(undefined)}
            >
              Withdraw verdict<span className="visually-hidden"> for {result.ref}</span>
            </Button>
          )}
          <Button variant="ghost" size="sm" icon={<MessageSquare size={14} aria-hidden="true" />} onClick={() => setDialog('comment')}>
            Comment<span className="visually-hidden"> on {result.ref}</span>
          </Button>
        </div>
      )}
      {withdraw.isError && <ErrorMessage error={withdraw.error} title="The verdict was not withdrawn" />}
      {dialog === 'verdict' && <VerdictDialog ws={ws} base={base} result={result} onClose={() => setDialog(null)} />}
      {dialog === 'comment' && <CommentDialog ws={ws} base={base} result={result} onClose={() => setDialog(null)} />}
    </div>
  );
}

function VerdictDialog({ ws, base, result, onClose }: { ws: string; base: string; result: GapResult; onClose: () => void }) {
  const [status, setStatus] = useState<GapStatus>(result.analyst?.status ?? result.status);
  const [reason, setReason] = useState(result.analyst?.reason ?? '');
  const name = useId();
  const save = useReviewMutation(ws, (body: { status: GapStatus; reason: string }) => api('PUT', `${base}/verdict`, { workspace: ws, body }), 'Verdict set');
  const engine = result.analyst?.engineStatus ?? result.status;
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Your verdict on ${result.ref}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" busy={save.isPending} disabled={!reason.trim()} onClick={() => save.mutate({ status, reason }, { onSuccess: onClose })}>
            Save verdict
          </Button>
        </>
      }
    >
      <p>
        {result.title}. The engine's verdict: <GapBadge status={engine} />. Yours replaces it in the score, the risk rating, the report and the register; the
        engine's stays on record.
      </p>
      <fieldset className={styles.statusChoice}>
        <legend>Status</legend>
        {(['covered', 'partial', 'missing'] as const).map((s) => (
          <label key={s}>
            <input type="radio" name={name} value={s} checked={status === s} onChange={() => setStatus(s)} /> {STATUS_WORDS[s]}
          </label>
        ))}
      </fieldset>
      <TextArea
        label="Reason"
        hint="One sentence an auditor can read, e.g. “Partial: audits are limited to SOC 2 reports.”"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        rows={3}
        maxLength={2000}
        required
      />
      {save.isError && <ErrorMessage error={save.error} title="The verdict was not saved" />}
    </Dialog>
  );
}

function CommentDialog({ ws, base, result, onClose }: { ws: string; base: string; result: GapResult; onClose: () => void }) {
  const [text, setText] = useState('');
  const save = useReviewMutation(ws, (t: string) => post(`${base}/comments`, { text: t }, { workspace: ws }), 'Comment added');
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Comment on ${result.ref}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" busy={save.isPending} disabled={!text.trim()} onClick={() => save.mutate(text, { onSuccess: onClose })}>
            Add comment
          </Button>
        </>
      }
    >
      <TextArea label="Comment" value={text} onChange={(e) => setText(e.target.value)} rows={3} maxLength={2000} required />
      {save.isError && <ErrorMessage error={save.error} title="The comment was not added" />}
    </Dialog>
  );
}
