import { Type } from 'typebox';
import { ELEMENT_LEVELS, EVIDENCE_ROLES, GAP_STATUSES } from '../../domain/gap.js';
import { ASSESSMENT_STATUSES, RISK_RATINGS } from '../../db/schema/assessments.js';
import { Envelope, ErrorEnvelope, MessageEnvelope, errorResponses } from '../../lib/envelope.js';
import { SORT_FIELDS } from './repository.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';

/** Request and response schemas of assessments (docs/assessments.md): one named schema per route (routes.ts). */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Summary = Type.Object({
  obligations: Type.Integer(),
  covered: Type.Integer(),
  partial: Type.Integer(),
  missing: Type.Integer(),
  documents: Type.Integer(),
  sentences: Type.Integer(),
  missingKey: Type.Array(Type.String()),
  riskReasons: Type.Array(Type.String()),
  embedder: Nullable(Type.String()),
  verdicts: Type.Optional(Type.String({ description: 'Who read the clauses: offline, or the model with how many verdicts passed its checks' })),
  engineScore: Type.Optional(Type.Integer({ description: "The engine's score before any analyst verdict" })),
  engineRiskRating: Type.Optional(Type.Enum([...RISK_RATINGS])),
  analystVerdicts: Type.Optional(Type.Integer({ description: 'Results whose status is the analyst verdict' })),
});
const DocumentOut = Type.Object({
  id: Type.String(),
  filename: Type.String(),
  format: Type.String(),
  mimeType: Type.String(),
  sizeBytes: Type.Integer(),
  pageCount: Type.Integer(),
  title: Nullable(Type.String()),
  characters: Type.Integer(),
});
const AssessmentBase = {
  id: Type.String(),
  workspaceId: Type.String(),
  name: Type.String(),
  framework: Type.String(),
  status: Type.Enum([...ASSESSMENT_STATUSES]),
  score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  riskRating: Nullable(Type.Enum([...RISK_RATINGS])),
  summary: Nullable(Summary),
  error: Nullable(Type.String()),
  createdBy: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  startedAt: Nullable(Type.String()),
  completedAt: Nullable(Type.String()),
  signOff: Nullable(
    Type.Object(
      { at: Type.String(), userId: Nullable(Type.String()), userName: Nullable(Type.String()), note: Type.String() },
      { description: 'Set once the assessment is signed off; it is read-only from then on' },
    ),
  ),
};
const Evidence = Type.Object({
  documentId: Type.String(),
  filename: Type.String(),
  documentTitle: Nullable(Type.String()),
  section: Type.String(),
  page: Type.Optional(Type.Integer()),
  quote: Type.String(),
  truncated: Type.Boolean(),
  element: Type.String(),
  relevance: Type.Number(),
  role: Type.Optional(
    Type.Enum([...EVIDENCE_ROLES], {
      description:
        'What the passage shows: evidence (absent), the clause limiting the element, a clause pointing the other way, or evidence that only partly meets it',
    }),
  ),
});
const GapResultOut = Type.Object({
  obligationId: Type.String(),
  article: Type.String(),
  ref: Type.String(),
  title: Type.String(),
  requirement: Type.String(),
  doraText: Type.String(),
  status: Type.Enum([...GAP_STATUSES]),
  coverage: Type.Number(),
  weight: Type.Integer(),
  key: Type.Boolean(),
  elements: Type.Array(
    Type.Object({
      id: Type.String(),
      label: Type.String(),
      satisfied: Type.Boolean({ description: 'Met in full' }),
      level: Type.Optional(Type.Enum([...ELEMENT_LEVELS], { description: 'met, limited (by a limiting clause), partial (partly met) or none' })),
      note: Type.Optional(Type.String({ description: 'Why the element is limited or only partly met, with the words that decide' })),
    }),
  ),
  evidence: Type.Array(Evidence),
  rationale: Type.String(),
  verdictSource: Type.Optional(Type.Enum(['offline', 'model'])),
  verdictNote: Type.Optional(Type.String({ description: "Why the offline verdict stands where the model's answer was not used" })),
  analyst: Type.Optional(
    Nullable(
      Type.Object(
        {
          status: Type.Enum([...GAP_STATUSES]),
          reason: Type.String(),
          userId: Nullable(Type.String()),
          userName: Nullable(Type.String()),
          at: Type.String(),
          engineStatus: Type.Enum([...GAP_STATUSES]),
          engineCoverage: Type.Number(),
        },
        { description: "The analyst's verdict; `status` and `coverage` of the result are then the analyst's" },
      ),
    ),
  ),
});
const ReviewOut = Type.Object({
  id: Type.String(),
  obligationId: Nullable(Type.String()),
  kind: Type.Enum(['verdict', 'clear', 'comment', 'sign_off']),
  status: Nullable(Type.String()),
  previousStatus: Nullable(Type.String()),
  text: Type.String(),
  userId: Nullable(Type.String()),
  userName: Nullable(Type.String()),
  at: Type.String(),
});
const AssessmentListItem = Type.Object(AssessmentBase);
const AssessmentCreated = Type.Object({ ...AssessmentBase, documents: Type.Array(DocumentOut) });
const AssessmentDetail = Type.Object({
  ...AssessmentBase,
  documents: Type.Array(DocumentOut),
  results: Type.Array(GapResultOut),
  reviews: Type.Array(ReviewOut, { description: 'The review trail, oldest first: verdicts set and cleared, comments, the sign-off' }),
});
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const SORTS = Object.keys(SORT_FIELDS).flatMap((f) => [f, `-${f}`]);
const MultipartBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200, description: 'Name of the assessment (default: "DORA assessment of <vendor> (<date>)")' })),
  files: Type.Optional(Type.Array(Type.String({ format: 'binary' }), { description: 'Vendor documents: PDF, DOCX, XLSX, HTML, Markdown, text or JSON' })),
  sourceFileId: Type.Optional(
    Type.Array(Type.String(), { description: 'Files already uploaded to the workspace (ids of data source files, repeatable) to analyse as well' }),
  ),
});
const JsonBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    sourceFileIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      description: 'Files already uploaded to the workspace (ids of data source files)',
    }),
  },
  { additionalProperties: false },
);
const DocParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), documentId: Type.String({ minLength: 1, maxLength: 100 }) });

