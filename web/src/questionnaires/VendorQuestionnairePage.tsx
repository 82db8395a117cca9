import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Save, Send } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, apiWithMessage, get } from '../api/client';
import type { ApiData } from '../api/types';
import { useTitle } from '../lib/useTitle';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { formatDate, formatDateTime } from '../ui/format';
import { ProgressBar } from '../ui/ProgressBar';
import { Loading } from '../ui/Spinner';
import { answerText, type AnswerValue, type VendorQuestion } from './api';
import styles from './VendorForm.module.css';

type Q = VendorQuestion;
type Draft = Record<string, { value: AnswerValue | null; comment: string }>;

const YES_NO = [
  { value: 'yes', label: 'Yes' },
  { value: 'partial', label: 'Partially' },
  { value: 'no', label: 'No' },
  { value: 'na', label: 'Not applicable' },
];

/**
 * The vendor's page behind the e-mailed link (`/vendor-questionnaire?token=`): no account, the
 * token is the only credential. A plain form that works on a phone: save a draft at any time,
 * submit when every required question is answered; read-only once submitted.
 */
export default function VendorQuestionnairePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const key = ['vendor-questionnaire', token];
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: key,
    enabled: !!token,
    queryFn: async () =>
      (await get<ApiData<'getVendorQuestionnaire'>>(`/vendor-questionnaires/${encodeURIComponent(token)}`, { noRefresh: true })).questionnaire,
    retry: false,
  });
  useTitle(q.data?.title ?? 'Questionnaire');
  const [draft, setDraft] = useState<Draft>({});
  const [changed, setChanged] = useState<Set<string>>(new Set());
  useEffect(() => {
    if (!q.data) return;
    setDraft(Object.fromEntries(q.data.questions.map((x) => [x.id, { value: x.answer?.value ?? null, comment: x.answer?.comment ?? '' }])));
    setChanged(new Set());
  }, [q.data]);

  const save = useMutation({
    mutationFn: (submit: boolean) =>
      apiWithMessage<ApiData<'saveVendorAnswers'>>('PUT', `/vendor-questionnaires/${encodeURIComponent(token)}/answers`, {
        noRefresh: true,
        body: {
          answers: [...changed].map((id) => ({
            questionId: id,
            value: draft[id]?.value ?? null,
            comment: draft[id]?.comment.trim() ? draft[id]!.comment.trim() : null,
          })),
          ...(submit ? { submit: true } : {}),
        },
      }),
    onSuccess: ({ data }) => qc.setQueryData(key, data.questionnaire),
  });

  const missing = useMemo(
    () =>
      q.data
        ? q.data.questions.filter((x) => x.required && (draft[x.id]?.value === null || draft[x.id]?.value === undefined || draft[x.id]?.value === ''))
        : [],
    [q.data, draft],
  );
  const answered = q.data
    ? q.data.questions.filter((x) => draft[x.id]?.value !== null && draft[x.id]?.value !== undefined && draft[x.id]?.value !== '').length
    : 0;

  if (!token)
    return (
      <Frame>
        <ErrorMessage error={new Error('This link has no token. Open the link from the e-mail you received.')} />
      </Frame>
    );
  if (q.isPending)
    return (
      <Frame>
        <Loading label="Opening the questionnaire…" />
      </Frame>
    );
  if (q.isError)
    return (
      <Frame>
        <ErrorMessage
          error={q.error}
          title={
            q.error instanceof ApiError && q.error.status === 410
              ? 'This link has expired'
              : q.error instanceof ApiError && q.error.status === 404
                ? 'This link is no longer valid'
                : 'The questionnaire could not be opened'
          }
        />
        <p className="muted">Ask the person who sent it for a new link.</p>
      </Frame>
    );
  const d = q.data;
  const set = (id: string, v: Partial<Draft[string]>) => {
    setDraft((x) => ({ ...x, [id]: { ...(x[id] ?? { value: null, comment: '' }), ...v } }));
    setChanged((c) => new Set(c).add(id));
  };
  return (
    <Frame>
      <header className={styles.head}>
        {d.requester && <p className={styles.requester}>{d.requester} asks</p>}
        <h1>{d.title}</h1>
        {d.description && <p>{d.description}</p>}
        <p className="muted small">
          {d.dueDate && <>Please answer by {formatDate(d.dueDate)}. </>}
          This link works until {formatDateTime(d.expiresAt)}. Your answers are saved when you press “Save draft”; you can come back later.
        </p>
        <ProgressBar value={(answered / Math.max(1, d.questions.length)) * 100} label="Questions answered" />
        <p className="small muted">
          {answered} of {d.questions.length} answered
        </p>
      </header>
      {d.readOnly && (
        <div className="alert alert-success" role="status">
          <CheckCircle2 size={18} aria-hidden="true" />
          <div>
            <strong>Submitted{d.submittedAt ? ` on ${formatDateTime(d.submittedAt)}` : ''}.</strong> Thank you: your answers are with{' '}
            {d.requester ?? 'the requester'}. They are shown read-only below.
          </div>
        </div>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(true);
        }}
      >
        <fieldset disabled={d.readOnly || save.isPending} className={styles.plain}>
          {d.sections.map((s) => {
            const qs = d.questions.filter((x) => x.sectionId === s.id);
            if (!qs.length) return null;
            return (
              <section key={s.id} className={styles.section} aria-labelledby={`s-${s.id}`}>
                <h2 id={`s-${s.id}`}>{s.title}</h2>
                {s.description && <p className="muted small">{s.description}</p>}
                {qs.map((x) => (
                  <Question key={x.id} q={x} value={draft[x.id]?.value ?? null} comment={draft[x.id]?.comment ?? ''} onChange={(v) => set(x.id, v)} />
                ))}
              </section>
            );
          })}
        </fieldset>
        {!d.readOnly && (
          <div className={styles.bar}>
            {save.isError && <ErrorMessage error={save.error} title="Not saved" />}
            {save.isSuccess && !save.isPending && changed.size === 0 && (
              <p role="status" className="small">
                {save.data.message}.
              </p>
            )}
            {missing.length > 0 && (
              <p className="small muted">
                {missing.length} required question{missing.length === 1 ? '' : 's'} left before you can submit.
              </p>
            )}
            <div className={styles.barButtons}>
              <Button
                icon={<Save size={16} aria-hidden="true" />}
                busy={save.isPending && save.variables === false}
                disabled={changed.size === 0}
                onClick={() => save.mutate(false)}
              >
                Save draft
              </Button>
              <Button
                type="submit"
                variant="primary"
                icon={<Send size={16} aria-hidden="true" />}
                busy={save.isPending && save.variables === true}
                disabled={missing.length > 0}
              >
                Submit answers
              </Button>
            </div>
          </div>
        )}
      </form>
    </Frame>
  );
}

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <div className={styles.page}>
      <main className={styles.main} id="main">
        {children}
      </main>
    </div>
  );
}

