import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Anthropic Messages API: a real HTTP server on 127.0.0.1 that the real SDK
 * talks to. It answers `POST /v1/messages` plain or streamed (message_start,
 * content_block_start, content_block_delta..., content_block_stop, message_delta,
 * message_stop), and can answer with API errors, an error event in the middle of a
 * stream, delays, or a stream that stalls. Every request is recorded.
 */

export interface FakeReply {
  /** Answer text; streamed in `chunks` when given, else in pieces of a few words. */
  text?: string;
  chunks?: string[];
  stopReason?: 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use';
  /** Non-streamed: answer with a tool_use block (the tool's input) instead of text. */
  toolUse?: { name: string; input: unknown };
  /** HTTP error: status and Anthropic error type (`authentication_error`, `rate_limit_error`, `overloaded_error`...). */
  status?: number;
  errorType?: string;
  errorMessage?: string;
  /** Delay before the response starts, ms. */
  delayMs?: number;
  /** Delay between stream events, ms. */
  chunkDelayMs?: number;
  /** Streamed: send an `error` event after this many text deltas. */
  streamErrorAfter?: number;
  /** Streamed: stop sending (keep the connection open) after this many text deltas. */
  stallAfter?: number;
}

export interface CapturedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    max_tokens: number;
    system?: string;
    stream?: boolean;
    temperature?: number;
    messages: { role: string; content: string | { type: string; text: string }[] }[];
    tools?: { name: string; input_schema: unknown }[];
    tool_choice?: { type: string; name?: string };
  };
}

export interface FakeAnthropic {
  url: string;
  apiKey: string;
  requests: CapturedRequest[];
  /** Requests whose client closed the connection before the reply was complete. */
  abortedRequests: number;
  /** Sets the reply to the next requests (a function sees the request). */
  reply(r: FakeReply | ((req: CapturedRequest) => FakeReply)): void;
  /** Resolves when the next client disconnect happens. */
  nextAbort(): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function splitWords(text: string): string[] {
  const out: string[] = [];
  const parts = text.split(/(?<=\s)/);
  for (let i = 0; i < parts.length; i += 3) out.push(parts.slice(i, i + 3).join(''));
  return out.length ? out : [''];
}

export async function startFakeAnthropic(opts: { apiKey?: string } = {}): Promise<FakeAnthropic> {
  const apiKey = opts.apiKey ?? 'sk-ant-test-key';
  const requests: CapturedRequest[] = [];
  let replyFor: (req: CapturedRequest) => FakeReply = () => ({ text: 'Hello [Source 1].' });
  let aborted = 0;
  let abortWaiters: (() => void)[] = [];
  let counter = 0;

  const sendError = (res: ServerResponse, status: number, type: string, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_fake_${++counter}` });
    res.end(JSON.stringify({ type: 'error', error: { type, message } }));
  };

  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    let completed = false;
    res.on('close', () => {
      if (!completed) {
        aborted += 1;
        const w = abortWaiters;
        abortWaiters = [];
        for (const f of w) f();
      }
    });
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
      completed = true;
      return sendError(res, 404, 'not_found_error', `Unknown path ${req.url}`);
    }
    let body: CapturedRequest['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      completed = true;
      return sendError(res, 400, 'invalid_request_error', 'Body is not JSON');
    }
    const captured: CapturedRequest = { path: req.url, headers: req.headers, body };
    requests.push(captured);
    // The SDK sends the key as `x-api-key` or as a Bearer token, depending on its version.
    const given = req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '');
    if (given !== apiKey) {
      completed = true;
      return sendError(res, 401, 'authentication_error', 'invalid x-api-key');
    }
    if (!req.headers['anthropic-version']) {
      completed = true;
      return sendError(res, 400, 'invalid_request_error', 'anthropic-version header is required');
    }
    if (!body.model || !body.max_tokens || !Array.isArray(body.messages) || body.messages.length === 0) {
      completed = true;
      return sendError(res, 400, 'invalid_request_error', 'model, max_tokens and messages are required');
    }
    const r = replyFor(captured);
    if (r.delayMs) await sleep(r.delayMs);
    if (res.destroyed) return;
    if (r.status) {
      completed = true;
      return sendError(res, r.status, r.errorType ?? 'api_error', r.errorMessage ?? 'fake error');
    }
    const text = r.text ?? (r.chunks ?? []).join('');
    const id = `msg_fake_${++counter}`;
    const inputTokens = Math.ceil(JSON.stringify(body).length / 4);
    const outputTokens = Math.max(1, Math.ceil(text.length / 4));
    const stopReason = r.stopReason ?? 'end_turn';

    if (!body.stream) {
      completed = true;
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${counter}` });
      res.end(
        JSON.stringify({
          id,
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: r.toolUse ? [{ type: 'tool_use', id: `toolu_fake_${counter}`, name: r.toolUse.name, input: r.toolUse.input }] : [{ type: 'text', text }],
          stop_reason: r.toolUse ? 'tool_use' : stopReason,
          stop_sequence: null,
          usage: { input_tokens: inputTokens, output_tokens: outputTokens },
        }),
      );
      return;
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${counter}` });
    const send = async (event: string, data: unknown) => {
      if (res.destroyed) return false;
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      if (r.chunkDelayMs) await sleep(r.chunkDelayMs);
      return !res.destroyed;
    };
    const ok = await send('message_start', {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: 1 },
      },
    });
    if (!ok) return;
    await send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    await send('ping', { type: 'ping' });
    const deltas = r.chunks ?? splitWords(text);
    for (let i = 0; i < deltas.length; i++) {
      if (r.streamErrorAfter !== undefined && i === r.streamErrorAfter) {
        await send('error', { type: 'error', error: { type: r.errorType ?? 'overloaded_error', message: r.errorMessage ?? 'Overloaded' } });
        completed = true;
        res.end();
        return;
      }
      if (r.stallAfter !== undefined && i === r.stallAfter) return; // keep the connection open, send nothing more
      if (!(await send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: deltas[i] } }))) return;
    }
    await send('content_block_stop', { type: 'content_block_stop', index: 0 });
    await send('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } });
    await send('message_stop', { type: 'message_stop' });
    completed = true;
    res.end();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    get abortedRequests() {
      return aborted;
    },
    reply(r) {
      replyFor = typeof r === 'function' ? r : () => r;
    },
    nextAbort() {
      return new Promise((resolve) => abortWaiters.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
