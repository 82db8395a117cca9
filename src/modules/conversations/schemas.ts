import { Type } from 'typebox';
import { CONVERSATION_STATUSES } from '../../db/schema/index.js';
import { Nullable } from '../../lib/envelope.js';


export const Conversation = Type.Object({
  id: Type.String(),
  title: Type.String(),
  messageCount: Type.Number(),
  lastMessageAt: Type.String({ format: 'date-time' }),
  status: Type.Enum([...CONVERSATION_STATUSES]),
  createdAt: Type.String({ format: 'date-time' }),
});

export const SourceRef = Type.Object({
  id: Type.String(),
  sourceNumber: Type.Number(),
  title: Type.String(),
  url: Type.String(),
  section: Type.String(),
  score: Type.Number(),
  documentId: Type.String(),
  dataSourceId: Nullable(Type.String()),
  page: Nullable(Type.String()),
  content: Type.Optional(Type.String({ description: 'the passage as retrieved for this answer; absent on messages stored before passages were kept' })),
});

export const CitedSource = Type.Object({ sourceNumber: Type.Number(), title: Type.String(), url: Type.String() });

export const ValidationBlock = Type.Object({
  confidence: Type.Number(),
  isGrounded: Type.Boolean(),
  hasHallucinations: Type.Boolean(),
  isRelevant: Type.Boolean(),
  issues: Type.Array(Type.String()),
});

export const AssistantMetadata = Type.Object({
  confidence: Type.Number(),
  sources: Type.Array(SourceRef),
  citedSources: Type.Array(CitedSource),
  validation: ValidationBlock,
  generator: Type.String(),
  model: Nullable(Type.String()),
  totalTime: Type.Number({ description: 'milliseconds' }),
});

export const Message = Type.Object({
  id: Type.String(),
  role: Type.Enum(['user', 'assistant']),
  content: Type.String(),
  metadata: Type.Optional(AssistantMetadata),
  timestamp: Type.String({ format: 'date-time' }),
});

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
