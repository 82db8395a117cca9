import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { CONVERSATION_STATUSES } from '../../db/schema/index.js';
import { Envelope, MessageEnvelope, errorResponses, ok } from '../../lib/envelope.js';
import { SORT_FIELDS } from './repository.js';
import { Conversation, IdParams, Message } from './schemas.js';
import { conversationView, type ConversationsService, type Owner } from './service.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';

export const SORT_VALUES = Object.keys(SORT_FIELDS).flatMap((f) => [f, `-${f}`]);
const Title = Type.String({ minLength: 1, maxLength: 200 });

/** The caller's scope: their own conversations in the workspace of `X-Workspace-Id`. */
export const ownerOf = (request: FastifyRequest): Owner => ({ workspaceId: request.workspace!.id, userId: request.auth!.id });

const tags = ['conversations'];

/** Conversations of the caller in a workspace (docs/conversations.md). */
const routes: FastifyPluginAsyncTypebox<{ service: ConversationsService }> = async (app, { service }) => {
  app.get('/conversations', {
    config: { workspace: true },
    schema: {
      tags,
      summary: "The caller's conversations in the workspace",
      querystring: Type.Object({
        ...pageQuery(),
        status: Type.Enum([...CONVERSATION_STATUSES], { default: 'active' }),
        sort: Type.Enum(SORT_VALUES, { default: '-lastMessageAt' }),
      }, { additionalProperties: false }),
      response: {
        200: Envelope(Type.Object({
          conversations: Type.Array(Conversation),
          pagination: PaginationSchema,
        })),
        ...errorResponses,
      },
    },
  }, async (request) => ok(await service.list(ownerOf(request), request.query)));

  app.post('/conversations', {
    config: { permission: 'canQuery' },
    schema: {
      tags,
      summary: 'Create a conversation',
      body: Type.Object({ title: Type.Optional(Title) }, { additionalProperties: false }),
      response: { 201: Envelope(Type.Object({ conversation: Conversation })), ...errorResponses },
    },
  }, async (request, reply) => {
    const conversation = await service.create(ownerOf(request), request.body.title);
    return reply.status(201).send(ok({ conversation }, 'Conversation created'));
  });

  app.get('/conversations/:id', {
    config: { workspace: true },
    schema: {
      tags,
      summary: 'A conversation with its newest messages (oldest first)',
      params: IdParams,
      querystring: Type.Object({ messageLimit: Type.Integer({ minimum: 0, maximum: 500, default: 50 }) }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ conversation: Conversation, messages: Type.Array(Message) })), ...errorResponses },
    },
  }, async (request) => ok(await service.get(ownerOf(request), request.params.id, request.query.messageLimit)));

  app.patch('/conversations/:id', {
    config: { workspace: true },
    schema: {
      tags,
      summary: 'Rename, archive or reactivate a conversation',
      params: IdParams,
      body: Type.Object({ title: Type.Optional(Title), status: Type.Optional(Type.Enum(['active', 'archived'])) }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(Type.Object({ conversation: Conversation })), ...errorResponses },
    },
  }, async (request) => {
    const row = await service.update(ownerOf(request), request.params.id, request.body);
    return ok({ conversation: conversationView(row) }, 'Conversation updated');
  });

  app.delete('/conversations/:id', {
    config: { workspace: true },
    schema: { tags, summary: 'Delete a conversation and all its messages', params: IdParams, response: { 200: MessageEnvelope, ...errorResponses } },
  }, async (request) => {
    await service.remove(ownerOf(request), request.params.id);
    return { status: 'success' as const, message: 'Conversation deleted' };
  });

  app.get('/conversations/:id/messages', {
    config: { workspace: true },
    schema: {
      tags,
      summary: 'Messages of a conversation, paged (oldest first; `before` pages backwards)',
      params: IdParams,
      querystring: Type.Object({
        ...pageQuery({ defaultLimit: 50 }),
        before: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        after: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      }, { additionalProperties: false }),
      response: {
        200: Envelope(Type.Object({
          messages: Type.Array(Message),
          pagination: PaginationSchema,
        })),
        ...errorResponses,
      },
    },
  }, async (request) => ok(await service.messages(ownerOf(request), request.params.id, request.query)));

  app.delete('/conversations/:id/messages', {
    config: { workspace: true },
    schema: {
      tags,
      summary: 'Delete every message; the conversation stays',
      params: IdParams,
      response: { 200: Envelope(Type.Object({ deletedCount: Type.Number() })), ...errorResponses },
    },
  }, async (request) => ok(await service.clearMessages(ownerOf(request), request.params.id), 'Messages deleted'));

  app.get('/conversations/:id/export', {
    config: { workspace: true },
    schema: {
      tags,
      summary: 'Export a conversation as JSON (envelope) or Markdown (text/markdown document)',
      params: IdParams,
      querystring: Type.Object({ format: Type.Enum(['json', 'markdown'], { default: 'json' }) }, { additionalProperties: false }),
      response: {
        200: {
          description: 'JSON: the envelope with conversation, messages and exportedAt. Markdown: the document.',
          content: {
            'application/json': {
              schema: Envelope(Type.Object({ conversation: Conversation, messages: Type.Array(Message), exportedAt: Type.String({ format: 'date-time' }) })),
            },
            'text/markdown': { schema: Type.String() },
          },
        },
        ...errorResponses,
      },
    },
  }, async (request, reply) => {
    const out = await service.export(ownerOf(request), request.params.id, request.query.format);
    if (out.format === 'markdown') {
      return reply
        .type('text/markdown; charset=utf-8')
        .header('content-disposition', `attachment; filename="conversation-${out.conversation.id}.md"`)
        .send(out.markdown);
    }
    return reply.type('application/json; charset=utf-8').send(ok(out.data, 'Conversation exported'));
  });
};

export default routes;
