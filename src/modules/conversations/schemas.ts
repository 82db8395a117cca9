import { Type } from 'typebox';
import { CONVERSATION_STATUSES } from '../../db/schema/index.js';
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