export const listAssessments = {
  operationId: 'listAssessments',
  tags: ['assessments'],
  summary: 'Assessments of the workspace (newest first by default)',
  querystring: Type.Object(
    {
      ...pageQuery(),
      status: Type.Optional(Type.Enum([...ASSESSMENT_STATUSES])),
      sort: Type.Enum(SORTS, { default: '-createdAt' }),
    },
    { additionalProperties: false },
  ),
  response: { 200: Envelope(Type.Object({ assessments: Type.Array(AssessmentListItem), pagination: PaginationSchema })), ...errorResponses },
};

export const createAssessment = {
  operationId: 'createAssessment',
  tags: ['assessments'],
  summary:
    'Create a DORA gap assessment from uploaded vendor documents (multipart/form-data) and/or documents already uploaded to the workspace (sourceFileId(s)); the analysis runs as a job',
  consumes: ['multipart/form-data', 'application/json'],
  body: { content: { 'multipart/form-data': { schema: MultipartBody }, 'application/json': { schema: JsonBody } } } as never,
  response: { 201: Envelope(Type.Object({ assessment: AssessmentCreated })), 413: ErrorEnvelope, 415: ErrorEnvelope, 422: ErrorEnvelope, ...errorResponses },
};

export const getAssessment = {
  operationId: 'getAssessment',
  tags: ['assessments'],
  summary: 'Assessment details with the gap results (status, evidence quotes) per DORA obligation',
  params: IdParams,
  response: { 200: Envelope(Type.Object({ assessment: AssessmentDetail })), ...errorResponses },
};

export const getAssessmentDocument = {
  operationId: 'getAssessmentDocument',
  tags: ['assessments'],
  summary: 'One document of the assessment as extracted text blocks (headings, page): what the evidence quotes point into',
  params: DocParams,
  response: {
    200: Envelope(
      Type.Object({
        document: Type.Object({
          ...DocumentOut.properties,
          original: Type.Union([Type.Object({ id: Type.String(), dataSourceId: Type.String(), filename: Type.String(), url: Type.String() }), Type.Null()], {
            description: "a live file of the vendor's documents with the same bytes (SHA-256): its download link; null when there is none",
          }),
          blocks: Type.Array(Type.Object({ text: Type.String(), headings: Type.Array(Type.String()), page: Nullable(Type.Integer()) })),
        }),
      }),
    ),
    ...errorResponses,
  },
};

export const deleteAssessment = {
  operationId: 'deleteAssessment',
  tags: ['assessments'],
  summary: 'Delete the assessment and its documents',
  params: IdParams,
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const downloadReport = {
  operationId: 'downloadAssessmentReport',
  tags: ['assessments'],
  summary: 'Download the compliance report of a completed assessment (Word, .docx)',
  params: IdParams,
  produces: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  response: { 200: Type.Any({ description: 'The .docx file' }), ...errorResponses },
};

const ResultParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), obligationId: Type.String({ minLength: 1, maxLength: 40 }) });
const Text = (description: string) => Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S', description });
const ReviewOutcome = Envelope(Type.Object({ result: GapResultOut, assessment: AssessmentListItem, review: ReviewOut }));

export const setVerdict = {
  operationId: 'setAssessmentVerdict',
  tags: ['assessments'],
  summary: "Set the analyst's verdict of one result (replaces the engine's status in the score, rating, report and register)",
  params: ResultParams,
  body: Type.Object({ status: Type.Enum([...GAP_STATUSES]), reason: Text('Why, in a sentence an auditor can read') }, { additionalProperties: false }),
  response: { 200: ReviewOutcome, ...errorResponses },
};

export const clearVerdict = {
  operationId: 'clearAssessmentVerdict',
  tags: ['assessments'],
  summary: "Withdraw the analyst's verdict of one result (the engine's status applies again)",
  params: ResultParams,
  body: Type.Optional(Type.Object({ reason: Type.Optional(Text('Why the verdict is withdrawn')) }, { additionalProperties: false })),
  response: { 200: ReviewOutcome, ...errorResponses },
};

export const commentResult = {
  operationId: 'commentAssessmentResult',
  tags: ['assessments'],
  summary: 'Comment on one result of the assessment (the status stays)',
  params: ResultParams,
  body: Type.Object({ text: Text('The comment') }, { additionalProperties: false }),
  response: { 201: Envelope(Type.Object({ review: ReviewOut })), ...errorResponses },
};

export const signOffAssessment = {
  operationId: 'signOffAssessment',
  tags: ['assessments'],
  summary: 'Sign the assessment off (who, when, a note); it is read-only from then on',
  params: IdParams,
  body: Type.Object({ note: Text('The sign-off note: what was reviewed and decided') }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ assessment: AssessmentListItem })), ...errorResponses },
};

export const listReviews = {
  operationId: 'listAssessmentReviews',
  tags: ['assessments'],
  summary: 'The review trail of the assessment, oldest first',
  params: IdParams,
  querystring: Type.Object(pageQuery({ defaultLimit: 100 }), { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ reviews: Type.Array(ReviewOut), pagination: PaginationSchema })), ...errorResponses },
};
