import type { AnalystVerdict, GapResult, GapStatus } from '../../domain/gap.js';
import type { Scope } from '../../domain/scope.js';
import { pagination, type PageRequest, type Pagination } from '../../domain/paging.js';
import type { AssessmentSummary } from '../../db/schema/assessments.js';
import { riskRating } from '../../compliance/risk.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { AssessmentRow, AssessmentsRepository, ReviewChange } from './repository.js';
import { shape, shapeReview, type AssessmentReviewView, type AssessmentView } from './views.js';

/**
 * The analyst's side of an assessment (docs/assessments.md, "The analyst's verdict"): a
 * verdict that replaces the engine's status of one result, comments, and the sign-off after
 * which the assessment is read-only. Every step is appended to the review trail; the score,
 * risk rating and summary are recomputed from the statuses in force, so the list, the
 * report, the portfolio and the register all read the analyst's verdict where there is one.
 */
export interface AssessmentReviewService {
  /** Sets the analyst's status of one result, with the reason; returns the result and the assessment's new figures. */
  setVerdict(scope: Scope, id: string, obligationId: string, input: { status: GapStatus; reason: string }): Promise<ReviewOutcome>;
  /** Clears the analyst's status of one result: the engine's status is in force again. */
  clearVerdict(scope: Scope, id: string, obligationId: string, input: { reason?: string }): Promise<ReviewOutcome>;
  /** A comment on one result (the status stays). */
  comment(scope: Scope, id: string, obligationId: string, input: { text: string }): Promise<AssessmentReviewView>;
  /** Signs the assessment off (who, when, a note); read-only from then on. */
  signOff(scope: Scope, id: string, input: { note: string }): Promise<AssessmentView>;
  /** One page of the review trail, oldest first. */
  trail(scope: Scope, id: string, q: PageRequest): Promise<{ reviews: AssessmentReviewView[]; pagination: Pagination }>;
}

export interface ReviewOutcome {
  result: GapResult;
  assessment: AssessmentView;
  review: AssessmentReviewView;
}

type Deps = {
  repo: Pick<AssessmentsRepository, 'review' | 'reviews' | 'countReviews' | 'get'>;
  /** Whether the vendor supports a critical or important function (raises the risk rating). */
  isCritical(workspaceId: string): Promise<boolean>;
  /** After a sign-off: moves the vendor's next review date. */
  onSignedOff?(workspaceId: string, at: Date): Promise<void>;
};

const notFoundAssessment = () => notFound('Assessment not found', 'ASSESSMENT_NOT_FOUND');

/** Coverage of a status set by the analyst: partial keeps the engine's share where the engine also found part of it. */
export function coverageFor(status: GapStatus, engine: { status: GapStatus; coverage: number }): number {
  if (status === 'covered') return 1;
  if (status === 'missing') return 0;
  return engine.status === 'partial' && engine.coverage > 0 && engine.coverage < 1 ? engine.coverage : 0.5;
}

/** The summary and figures of an assessment for the statuses in force. */
export function refigure(row: AssessmentRow, results: GapResult[], critical: boolean) {
  const risk = riskRating(results, { critical });
  const prev = row.summary as AssessmentSummary;
  const summary: AssessmentSummary = {
    ...prev,
    covered: results.filter((r) => r.status === 'covered').length,
    partial: results.filter((r) => r.status === 'partial').length,
    missing: results.filter((r) => r.status === 'missing').length,
    missingKey: results.filter((r) => r.key && r.status === 'missing').map((r) => r.ref),
    riskReasons: risk.reasons,
    engineScore: prev.engineScore ?? row.score ?? risk.score,
    engineRiskRating: prev.engineRiskRating ?? row.riskRating ?? risk.rating,
    analystVerdicts: results.filter((r) => r.analyst).length,
  };
  return { score: risk.score, riskRating: risk.rating, summary };
}

/** The assessment can take a review step: completed, not signed off. */
function assertOpen(row: AssessmentRow) {
  if (row.status !== 'completed' || !row.results || !row.summary) {
    throw conflict(`The assessment is ${row.status}; it can be reviewed once the gap analysis has completed`, 'ASSESSMENT_NOT_COMPLETE');
  }
  if (row.signedOffAt) {
    throw conflict(
      `The assessment was signed off on ${row.signedOffAt.toISOString().slice(0, 10)} and is read-only; start a new assessment to change it`,
      'ASSESSMENT_SIGNED_OFF',
    );
  }
}

