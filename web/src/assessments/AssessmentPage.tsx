import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Check, CircleSlash, FileDown, Trash2, X } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useNavigate, useOutletContext, useParams } from 'react-router';
import { del } from '../api/client';
import { downloadApiFile } from '../api/download';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { formatDateTime } from '../ui/format';
import { ProgressBar } from '../ui/ProgressBar';
import { Loading, Spinner } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import type { VendorOutletContext } from '../vendors/VendorPage';
import { reflowQuote } from '../ui/reflow';
import { useDocumentViewer } from '../viewer/DocumentViewer';
import { assessmentsKey, useAssessment, type GapResult } from './api';
import { GapBadge, RiskBadge, StatusBadge } from './badges';
import { ResultReview, SignOff } from './Review';
import styles from './Assessments.module.css';

const ROLE_WORDS = { limitation: 'Limitation', contrary: 'Contrary clause', partial: 'Partly' } as const;

/** One assessment: live state while it runs, then the score, rating and results by DORA article. */
export default function AssessmentPage() {
  const { vendor } = useOutletContext<VendorOutletContext>();
  const { assessmentId = '' } = useParams();
  const ws = vendor.workspaceId;
  const q = useAssessment(ws, assessmentId);
  const toast = useToast();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const viewer = useDocumentViewer();
  const report = useMutation({
    mutationFn: () => downloadApiFile(`/assessments/${encodeURIComponent(assessmentId)}/report`, { workspace: ws }, 'assessment.docx'),
    onSuccess: ({ filename }) => toast.show(`Downloaded ${filename}`, 'success'),
  });
  const remove = useMutation({
    mutationFn: () => del(`/assessments/${encodeURIComponent(assessmentId)}`, { workspace: ws }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: assessmentsKey(ws) });
      toast.show('Assessment deleted', 'success');
      navigate('..', { relative: 'path' });
    },
  });
  const byArticle = useMemo(() => {
    const m = new Map<string, GapResult[]>();
    for (const r of q.data?.results ?? []) m.set(r.article, [...(m.get(r.article) ?? []), r]);
    return [...m.entries()];
  }, [q.data]);

  if (q.isPending) return <Loading label="Loading the assessment…" />;
  if (q.isError) return <ErrorMessage error={q.error} title="The assessment could not be loaded" onRetry={() => q.refetch()} />;
  const a = q.data;
  const busy = a.status === 'pending' || a.status === 'running';
  return (
    <div>
      <p className="breadcrumb">
        <Link to=".." relative="path">
          <ArrowLeft size={14} aria-hidden="true" /> All assessments
        </Link>
      </p>
      <div className="page-header" style={{ marginBottom: 12 }}>
        <div>
          <h2>{a.name}</h2>
          <p className="page-sub">
            <StatusBadge status={a.status} /> Started {formatDateTime(a.createdAt)}
            {a.completedAt && <> · completed {formatDateTime(a.completedAt)}</>} · {a.documents.length} document{a.documents.length === 1 ? '' : 's'}
          </p>
        </div>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          {a.status === 'completed' && (
            <Button variant="primary" icon={<FileDown size={16} aria-hidden="true" />} busy={report.isPending} onClick={() => report.mutate()}>
              Download the Word report
            </Button>
          )}
          {!a.signOff && <SignOff ws={ws} assessment={a} canReview={vendor.permissions.canManageSync} />}
          {vendor.permissions.canManageSync && !a.signOff && (
            <Button
              variant="danger"
              icon={<Trash2 size={16} aria-hidden="true" />}
              busy={remove.isPending}
              onClick={() => window.confirm(`Delete "${a.name}" and its documents?`) && remove.mutate()}
            >
              Delete
            </Button>
          )}
        </div>
      </div>
      {report.isError && <ErrorMessage error={report.error} title="The report could not be downloaded" />}
      {remove.isError && <ErrorMessage error={remove.error} title="The assessment was not deleted" />}

      {busy && (
        <div className="card" role="status" aria-live="polite">
          <ol className={styles.steps} aria-label="Progress of the gap analysis">
            <li className={styles.stepDone}>
              <Check size={16} aria-hidden="true" /> {a.documents.length} document{a.documents.length === 1 ? '' : 's'} read (
              {a.documents.reduce((n, d) => n + d.characters, 0).toLocaleString()} characters)
            </li>
            <li className={a.status === 'running' ? styles.stepDone : styles.stepNow}>
              {a.status === 'running' ? <Check size={16} aria-hidden="true" /> : <Spinner size={16} />}{' '}
              {a.status === 'running' ? 'Taken up by a worker' : 'Queued: waiting for a worker…'}
            </li>
            <li className={a.status === 'running' ? styles.stepNow : styles.stepTodo}>
              {a.status === 'running' ? <Spinner size={16} /> : <span className={styles.stepDot} aria-hidden="true" />} Matching the documents against the DORA
              obligations{a.status === 'running' ? '…' : ''}
            </li>
          </ol>
          <p className="muted small" style={{ marginTop: 8 }}>
            This page updates by itself when the analysis ends; you can leave it meanwhile (you get a notification).
          </p>
        </div>
      )}
      {a.status === 'failed' && <ErrorMessage error={new Error(a.error ?? 'The analysis failed')} title="The gap analysis failed" />}

      {a.status === 'completed' && a.summary && (
        <>
          {a.signOff && <SignOff ws={ws} assessment={a} canReview={false} />}
          <section className={`card ${styles.scoreCard}`} aria-label="Overall result">
            <div>
              <div className="muted small">Overall score</div>
              <div className={styles.score} data-testid="assessment-score">
                {a.score}
                <small>/100</small>
              </div>
            </div>
            <div>
              <div className="muted small">Risk rating</div>
              {a.riskRating && <RiskBadge rating={a.riskRating} />}
            </div>
            <dl className={styles.stats}>
              <div>
                <dt>Covered</dt>
                <dd>{a.summary.covered}</dd>
              </div>
              <div>
                <dt>Partial</dt>
                <dd>{a.summary.partial}</dd>
              </div>
              <div>
                <dt>Missing</dt>
                <dd>{a.summary.missing}</dd>
              </div>
            </dl>
            {(a.summary.analystVerdicts ?? 0) > 0 && (
              <p className="muted small" data-testid="engine-score">
                {a.summary.analystVerdicts} verdict{a.summary.analystVerdicts === 1 ? ' is' : 's are'} the analyst's; the engine alone gave{' '}
                {a.summary.engineScore}
                /100.
              </p>
            )}
            {a.summary.riskReasons.length > 0 && (
              <ul className={styles.reasons}>
                {a.summary.riskReasons.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            )}
          </section>
          {byArticle.map(([article, results]) => (
            <section key={article} aria-labelledby={`art-${article}`}>
              <h3 id={`art-${article}`} className={styles.article}>
                {article}
              </h3>
              <div className="table-wrap">
                <table className="table table-cards">
                  <caption className="visually-hidden">Results for {article}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Obligation</th>
                      <th scope="col">Status</th>
                      <th scope="col">Coverage</th>
                      <th scope="col">Evidence</th>
                    </tr>
                  </thead>
                  <tbody>
                    {results.map((r) => (
                      <tr key={r.obligationId} data-obligation={r.obligationId}>
                        <td style={{ maxWidth: 340 }}>
                          <strong>{r.ref}</strong> {r.title}
                          {r.key && (
                            <span className="badge badge-muted" style={{ marginLeft: 6 }}>
                              Key clause
                            </span>
                          )}
                          <ul className={styles.elements} aria-label="What the documents must show">
                            {r.elements.map((e) => (
                              <li key={e.id}>
                                {e.satisfied ? (
                                  <Check size={14} className={styles.yes} aria-label="found" />
                                ) : e.level === 'limited' || e.level === 'partial' ? (
                                  <CircleSlash size={14} className={styles.limited} aria-label={e.level === 'limited' ? 'limited' : 'partly found'} />
                                ) : (
                                  <X size={14} className={styles.no} aria-label="not found" />
                                )}
                                {e.label}
                                {e.note && <span className={styles.elementNote}> — {e.note}</span>}
                              </li>
                            ))}
                          </ul>
                        </td>
                        <td data-label="Status">
                          <GapBadge status={r.status} />
                          {r.analyst && <span className="muted small"> (analyst)</span>}
                        </td>
                        <td className={styles.coverage} data-label="Coverage">
                          <ProgressBar value={r.coverage * 100} label={`Coverage of ${r.ref}`} tone={r.status === 'covered' ? 'done' : undefined} />
                        </td>
                        <td data-label="Evidence">
                          <p className={styles.rationale} data-testid="rationale">
                            {r.analyst ? r.analyst.reason : r.rationale}
                          </p>
                          {r.verdictNote && <p className="muted small">{r.verdictNote}</p>}
                          {r.evidence.length > 0 &&
                            r.evidence.map((e, i) => (
                              <button
                                key={i}
                                type="button"
                                className={`${styles.quote}${e.role === 'limitation' || e.role === 'contrary' ? ` ${styles.limitQuote}` : ''}`}
                                onClick={() =>
                                  viewer.open({
                                    ws,
                                    source: { kind: 'assessment', assessmentId: a.id, documentId: e.documentId },
                                    title: e.documentTitle ?? e.filename,
                                    section: e.section,
                                    page: e.page,
                                    passage: e.quote,
                                  })
                                }
                              >
                                <span className="visually-hidden">Open the document at the passage: </span>
                                {e.role && e.role !== 'evidence' && <strong className={styles.role}>{ROLE_WORDS[e.role]}: </strong>}“
                                {reflowQuote(e.quote.length > 220 ? `${e.quote.slice(0, 220)}…` : e.quote)}”
                                <span className={styles.quoteMeta}>
                                  {e.documentTitle ?? e.filename}
                                  {e.section ? ` · ${e.section}` : ''}
                                  {e.page ? ` · page ${e.page}` : ''}
                                </span>
                              </button>
                            ))}
                          <ResultReview ws={ws} assessmentId={a.id} result={r} reviews={a.reviews} canReview={vendor.permissions.canManageSync && !a.signOff} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          ))}
        </>
      )}
    </div>
  );
}
