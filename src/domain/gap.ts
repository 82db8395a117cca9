/**
 * The result of the DORA gap analysis for one obligation (docs/assessments.md): its
 * status, score and the passages it cites. Computed by src/compliance/gapAnalysis.ts,
 * stored in assessments.results.
 */

export const GAP_STATUSES = ['covered', 'partial', 'missing'] as const;
export type GapStatus = (typeof GAP_STATUSES)[number];

export interface GapEvidence {
  documentId: string;
  filename: string;
  documentTitle: string | null;
  section: string;
  page?: number;
  /** Verbatim text of the document (whitespace normalised). */
  quote: string;
  /** The quote is a window of a longer sentence. */
  truncated: boolean;
  /** Element of the obligation this passage evidences. */
  element: string;
  /** Relevance of the passage to the obligation, 0..1 (lexical and semantic). */
  relevance: number;
  /**
   * What the passage shows: evidence of the element (absent: `evidence`), the clause that
   * limits it (`limitation`), a clause pointing the other way (`contrary`), or evidence that
   * only partly meets it (`partial`).
   */
  role?: EvidenceRole;
}

export const EVIDENCE_ROLES = ['evidence', 'limitation', 'contrary', 'partial'] as const;
export type EvidenceRole = (typeof EVIDENCE_ROLES)[number];

/** How far the documents meet one element: fully, with a limitation, only partly, or not at all. */
export const ELEMENT_LEVELS = ['met', 'limited', 'partial', 'none'] as const;
export type ElementLevel = (typeof ELEMENT_LEVELS)[number];

export interface ElementResult {
  id: string;
  label: string;
  /** Met in full (level `met`). */
  satisfied: boolean;
  /** Absent in results stored before levels existed (read as met/none from `satisfied`). */
  level?: ElementLevel;
  /** Why the element is limited or partly met, in words ("audits satisfied by SOC reports instead"). */
  note?: string;
}

export interface GapResult {
  obligationId: string;
  article: string;
  ref: string;
  title: string;
  requirement: string;
  /** Text of the DORA obligation (reference data). */
  doraText: string;
  status: GapStatus;
  /** Share of the evidence elements found, 0..1. */
  coverage: number;
  weight: number;
  key: boolean;
  elements: ElementResult[];
  evidence: GapEvidence[];
  /** One sentence saying why the status is what it is. */
  rationale: string;
  /** Who read the clauses: the offline rules, or the model (with ANTHROPIC_API_KEY) whose quotes were checked verbatim. */
  verdictSource?: 'offline' | 'model';
  /** Why the offline verdict stands where the model was asked (its answer failed the verbatim check, or it could not be reached). */
  verdictNote?: string;
  /** The analyst's verdict, when one is set: `status` and `coverage` are then the analyst's. */
  analyst?: AnalystVerdict | null;
}

/**
 * The analyst's own verdict on a result (docs/assessments.md, "The analyst's verdict"): it
 * replaces the engine's status in the score, the risk rating, the report and the register;
 * the engine's status and coverage are kept beside it.
 */
export interface AnalystVerdict {
  status: GapStatus;
  reason: string;
  userId: string | null;
  userName: string | null;
  /** ISO time the verdict was set. */
  at: string;
  /** What the engine said, kept so that clearing the verdict restores it. */
  engineStatus: GapStatus;
  engineCoverage: number;
}
