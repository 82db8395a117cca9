import { Type } from 'typebox';
import { ValidationSchema } from '../../domain/answers.js';
import { CitedSourceSchema, SourceSchema } from '../../domain/sources.js';
import { Envelope, ErrorEnvelope, errorResponses } from '../../lib/envelope.js';

const DateString = Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const Filters = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'restrict to one page (document page id)' })),
    section: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'restrict to a section' })),
    dateRange: Type.Optional(Type.Object({ start: Type.Optional(DateString), end: Type.Optional(DateString) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
const Question = Type.String({ minLength: 1, maxLength: 5000 });

/** POST /rag, POST /rag/query, POST /rag/stream */
export const AskBody = Type.Object(
  {
    question: Question,
    conversationId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    filters: Type.Optional(Filters),
  },
  { additionalProperties: false },
);
/** POST /conversations/:id/ask */
export const ConversationAskBody = Type.Object({ question: Question, filters: Type.Optional(Filters) }, { additionalProperties: false });

export const AnswerSchema = Type.Object({
  answer: Type.String(),
  formattedAnswer: Type.Object({ text: Type.String(), format: Type.String() }),
  sources: Type.Array(SourceSchema),
  citedSources: Type.Array(CitedSourceSchema),
  validation: ValidationSchema,
  conversationId: Type.String(),
  totalTime: Type.Number({ description: 'milliseconds from request to answer' }),
});

/** The answer routes (JSON) */
export const answerResponses = {
  200: Envelope(AnswerSchema),
  ...errorResponses,
  502: ErrorEnvelope,
  503: ErrorEnvelope,
  504: ErrorEnvelope,
};

/** POST /rag/stream */
export const streamResponses = {
  200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: Type.String() } } },
  ...errorResponses,
};
