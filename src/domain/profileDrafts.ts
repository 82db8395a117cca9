import { Type, type Static } from 'typebox';

/**
 * Register drafting (docs/register-drafting.md): the fields a draft covers, the values
 * and passages it proposes, and the API shapes of a draft.
 */

export const DRAFT_FIELDS = [
  'legalName',
  'address',
  'description',
  'ictServiceType',
  'startDate',
  'endDate',
  'renewal',
  'noticePeriodDaysEntity',
  'noticePeriodDaysProvider',
  'governingLaw',
  'serviceLocations',
  'dataStorageLocations',
  'dataProcessingLocations',
  'subcontractors',
  'personalData',
  'auditRights',
  'exitProvisions',
] as const;
export type DraftField = (typeof DRAFT_FIELDS)[number];

/** Form of a field's value (what the value schema and the extraction rule are). */
export type FieldForm = 'text' | 'date' | 'dateOrIndefinite' | 'days' | 'country' | 'countries' | 'serviceType' | 'boolean' | 'subcontractors';

export interface Subcontractor {
  name: string;
  role?: string;
  country?: string;
}
export type DraftValue = string | number | boolean | null | string[] | Subcontractor[];

/**
 * API shapes of register drafting (docs/register-drafting.md): a passage a value comes
 * from, a field of a draft, and the source kept beside an accepted profile value.
 */
const Value = Type.Unknown({
  description: 'The value in the form of its field: text, YYYY-MM-DD date, null (indefinite), days, ISO country code(s), S01-S19, boolean, or subcontractors',
});

export const EvidenceSchema = Type.Object({
  documentId: Type.String(),
  dataSourceId: Type.Union([Type.String(), Type.Null()]),
  chunkId: Type.String(),
  title: Type.String(),
  section: Type.String(),
  page: Type.Union([Type.String(), Type.Null()]),
  quote: Type.String({ description: 'Verbatim text of the stored passage' }),
  link: Type.String({ description: "Internal link to the passage (as the answers' source links)" }),
});
/** A passage a value comes from. */
export type Evidence = Static<typeof EvidenceSchema>;

export interface Candidate {
  value: DraftValue;
  confidence: number;
  evidence: Evidence[];
}

export type ProposalStatus = 'proposed' | 'conflict' | 'not_found';

export interface FieldProposal {
  field: DraftField;
  label: string;
  /** Form of the value (what an edit must give). */
  form: FieldForm;
  status: ProposalStatus;
  /** The proposed value (status `proposed`); absent otherwise. */
  value?: DraftValue;
  confidence?: number;
  evidence: Evidence[];
  /** Status `conflict`: every value the documents state, each with its passages. */
  candidates?: Candidate[];
  /**
   * Status `not_found` where the documents address the field but leave it without a value
   * ("either party may terminate at any time; no notice period"): why, with the passages in
   * `evidence`. Absent when no passage speaks to the field.
   */
  reason?: string;
}

export const FieldDecisionSchema = Type.Object({
  action: Type.Enum(['accepted', 'edited', 'rejected']),
  value: Type.Optional(Value),
  by: Type.String(),
  at: Type.String(),
});

export const DraftFieldSchema = Type.Object({
  field: Type.String(),
  label: Type.String(),
  form: Type.Enum(['text', 'date', 'dateOrIndefinite', 'days', 'country', 'countries', 'serviceType', 'boolean', 'subcontractors'], {
    description: 'Form of the value an edit must give',
  }),
  status: Type.Enum(['proposed', 'conflict', 'not_found', 'unchanged']),
  target: Type.Optional(Type.Enum(['profile', 'contract'], { description: '`contract`: the value goes into the first contract (the vendor needs one)' })),
  value: Type.Optional(Value),
  confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  evidence: Type.Array(EvidenceSchema),
  candidates: Type.Optional(Type.Array(Type.Object({ value: Value, confidence: Type.Number(), evidence: Type.Array(EvidenceSchema) }))),
  reason: Type.Optional(
    Type.String({
      description:
        'Status `not_found`: why the documents leave the field open although they address it (e.g. "the customer may terminate at any time; the documents state no notice period"), with its passages in `evidence`; absent when no passage speaks to the field',
    }),
  ),
  decision: Type.Union([FieldDecisionSchema, Type.Null()]),
});

export const DraftSummarySchema = Type.Object({
  fields: Type.Integer(),
  proposed: Type.Integer(),
  conflicts: Type.Integer(),
  notFound: Type.Integer(),
  unchanged: Type.Integer(),
  passages: Type.Integer(),
  extractor: Type.String(),
  dropped: Type.Optional(Type.Integer()),
});

export const FieldSourceSchema = Type.Object({
  field: Type.String(),
  value: Value,
  action: Type.Enum(['accepted', 'edited']),
  draftId: Type.String(),
  evidence: Type.Array(EvidenceSchema),
  decidedBy: Type.String(),
  decidedAt: Type.String(),
});
export const FieldSourcesSchema = Type.Record(Type.String(), FieldSourceSchema, {
  description: 'Profile path (e.g. contracts.0.governingLaw) -> where its value came from',
});

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

export type DraftSummary = Static<typeof DraftSummarySchema>;

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
