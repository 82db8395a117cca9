import type { AssessmentListRow, AssessmentReviewRow, DocumentMeta } from './repository.js';

/** How assessments, their documents and their review trail look in the API (docs/assessments.md). */

export function shapeDocument(d: DocumentMeta) {
  return {
    id: d.id,
    filename: d.filename,
    format: d.format,
    mimeType: d.mimeType,
    sizeBytes: d.sizeBytes,
    pageCount: d.pageCount,
    title: d.title,
    characters: d.charCount,
  };
}

/** The list fields of an assessment; `signerName` names who signed it off. */
export function shape(row: AssessmentListRow, signerName: string | null = null) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    framework: row.framework,
    status: row.status,
    score: row.score,
    riskRating: row.riskRating,
    summary: row.summary,
    error: row.errorMessage,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
    signOff: row.signedOffAt ? { at: row.signedOffAt.toISOString(), userId: row.signedOffBy ?? null, userName: signerName, note: row.signOffNote ?? '' } : null,
  };
}

/** One entry of the review trail. */
export function shapeReview(r: AssessmentReviewRow) {
  return {
    id: r.id,
    obligationId: r.obligationId,
    kind: r.kind,
    status: r.status,
    previousStatus: r.previousStatus,
    text: r.text,
    userId: r.userId,
    userName: r.userName,
    at: r.createdAt.toISOString(),
  };
}

/** An uploaded document of an assessment as the API returns it. */
export type AssessmentDocumentView = ReturnType<typeof shapeDocument>;
/** An assessment's list fields as the API returns them. */
export type AssessmentView = ReturnType<typeof shape>;
/** An entry of an assessment's review trail as the API returns it. */
export type AssessmentReviewView = ReturnType<typeof shapeReview>;
