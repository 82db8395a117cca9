import { Type } from 'typebox';
import { CONVERSATION_STATUSES } from '../../db/schema/index.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';
import { Envelope } from '../../lib/envelope.js';
import { SORT_FIELDS } from './repository.js';
import { AssistantMetadataSchema } from '../../domain/answers.js';

export const Conversation = Type.Object({
  id: Type.String(),
  title: Type.String(),
  messageCount: Type.Number(),
  lastMessageAt: Type.String({ format: 'date-time' }),
  status: Type.Enum([...CONVERSATION_STATUSES]),
  createdAt: Type.String({ format: 'date-time' }),
});

export const Message = Type.Object({
  id: Type.String(),
  role: Type.Enum(['user', 'assistant']),
  content: Type.String(),
  metadata: Type.Optional(AssistantMetadataSchema),
  timestamp: Type.String({ format: 'date-time' }),
});

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const SORT_VALUES = Object.keys(SORT_FIELDS).flatMap((f) => [f, `-${f}`]);
const Title = Type.String({ minLength: 1, maxLength: 200 });
const MessageId = Type.String({ minLength: 1, maxLength: 100 });

/** GET /conversations */
export const ListQuery = Type.Object(
  {
    ...pageQuery(),
    status: Type.Enum([...CONVERSATION_STATUSES], { default: 'active' }),
    sort: Type.Enum(SORT_VALUES, { default: '-lastMessageAt' }),
  },
  { additionalProperties: false },
);
export const ListResponse = Envelope(
  Type.Object({
    conversations: Type.Array(Conversation),
    pagination: PaginationSchema,
  }),
);

/** POST /conversations */
export const CreateBody = Type.Object({ title: Type.Optional(Title) }, { additionalProperties: false });
/** POST /conversations, PATCH /conversations/:id */
export const ConversationResponse = Envelope(Type.Object({ conversation: Conversation }));

/** GET /conversations/:id */
export const GetQuery = Type.Object({ messageLimit: Type.Integer({ minimum: 0, maximum: 500, default: 50 }) }, { additionalProperties: false });
export const GetResponse = Envelope(Type.Object({ conversation: Conversation, messages: Type.Array(Message) }));

/** PATCH /conversations/:id */
export const UpdateBody = Type.Object(
  { title: Type.Optional(Title), status: Type.Optional(Type.Enum(['active', 'archived'])) },
  { additionalProperties: false, minProperties: 1 },
);

/** GET /conversations/:id/messages */
export const MessagesQuery = Type.Object(
  {
    ...pageQuery({ defaultLimit: 50 }),
    before: Type.Optional(MessageId),
    after: Type.Optional(MessageId),
  },
  { additionalProperties: false },
);
export const MessagesResponse = Envelope(
  Type.Object({
    messages: Type.Array(Message),
    pagination: PaginationSchema,
  }),
);

/** DELETE /conversations/:id/messages */
export const ClearResponse = Envelope(Type.Object({ deletedCount: Type.Number() }));

/** GET /conversations/:id/export */
export const ExportQuery = Type.Object({ format: Type.Enum(['json', 'markdown'], { default: 'json' }) }, { additionalProperties: false });
const ExportedSource = Type.Object({
  sourceNumber: Type.Number(),
  title: Type.String(),
  section: Type.String(),
  page: Type.Union([Type.String(), Type.Null()]),
  cited: Type.Boolean(),
  link: Type.String({ description: 'absolute (PUBLIC_URL): the document opened at the passage in the dashboard' }),
  apiLink: Type.String({ description: 'the internal source link (docs/rag.md), absolute' }),
  passage: Type.Union([Type.String(), Type.Null()], { description: 'the passage as retrieved for the answer' }),
});
const ExportedMessage = Type.Object({
  ...Message.properties,
  evidence: Type.Optional(
    Type.Object(
      { confidence: Type.String({ description: 'in words and per cent, e.g. `High (83%)`' }), sources: Type.Array(ExportedSource) },
      { description: 'answers only' },
    ),
  ),
});
export const ExportResponse = {
  description: 'JSON: the envelope with conversation, messages (answers with their evidence) and exportedAt. Markdown: the document.',
  content: {
    'application/json': {
      schema: Envelope(Type.Object({ conversation: Conversation, messages: Type.Array(ExportedMessage), exportedAt: Type.String({ format: 'date-time' }) })),
    },
    'text/markdown': { schema: Type.String() },
  },
};
