import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MessageEnvelope, errorResponses, ok } from '../../lib/envelope.js';
import { requestScope } from '../../plugins/workspace.js';
import {
  ClearResponse,
  ConversationResponse,
  CreateBody,
  ExportQuery,
  ExportResponse,
  GetQuery,
  GetResponse,
  IdParams,
  ListQuery,
  ListResponse,
  MessagesQuery,
  MessagesResponse,
  UpdateBody,
} from './schemas.js';
import { conversationView, type ConversationsService } from './service.js';

const tags = ['conversations'];

/** Conversations of the caller in a workspace (docs/conversations.md). */
const routes: FastifyPluginAsyncTypebox<{ service: ConversationsService }> = async (app, { service }) => {
  app.get(
    '/conversations',
    {
      config: { workspace: true },
      schema: {
        operationId: 'listConversations',
        tags,
        summary: "The caller's conversations in the workspace",
        querystring: ListQuery,
        response: { 200: ListResponse, ...errorResponses },
      },
    },
    async (request) => ok(await service.list(requestScope(request), request.query)),
  );

  app.post(
    '/conversations',
    {
      config: { permission: 'canQuery' },
      schema: {
        operationId: 'createConversation',
        tags,
        summary: 'Create a conversation',
        body: CreateBody,
        response: { 201: ConversationResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const conversation = await service.create(requestScope(request), request.body.title);
      return reply.status(201).send(ok({ conversation }, 'Conversation created'));
    },
  );

  app.get(
    '/conversations/:id',
    {
      config: { workspace: true },
      schema: {
        operationId: 'getConversation',
        tags,
        summary: 'A conversation with its newest messages (oldest first)',
        params: IdParams,
        querystring: GetQuery,
        response: { 200: GetResponse, ...errorResponses },
      },
    },
    async (request) => ok(await service.get(requestScope(request), request.params.id, request.query.messageLimit)),
  );

  app.patch(
    '/conversations/:id',
    {
      config: { workspace: true },
      schema: {
        operationId: 'updateConversation',
        tags,
        summary: 'Rename, archive or reactivate a conversation',
        params: IdParams,
        body: UpdateBody,
        response: { 200: ConversationResponse, ...errorResponses },
      },
    },
    async (request) => {
      const row = await service.update(requestScope(request), request.params.id, request.body);
      return ok({ conversation: conversationView(row) }, 'Conversation updated');
    },
  );

  app.delete(
    '/conversations/:id',
    {
      config: { workspace: true },
      schema: {
        operationId: 'deleteConversation',
        tags,
        summary: 'Delete a conversation and all its messages',
        params: IdParams,
        response: { 200: MessageEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      await service.remove(requestScope(request), request.params.id);
      return { status: 'success' as const, message: 'Conversation deleted' };
    },
  );

  app.get(
    '/conversations/:id/messages',
    {
      config: { workspace: true },
      schema: {
        operationId: 'listMessages',
        tags,
        summary: 'Messages of a conversation, paged (oldest first; `before` pages backwards)',
        params: IdParams,
        querystring: MessagesQuery,
        response: { 200: MessagesResponse, ...errorResponses },
      },
    },
    async (request) => ok(await service.messages(requestScope(request), request.params.id, request.query)),
  );

  app.delete(
    '/conversations/:id/messages',
    {
      config: { workspace: true },
      schema: {
        operationId: 'clearMessages',
        tags,
        summary: 'Delete every message; the conversation stays',
        params: IdParams,
        response: { 200: ClearResponse, ...errorResponses },
      },
    },
    async (request) => ok(await service.clearMessages(requestScope(request), request.params.id), 'Messages deleted'),
  );

  app.get(
    '/conversations/:id/export',
    {
      config: { workspace: true },
      schema: {
        operationId: 'exportConversation',
        tags,
        summary: 'Export a conversation as JSON (envelope) or Markdown (text/markdown document)',
        params: IdParams,
        querystring: ExportQuery,
        response: { 200: ExportResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const out = await service.export(requestScope(request), request.params.id, request.query.format);
      if (out.format === 'markdown') {
        return reply
          .type('text/markdown; charset=utf-8')
          .header('content-disposition', `attachment; filename="conversation-${out.conversation.id}.md"`)
          .send(out.markdown);
      }
      return reply.type('application/json; charset=utf-8').send(ok(out.data, 'Conversation exported'));
    },
  );
};

export default routes;