function resultIndex(row: AssessmentRow, obligationId: string): number {
  const i = (row.results ?? []).findIndex((r) => r.obligationId === obligationId);
  if (i < 0) throw notFound(`No result for obligation ${obligationId} in this assessment`, 'OBLIGATION_NOT_FOUND');
  return i;
}

export function assessmentReviewService(deps: Deps): AssessmentReviewService {
  const { repo } = deps;

  /** A verdict set or cleared: the result changed, the figures recomputed, the trail appended. */
  async function changeVerdict(scope: Scope, id: string, obligationId: string, next: { status: GapStatus; reason: string } | { clear: string }) {
    const critical = await deps.isCritical(scope.workspaceId);
    let changed: GapResult | null = null;
    const out = await repo.review(scope, id, (row, user): ReviewChange => {
      assertOpen(row);
      const i = resultIndex(row, obligationId);
      const results = [...row.results!];
      const current = results[i]!;
      const engine = current.analyst
        ? { status: current.analyst.engineStatus, coverage: current.analyst.engineCoverage }
        : { status: current.status, coverage: current.coverage };
      if ('clear' in next) {
        if (!current.analyst) throw conflict(`Obligation ${obligationId} has no analyst verdict to clear`, 'NO_ANALYST_VERDICT');
        changed = { ...current, status: engine.status, coverage: engine.coverage, analyst: null };
      } else {
        const analyst: AnalystVerdict = {
          status: next.status,
          reason: next.reason,
          userId: user.id,
          userName: user.name,
          at: new Date().toISOString(),
          engineStatus: engine.status,
          engineCoverage: engine.coverage,
        };
        changed = { ...current, status: next.status, coverage: coverageFor(next.status, engine), analyst };
      }
      results[i] = changed;
      return {
        assessment: { results, ...refigure(row, results, critical) },
        entry:
          'clear' in next
            ? { obligationId, kind: 'clear', status: engine.status, previousStatus: current.status, text: next.clear }
            : { obligationId, kind: 'verdict', status: next.status, previousStatus: current.status, text: next.reason },
      };
    });
    if (!out) throw notFoundAssessment();
    return { result: changed!, assessment: shape(out.row), review: shapeReview(out.entry) };
  }

  return {
    setVerdict: (scope, id, obligationId, input) => changeVerdict(scope, id, obligationId, { status: input.status, reason: input.reason.trim() }),

    clearVerdict: (scope, id, obligationId, input) =>
      changeVerdict(scope, id, obligationId, { clear: input.reason?.trim() || 'Analyst verdict withdrawn; the engine verdict applies.' }),

    async comment(scope, id, obligationId, input) {
      const out = await repo.review(scope, id, (row) => {
        assertOpen(row);
        resultIndex(row, obligationId);
        return { entry: { obligationId, kind: 'comment', text: input.text.trim() } };
      });
      if (!out) throw notFoundAssessment();
      return shapeReview(out.entry);
    },

    async signOff(scope, id, input) {
      const out = await repo.review(scope, id, (row) => {
        assertOpen(row);
        return {
          assessment: { signedOffAt: new Date(), signedOffBy: scope.userId, signOffNote: input.note.trim() },
          entry: { obligationId: null, kind: 'sign_off', text: input.note.trim() },
        };
      });
      if (!out) throw notFoundAssessment();
      if (out.row.signedOffAt) await deps.onSignedOff?.(scope.workspaceId, out.row.signedOffAt);
      return shape(out.row, out.entry.userName);
    },

    async trail(scope, id, q) {
      if (!(await repo.get(scope, id))) throw notFoundAssessment();
      const [rows, total] = await Promise.all([repo.reviews(scope, id, { limit: q.limit, offset: (q.page - 1) * q.limit }), repo.countReviews(scope, id)]);
      return { reviews: rows.map(shapeReview), pagination: pagination(q, total) };
    },
  };
}