function Question({
  q,
  value,
  comment,
  onChange,
}: {
  q: Q;
  value: AnswerValue | null;
  comment: string;
  onChange: (v: { value?: AnswerValue | null; comment?: string }) => void;
}) {
  const id = `q-${q.id}`;
  const opts =
    q.type === 'yes_no'
      ? YES_NO.filter((o) => (o.value !== 'partial' || q.allowPartial !== false) && (o.value !== 'na' || q.allowNa !== false))
      : (q.options ?? []);
  const [showComment, setShowComment] = useState(!!comment);
  const s = q.suggestion;
  return (
    <div className={styles.q} data-question={q.id}>
      {q.type === 'yes_no' || q.type === 'choice' ? (
        <fieldset className={styles.plain}>
          <legend className={styles.qText}>
            {q.text} {q.required ? <span className={styles.req}>(required)</span> : <span className="muted small">(optional)</span>}
          </legend>
          {q.help && <p className="muted small">{q.help}</p>}
          <div className={styles.options}>
            {opts.map((o) => {
              const multi = q.type === 'choice' && q.multiple;
              const arr = Array.isArray(value) ? value : [];
              const checked = multi ? arr.includes(o.value) : value === o.value;
              return (
                <label key={o.value} className={`${styles.option}${checked ? ` ${styles.checked}` : ''}`}>
                  <input
                    type={multi ? 'checkbox' : 'radio'}
                    name={id}
                    value={o.value}
                    checked={checked}
                    onChange={() => onChange({ value: multi ? (checked ? arr.filter((x) => x !== o.value) : [...arr, o.value]) : o.value })}
                  />
                  {o.label}
                </label>
              );
            })}
          </div>
        </fieldset>
      ) : (
        <div className="field">
          <label htmlFor={id} className={styles.qText}>
            {q.text} {q.required ? <span className={styles.req}>(required)</span> : <span className="muted small">(optional)</span>}
          </label>
          {q.help && <p className="muted small">{q.help}</p>}
          {q.type === 'text' ? (
            <textarea
              id={id}
              rows={3}
              maxLength={5000}
              value={typeof value === 'string' ? value : ''}
              onChange={(e) => onChange({ value: e.target.value || null })}
            />
          ) : q.type === 'number' ? (
            <div className={styles.number}>
              <input
                id={id}
                type="number"
                inputMode="decimal"
                min={q.min ?? undefined}
                max={q.max ?? undefined}
                step="any"
                value={typeof value === 'number' ? value : ''}
                onChange={(e) => onChange({ value: e.target.value === '' ? null : e.target.valueAsNumber })}
              />
              {q.unit && <span>{q.unit}</span>}
            </div>
          ) : (
            <input id={id} type="date" value={typeof value === 'string' ? value : ''} onChange={(e) => onChange({ value: e.target.value || null })} />
          )}
        </div>
      )}
      {s && s.value !== null && (
        <div className={styles.suggestion}>
          <p className="small">
            <strong>Proposed from your published documents:</strong> {answerText(q, s.value)}
          </p>
          {s.citations[0] && (
            <p className="small muted">
              {s.citations[0].title}: “{s.citations[0].passage.slice(0, 200)}
              {s.citations[0].passage.length > 200 ? '…' : ''}”
            </p>
          )}
          <Button size="sm" onClick={() => onChange({ value: s.value })}>
            Use this answer
          </Button>
        </div>
      )}
      {showComment ? (
        <div className="field">
          <label htmlFor={`${id}-c`}>Comment on {q.id}</label>
          <textarea id={`${id}-c`} rows={2} maxLength={2000} value={comment} onChange={(e) => onChange({ comment: e.target.value })} />
        </div>
      ) : (
        <button type="button" className="link-button small" onClick={() => setShowComment(true)}>
          Add a comment
        </button>
      )}
    </div>
  );
}
