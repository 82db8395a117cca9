import type { Candidate, Evidence, FieldProposal } from './draft.js';
import type { DraftValue } from './extractors.js';
import type { DraftField } from './fields.js';

export type { Candidate, Evidence, FieldProposal, DraftValue, DraftField };

/** The analyst's decision on one field of a draft. */
export interface FieldDecision {
  action: 'accepted' | 'edited' | 'rejected';
  /** The value written into the profile (absent when rejected). */
  value?: DraftValue;
  by: string;
  at: string;
}

/**
 * One field of a stored draft: the proposal, or `unchanged` (the profile already holds
 * this value from this passage: nothing to decide), and the decision once made.
 */
export interface DraftFieldState extends Omit<FieldProposal, 'status'> {
  status: FieldProposal['status'] | 'unchanged';
  decision: FieldDecision | null;
}

export interface DraftSummary {
  fields: number;
  proposed: number;
  conflicts: number;
  notFound: number;
  unchanged: number;
  passages: number;
  extractor: string;
  /** Values the model path dropped because their quote was not verbatim in the passage. */
  dropped?: number;
}

/** Where an accepted profile value came from (workspaces.field_sources). */
export interface FieldSource {
  field: DraftField;
  value: DraftValue;
  action: 'accepted' | 'edited';
  draftId: string;
  evidence: Evidence[];
  decidedBy: string;
  decidedAt: string;
}
