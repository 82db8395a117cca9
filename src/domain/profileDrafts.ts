import { Type } from 'typebox';

/**
 * API shapes of register drafting (docs/register-drafting.md): a passage a value comes
 * from, a field of a draft, and the source kept beside an accepted profile value.
 */
const Value = Type.Unknown({ description: 'The value in the form of its field: text, YYYY-MM-DD date, null (indefinite), days, ISO country code(s), S01-S19, boolean, or subcontractors' });

export const EvidenceSchema = Type.Object({
  documentId: Type.String(),
  dataSourceId: Type.Union([Type.String(), Type.Null()]),
  chunkId: Type.String(),
  title: Type.String(),
  section: Type.String(),
  page: Type.Union([Type.String(), Type.Null()]),
  quote: Type.String({ description: 'Verbatim text of the stored passage' }),
  link: Type.String({ description: 'Internal link to the passage (as the answers\' source links)' }),
});

export const FieldDecisionSchema = Type.Object({
  action: Type.Enum(['accepted', 'edited', 'rejected']),
  value: Type.Optional(Value),
  by: Type.String(),
  at: Type.String(),
});

export const DraftFieldSchema = Type.Object({
  field: Type.String(),
  label: Type.String(),
  form: Type.Enum(['text', 'date', 'dateOrIndefinite', 'days', 'country', 'countries', 'serviceType', 'boolean', 'subcontractors'], { description: 'Form of the value an edit must give' }),
  status: Type.Enum(['proposed', 'conflict', 'not_found', 'unchanged']),
  value: Type.Optional(Value),
  confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  evidence: Type.Array(EvidenceSchema),
  candidates: Type.Optional(Type.Array(Type.Object({ value: Value, confidence: Type.Number(), evidence: Type.Array(EvidenceSchema) }))),
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
export const FieldSourcesSchema = Type.Record(Type.String(), FieldSourceSchema, { description: 'Profile path (e.g. contracts.0.governingLaw) -> where its value came from' });
