import { Type, type TSchema } from 'typebox';
import { TEMPLATE_IDS } from '../../compliance/questionnaire-template.js';
import { ANSWER_TYPES, QUESTIONNAIRE_STATUSES, type AnswerValue } from '../../db/schema/questionnaires.js';
import { Envelope, ErrorEnvelope, MessageEnvelope, errorResponses } from '../../lib/envelope.js';
import { MAX_COMMENT, MAX_QUESTIONS, MAX_TEXT_ANSWER, QuestionInputSchema, ScoringRuleSchema, SectionInputSchema } from './questions.js';
import { SORT_FIELDS } from './repository.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';

/** Request and response schemas of questionnaires (docs/questionnaires.md): one named schema per route (routes.ts). */

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
/**
 * Nullable scalars of request bodies as one multi-type schema: with `anyOf` the
 * validator would coerce `null` into `0` or `""` in the first branch.
 */
const NullableScalar = <T extends string | number>(type: 'string' | 'number', opts: Record<string, unknown> = {}) =>
  Type.Unsafe<T | null>({ type: [type, 'null'], ...opts });
const DateOnly = Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const Status = Type.Enum([...QUESTIONNAIRE_STATUSES]);
const ANSWER_VALUE_DESCRIPTION = 'yes_no: yes|no|partial|na; text: string; date: YYYY-MM-DD; number; choice: option value (array when multiple)';
/** An answer value as the API shows it: string (yes_no, text, date, single choice), number, or array of strings (multiple choice). */
const AnswerValueSchema = Type.Union([Type.String(), Type.Number(), Type.Array(Type.String())], { description: ANSWER_VALUE_DESCRIPTION });
/** In a request (null clears): one multi-type schema, so that the validator never coerces a type into another; the question decides what is valid. */
const AnswerValueOrNull = Type.Unsafe<AnswerValue | null>({
  type: ['string', 'number', 'array', 'null'],
  items: { type: 'string', maxLength: 100 },
  maxItems: 50,
  maxLength: MAX_TEXT_ANSWER,
  description: ANSWER_VALUE_DESCRIPTION,
});
const VendorContact = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
const ChoiceOptionOut = Type.Object({ value: Type.String(), label: Type.String() });
const PublicQuestion = {
  id: Type.String(),
  sectionId: Type.String(),
  text: Type.String(),
  help: Nullable(Type.String()),
  type: Type.Enum([...ANSWER_TYPES]),
  required: Type.Boolean(),
  articles: Type.Array(Type.String()),
  references: Type.Array(Type.String()),
  allowPartial: Type.Optional(Type.Boolean()),
  allowNa: Type.Optional(Type.Boolean()),
  multiple: Type.Optional(Type.Boolean()),
  min: Type.Optional(Nullable(Type.Number())),
  max: Type.Optional(Nullable(Type.Number())),
  unit: Type.Optional(Nullable(Type.String())),
};
const Answer = Nullable(Type.Object({ value: Nullable(AnswerValueSchema), comment: Nullable(Type.String()), answeredAt: Nullable(Type.String()) }));
const Citation = Type.Object({
  sourceId: Type.String(),
  documentId: Type.String(),
  title: Type.String(),
  section: Type.String(),
  url: Type.String(),
  passage: Type.String(),
  score: Type.Number(),
});
const Suggestion = Nullable(
  Type.Object({ value: Nullable(AnswerValueSchema), rationale: Type.String(), citations: Type.Array(Citation), createdAt: Type.String() }),
);
const ChoiceOptionFull = Type.Object({ value: Type.String(), label: Type.String(), score: Nullable(Type.Number()) });
const Section = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  weight: Type.Number(),
  articles: Type.Array(Type.String()),
});
const SectionScore = Type.Object({
  sectionId: Type.String(),
  title: Type.String(),
  weight: Type.Number(),
  score: Nullable(Type.Number()),
  answered: Type.Integer(),
  questions: Type.Integer(),
  scoredQuestions: Type.Integer(),
});
const Progress = Type.Object({ questions: Type.Integer(), answered: Type.Integer(), required: Type.Integer(), requiredAnswered: Type.Integer() });
const Summary = {
  id: Type.String(),
  title: Type.String(),
  status: Status,
  template: Nullable(Type.Object({ id: Type.String(), version: Type.String() })),
  vendorContact: Nullable(Type.Object({ email: Type.String(), name: Nullable(Type.String()) })),
  dueDate: Nullable(Type.String()),
  score: Nullable(Type.Number({ description: 'total 0-100 (provisional until complete)' })),
  progress: Progress,
  sentAt: Nullable(Type.String()),
  submittedAt: Nullable(Type.String()),
  completedAt: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
};
const QuestionnaireSummary = Type.Object(Summary);
const Verdicts = ['partly', 'does_not', 'not_addressed'] as const;
/** A vendor's `yes` that the documents contradict or limit (claims.ts). */
const ClaimFlagSchema = Type.Object({
  answer: Type.Literal('yes'),
  verdict: Type.Enum([...Verdicts], { description: 'the weakest reading of the obligations the question asks about' }),
  obligations: Type.Array(
    Type.Object({
      id: Type.String(),
      ref: Type.String(),
      title: Type.String(),
      verdict: Type.Enum([...Verdicts, 'meets']),
      limitations: Type.Array(Type.String(), { description: 'what limits the obligation or is missing, in words' }),
      passages: Type.Array(
        Type.Object({
          documentId: Type.String(),
          document: Type.String(),
          section: Type.String(),
          quote: Type.String(),
          role: Type.Enum(['evidence', 'limitation', 'contrary', 'partial']),
          element: Type.String(),
        }),
      ),
    }),
  ),
});
const QuestionnaireDetail = Type.Object({
  ...Summary,
  description: Nullable(Type.String()),
  shareSuggestions: Type.Boolean(),
  reviewerNotes: Nullable(Type.String()),
  link: Type.Object({
    active: Type.Boolean(),
    url: Nullable(
      Type.String({ description: "the vendor's link: only in the response of the send that issued it (the token is stored hashed); null elsewhere" }),
    ),
    writable: Type.Boolean(),
    expiresAt: Nullable(Type.String()),
    sentAt: Nullable(Type.String()),
    sendCount: Type.Integer(),
    firstOpenedAt: Nullable(Type.String()),
    lastVendorActivityAt: Nullable(Type.String()),
  }),
  claims: Type.Object(
    {
      checked: Type.Boolean({ description: "false when the vendor's documents could not be read (none indexed, or no engine)" }),
      flagged: Type.Integer({ description: "answers the vendor's documents contradict or limit" }),
    },
    { description: "vendor claims checked against the workspace's documents by the obligation engine of the assessments" },
  ),
  completedBy: Nullable(Type.String()),
  createdBy: Nullable(Type.String()),
  scoring: Type.Object({
    method: Type.String(),
    final: Type.Boolean({ description: 'true once complete: the frozen result' }),
    total: Nullable(Type.Number()),
    sections: Type.Array(SectionScore),
    scoredAt: Type.String({ description: 'date that date answers are scored against' }),
  }),
  sections: Type.Array(Section),
  questions: Type.Array(
    Type.Object({
      ...PublicQuestion,
      weight: Type.Number(),
      scoring: Type.Optional(ScoringRuleSchema),
      options: Type.Optional(Type.Array(ChoiceOptionFull)),
      answer: Answer,
      suggestion: Suggestion,
      review: Nullable(
        Type.Object({
          overrideValue: Nullable(AnswerValueSchema),
          overrideScore: Nullable(Type.Number()),
          note: Nullable(Type.String()),
          reviewedBy: Nullable(Type.String()),
          reviewedAt: Nullable(Type.String()),
        }),
      ),
      points: Nullable(Type.Number({ description: '0..1; null when not scored' })),
      basis: Type.Enum(['vendor', 'override_value', 'override_score', 'unanswered', 'unscored']),
      claim: Nullable(ClaimFlagSchema),
    }),
  ),
});
const PrefillResult = Nullable(Type.Object({ questions: Type.Integer(), suggestions: Type.Integer(), withValue: Type.Integer() }));
const VendorQuestionnaire = Type.Object({
  title: Type.String(),
  description: Nullable(Type.String()),
  requester: Nullable(Type.String({ description: 'the financial entity asking' })),
  status: Type.Enum(['open', 'submitted']),
  readOnly: Type.Boolean(),
  dueDate: Nullable(Type.String()),
  expiresAt: Type.String(),
  submittedAt: Nullable(Type.String()),
  progress: Progress,
  sections: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), description: Nullable(Type.String()) })),
  questions: Type.Array(
    Type.Object({
      ...PublicQuestion,
      options: Type.Optional(Type.Array(ChoiceOptionOut)),
      answer: Answer,
      suggestion: Nullable(
        Type.Object({
          value: Nullable(AnswerValueSchema),
          rationale: Type.String(),
          citations: Type.Array(Type.Object({ title: Type.String(), passage: Type.String() })),
        }),
      ),
    }),
  ),
});
const TemplateOut = Type.Object({
  id: Type.String(),
  version: Type.String(),
  title: Type.String(),
  description: Type.String(),
  questionCount: Type.Integer(),
  sections: Type.Array(Type.Object({ ...Section.properties, questionCount: Type.Integer() })),
  questions: Type.Array(
    Type.Object({ ...PublicQuestion, weight: Type.Number(), scoring: Type.Optional(ScoringRuleSchema), options: Type.Optional(Type.Array(ChoiceOptionFull)) }),
  ),
});
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
const SORT_VALUES = SORT_FIELDS.flatMap((f) => [f, `-${f}`]);
const Title = Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' });
const Description = Type.String({ maxLength: 5000 });
const QuestionsEdit = {
  template: Type.Optional(Type.Enum(TEMPLATE_IDS, { description: 'start from this template' })),
  templateSections: Type.Optional(
    Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 30, uniqueItems: true, description: 'only these sections of the template' }),
  ),
  sections: Type.Optional(Type.Array(SectionInputSchema, { maxItems: 30 })),
  questions: Type.Optional(Type.Array(QuestionInputSchema, { maxItems: MAX_QUESTIONS })),
};
const tags = ['questionnaires'];
const vendorTags = ['vendor questionnaires'];
const vendorErrors = { ...errorResponses, 410: ErrorEnvelope };

