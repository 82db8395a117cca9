import { PassThrough } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { databaseUnavailable, isDatabaseUnavailable } from '../../db/errors.js';
import { ok } from '../../lib/envelope.js';
import { AppError } from '../../lib/errors.js';
import { GenerationAborted } from '../../rag/generators/index.js';
import { requestScope } from '../../plugins/workspace.js';
import { IdParams } from '../conversations/schemas.js';
import { AskBody, answerResponses, ConversationAskBody, streamResponses } from './schemas.js';
import type { AskInput, Endpoint, Prepared, RagService } from './service.js';

/** 499 (client closed request): nobody reads it, but it marks the log line. */
const CLIENT_CLOSED = new AppError(499, 'CLIENT_CLOSED', 'Client closed the request');

/** Aborts when the client goes away before the response is complete. */
function abortOnClose(reply: FastifyReply): AbortController {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller;
}

/**
 * Limits (docs/rate-limits.md): every answer route is in the `rag` scope; `POST /rag` and
 * `POST /rag/query` share the hourly `ragQuery` budget, `POST /rag/stream` has `ragStream`,
 * and the three share the `ragBurst` window. `POST /conversations/:id/ask` is not `/rag/*`.
 */
const config = { permission: 'canQuery', rateLimitScope: 'rag' } as const;
const askConfig = { ...config, rateLimitExtra: ['ragQuery', 'ragBurst'] } as const;
const streamConfig = { ...config, rateLimitExtra: ['ragStream', 'ragBurst'] } as const;

/** POST /rag (and its contract alias POST /rag/query), POST /rag/stream and POST /conversations/:id/ask (docs/rag.md). */
const routes: FastifyPluginAsyncTypebox<{ service: RagService; heartbeatMs?: number }> = async (app, { service, heartbeatMs = 15_000 }) => {
  async function answerJson(prepared: Prepared, reply: FastifyReply) {
    const controller = abortOnClose(reply);
    try {
      return ok(await service.answer(prepared, { streamed: false, signal: controller.signal }));
    } catch (err) {
      if (err instanceof GenerationAborted) throw CLIENT_CLOSED;
      throw err;
    }
  }

  // The contract names both paths; they are one operation (same body, answer and log endpoint `rag`).
  for (const [url, summary, operationId] of [
    ['/rag', 'Ask a question over the indexed documents and DORA', 'ask'],
    ['/rag/query', 'Ask a question over the indexed documents and DORA (the same operation as POST /rag)', 'askQuery'],
  ] as const) {
    app.post(
      url,
      {
        config: askConfig,
        schema: { operationId, tags: ['rag'], summary, body: AskBody, response: answerResponses },
      },
      async (request, reply) => {
        const startedAt = performance.now();
        const prepared = await service.prepare(requestScope(request), 'rag', request.body, startedAt);
        return answerJson(prepared, reply);
      },
    );
  }

  app.post(
    '/conversations/:id/ask',
    {
      config,
      schema: {
        operationId: 'askInConversation',
        tags: ['rag', 'conversations'],
        summary: 'Ask a question in a conversation',
        params: IdParams,
        body: ConversationAskBody,
        response: answerResponses,
      },
    },
    async (request, reply) => {
      const startedAt = performance.now();
      const input: AskInput = { ...request.body, conversationId: request.params.id };
      const prepared = await service.prepare(requestScope(request), 'conversation', input, startedAt);
      return answerJson(prepared, reply);
    },
  );

  app.post(
    '/rag/stream',
    {
      config: streamConfig,
      schema: {
        operationId: 'askStream',
        tags: ['rag'],
        summary: 'Ask a question; the answer arrives as server-sent events',
        description:
          'Events, in order: status, sources, status, chunk..., metadata, saved, done (or error). Each `data` line is JSON with a `timestamp` (ms since the epoch).',
        body: AskBody,
        response: streamResponses,
      },
    },
    async (request, reply) => {
      const startedAt = performance.now();
      // Everything that can fail before the stream starts answers as a plain JSON error.
      const prepared = await service.prepare(requestScope(request), 'stream' satisfies Endpoint, request.body, startedAt);

      const stream = new PassThrough();
      stream.on('error', () => {}); // a write racing a client disconnect must not crash the process
      const controller = abortOnClose(reply);
      const send = (event: string, data: Record<string, unknown>) => {
        if (stream.writableEnded || stream.destroyed || controller.signal.aborted) return;
        stream.write(`event: ${event}\ndata: ${JSON.stringify({ ...data, timestamp: Date.now() })}\n\n`);
      };
      const heartbeat = setInterval(() => {
        if (!stream.writableEnded && !stream.destroyed) stream.write(': keep-alive\n\n');
      }, heartbeatMs);

      reply
        .code(200)
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        .send(stream as unknown as string); // the typed reply knows the schema, not streams

      service
        .answer(prepared, {
          streamed: true,
          signal: controller.signal,
          hooks: {
            status: (message) => send('status', { message }),
            sources: (sources) => send('sources', { sources }),
            chunk: (text) => send('chunk', { text }),
            metadata: (m) => send('metadata', m),
            saved: (s) => send('saved', s),
          },
        })
        .then(() => send('done', { message: 'Stream finished' }))
        .catch((err: unknown) => {
          if (err instanceof GenerationAborted) return; // nobody is listening any more
          if (isDatabaseUnavailable(err)) {
            const e = databaseUnavailable();
            send('error', { message: e.message, code: e.code });
          } else if (err instanceof AppError) {
            send('error', { message: err.message, code: err.code });
          } else {
            request.log.error({ err }, 'stream failed');
            send('error', { message: 'Internal server error', code: 'INTERNAL_ERROR' });
          }
        })
        .finally(() => {
          clearInterval(heartbeat);
          stream.end();
        });
      return reply;
    },
  );
};

export default routes;
