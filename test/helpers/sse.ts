import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseEvent {
  event: string;
  id?: string;
  data: unknown;
  /** Date.now() when the client parsed it. */
  receivedAt: number;
}

export interface SseClient {
  status: number;
  headers: Headers;
  events: SseEvent[];
  comments: string[];
  /** Resolves with the next event named `name` not yet taken (waits up to `timeoutMs`). */
  next(name: string, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * A real SSE client over fetch streaming (an app listening on a port), parsing with
 * eventsource-parser. Events are kept in order; `next` takes them one by one.
 */
export async function connectSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const taken = new Set<SseEvent>();
  const waiters: { name: string; resolve(e: SseEvent): void }[] = [];

  const offer = (e: SseEvent) => {
    const i = waiters.findIndex((w) => w.name === e.event);
    if (i >= 0) {
      taken.add(e);
      waiters.splice(i, 1)[0].resolve(e);
    }
  };
  const parser = createParser({
    onEvent(m: EventSourceMessage) {
      let data: unknown = m.data;
      try {
        data = JSON.parse(m.data);
      } catch {
        // not JSON: kept as text
      }
      const e: SseEvent = { event: m.event ?? 'message', id: m.id, data, receivedAt: Date.now() };
      events.push(e);
      offer(e);
    },
    onComment(c: string) {
      comments.push(c.trim());
    },
  });

  let ended: Promise<void> = Promise.resolve();
  if (res.body && res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    ended = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          parser.feed(value);
        }
      } catch {
        // aborted by close()
      }
    })();
  } else {
    const text = await res.text();
    events.push({ event: 'http-error', data: text ? JSON.parse(text) : null, receivedAt: Date.now() });
  }

  return {
    status: res.status,
    headers: res.headers,
    events,
    comments,
    ended,
    next(name: string, timeoutMs = 5000) {
      const ready = events.find((e) => e.event === name && !taken.has(e));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise<SseEvent>((resolve, reject) => {
        const timer = setTimeout(() => {
          const i = waiters.indexOf(w);
          if (i >= 0) waiters.splice(i, 1);
          reject(new Error(`no ${name} event within ${timeoutMs} ms (got: ${events.map((e) => e.event).join(', ') || 'nothing'})`));
        }, timeoutMs);
        const w = {
          name,
          resolve: (e: SseEvent) => {
            clearTimeout(timer);
            resolve(e);
          },
        };
        waiters.push(w);
      });
    },
    close() {
      controller.abort();
    },
  };
}