export const listTemplates = {
  operationId: 'listQuestionnaireTemplates',
  tags,
  summary: 'Questionnaire templates: sections, questions, DORA article mapping, weights and scoring rules',
  // Reference data: the default page holds every template.
  querystring: Type.Object(pageQuery({ defaultLimit: 50 }), { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ templates: Type.Array(TemplateOut), pagination: PaginationSchema })), ...errorResponses },
};

export const listQuestionnaires = {
  operationId: 'listQuestionnaires',
  tags,
  summary: 'Questionnaires of the workspace (X-Workspace-Id), with status, progress and score',
  querystring: Type.Object(
    {
      ...pageQuery(),
      status: Type.Optional(Status),
      sort: Type.Enum(SORT_VALUES, { default: '-createdAt' }),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Envelope(
      Type.Object({
        questionnaires: Type.Array(QuestionnaireSummary),
        pagination: PaginationSchema,
      }),
    ),
    ...errorResponses,
  },
};

export const createQuestionnaire = {
  operationId: 'createQuestionnaire',
  tags,
  summary: 'Create a questionnaire from a template and/or custom questions; optionally pre-fill and send at once',
  body: Type.Object(
    {
      title: Type.Optional(Title),
      description: Type.Optional(Description),
      ...QuestionsEdit,
      vendorContact: Type.Optional(VendorContact),
      dueDate: Type.Optional(DateOnly),
      shareSuggestions: Type.Optional(Type.Boolean({ description: 'show pre-fill suggestions (with citations) to the vendor; default false' })),
      prefill: Type.Optional(Type.Boolean({ description: 'propose answers from the workspace documents; default false' })),
      send: Type.Optional(Type.Boolean({ description: 'e-mail the vendor link at once; default false (draft)' })),
    },
    { additionalProperties: false },
  ),
  response: {
    201: Envelope(Type.Object({ questionnaire: QuestionnaireDetail, prefill: PrefillResult })),
    ...errorResponses,
    502: ErrorEnvelope,
    503: ErrorEnvelope,
  },
};

export const getQuestionnaire = {
  operationId: 'getQuestionnaire',
  tags,
  summary: 'A questionnaire with its questions, answers, suggestions, reviews and scoring results',
  params: IdParams,
  response: { 200: Envelope(Type.Object({ questionnaire: QuestionnaireDetail })), ...errorResponses },
};

export const updateQuestionnaire = {
  operationId: 'updateQuestionnaire',
  tags,
  summary: 'Update: title, description, due date, contact; questions while draft; reviews while submitted; status',
  params: IdParams,
  body: Type.Object(
    {
      title: Type.Optional(Title),
      description: Type.Optional(NullableScalar<string>('string', { maxLength: 5000 })),
      dueDate: Type.Optional(NullableScalar<string>('string', { format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD; null clears' })),
      vendorContact: Type.Optional(Nullable(VendorContact)),
      shareSuggestions: Type.Optional(Type.Boolean()),
      reviewerNotes: Type.Optional(NullableScalar<string>('string', { maxLength: 10000 })),
      ...QuestionsEdit,
      reviews: Type.Optional(
        Type.Array(
          Type.Object(
            {
              questionId: Type.String({ minLength: 1, maxLength: 40 }),
              overrideValue: Type.Optional(AnswerValueOrNull),
              overrideScore: Type.Optional(NullableScalar<number>('number', { minimum: 0, maximum: 1, description: 'points 0..1; null clears' })),
              note: Type.Optional(NullableScalar<string>('string', { maxLength: MAX_COMMENT })),
              acceptSuggestion: Type.Optional(Type.Boolean({ description: 'use the pre-fill suggestion as the override value' })),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: MAX_QUESTIONS },
        ),
      ),
      status: Type.Optional(Status),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  response: { 200: Envelope(Type.Object({ questionnaire: QuestionnaireDetail })), ...errorResponses },
};

export const deleteQuestionnaire = {
  operationId: 'deleteQuestionnaire',
  tags,
  summary: 'Delete a questionnaire, its answers and its vendor link',
  params: IdParams,
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const sendQuestionnaire = {
  operationId: 'sendQuestionnaire',
  tags,
  summary: 'E-mail the vendor a new link (draft -> sent; a resend replaces the previous link)',
  params: IdParams,
  response: { 200: Envelope(Type.Object({ questionnaire: QuestionnaireDetail })), ...errorResponses, 502: ErrorEnvelope },
};

export const prefillQuestionnaire = {
  operationId: 'prefillQuestionnaire',
  tags,
  summary: 'Propose answers from the workspace documents, with citations (suggestions only)',
  params: IdParams,
  response: { 200: Envelope(Type.Object({ questionnaire: QuestionnaireDetail, prefill: PrefillResult })), ...errorResponses, 503: ErrorEnvelope },
};

export const getVendorQuestionnaire = {
  operationId: 'getVendorQuestionnaire',
  tags: vendorTags,
  summary: 'The questionnaire behind a vendor link: questions and current answers (read-only once submitted)',
  security: [],
  params: TokenParams,
  response: { 200: Envelope(Type.Object({ questionnaire: VendorQuestionnaire })), ...vendorErrors },
};

export const saveVendorAnswers = {
  operationId: 'saveVendorAnswers',
  tags: vendorTags,
  summary: 'Save answers (only the given questions change; null clears) and, with submit, submit',
  security: [],
  params: TokenParams,
  body: Type.Object(
    {
      answers: Type.Array(
        Type.Object(
          {
            questionId: Type.String({ minLength: 1, maxLength: 40 }),
            value: Type.Optional(AnswerValueOrNull),
            comment: Type.Optional(NullableScalar<string>('string', { maxLength: MAX_COMMENT })),
            acceptSuggestion: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_QUESTIONS },
      ),
      submit: Type.Optional(Type.Boolean({ description: 'submit after saving; the link becomes read-only' })),
    },
    { additionalProperties: false },
  ),
  response: { 200: Envelope(Type.Object({ questionnaire: VendorQuestionnaire })), ...vendorErrors },
};
