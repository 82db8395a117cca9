import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { apiFetch, type RequestOptions } from './client';

export interface SseMessage {
  event: string;
  id?: string;
  data: unknown;
}

/**
 * Reads a server-sent event stream from a fetch Response (used for `POST /rag/stream`, which
 * EventSource cannot send, and for the notifications stream). Resolves when the stream ends;
 * rejects with AbortError when `signal` aborts.
 */
export async function readSse(res: Response, onMessage: (m: SseMessage) => void, signal?: AbortSignal): Promise<void> {
  if (!res.body) return;
  const parser = createParser({
    onEvent(m: EventSourceMessage) {
      let data: unknown = m.data;
      try {
        data = JSON.parse(m.data);
      } catch {
        // not JSON: kept as text
      }
      onMessage({ event: m.event ?? 'message', id: m.id, data });
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const stop = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  if (signal?.aborted) throw new DOMException('Aborted', 'AbortError');
}

/** Opens an SSE endpoint through the API client (CSRF header, refresh-on-401) and reads it to the end. */
export async function streamSse(method: string, path: string, opts: RequestOptions & { onMessage: (m: SseMessage) => void }): Promise<void> {
  const res = await apiFetch(method, path, { ...opts, headers: { Accept: 'text/event-stream', ...opts.headers } });
  await readSse(res, opts.onMessage, opts.signal);
}
