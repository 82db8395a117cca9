import { PassThrough } from 'node:stream';
import type { NotificationsService, StreamEvent, Subscription } from './service.js';

/** One server-sent event: `event`, optional `id`, one `data` line of JSON. */
export function sseFrame(e: StreamEvent): string {
  const id = e.event === 'notification:new' ? `id: ${e.id}\n` : '';
  return `event: ${e.event}\n${id}data: ${JSON.stringify(e.payload)}\n\n`;
}

/**
 * The body of GET /notifications/stream for one user: the opening events (replay after
 * `lastEventId`, the count), then live events and heartbeat comments, until the client
 * leaves, the service closes, or the access token expires (`tokenExpiresAt`).
 * `onClose` is where the caller hooks the end of the client's connection.
 */
export async function openStream(
  service: Pick<NotificationsService, 'subscribe' | 'opening'>,
  opts: { userId: string; lastEventId: string | undefined; tokenExpiresAt: number | null | undefined; heartbeatMs: number; onClose(finish: () => void): void },
): Promise<PassThrough> {
  const stream = new PassThrough();
  stream.on('error', () => {}); // a write racing a client disconnect must not crash the process
  // Events that arrive while the opening events are read are held back, then sent after them.
  let pending: StreamEvent[] | null = [];
  let done = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let expiry: NodeJS.Timeout | undefined;
  let subscription: Subscription | undefined;
  const write = (chunk: string) => {
    if (!done && !stream.writableEnded) stream.write(chunk);
  };
  const finish = () => {
    if (done) return;
    done = true;
    clearInterval(heartbeat);
    clearTimeout(expiry);
    subscription?.unsubscribe();
    stream.end();
  };
  subscription = await service.subscribe(opts.userId, {
    onEvent: (e) => (pending ? pending.push(e) : write(sseFrame(e))),
    onClose: finish,
  });
  if (done) subscription.unsubscribe();
  opts.onClose(finish);
  stream.on('close', finish);

  let opening: StreamEvent[];
  try {
    opening = await service.opening(opts.userId, opts.lastEventId);
  } catch (err) {
    finish();
    throw err;
  }
  const sent = new Set(opening.flatMap((e) => (e.event === 'notification:new' ? [e.id] : [])));
  write(`retry: 3000\n: connected\n\n`);
  for (const e of opening) write(sseFrame(e));
  for (const e of pending) if (e.event !== 'notification:new' || !sent.has(e.id)) write(sseFrame(e));
  pending = null;

  heartbeat = setInterval(() => write(`: heartbeat ${Date.now()}\n\n`), opts.heartbeatMs);
  heartbeat.unref();
  // The stream ends when the access token expires; the client reconnects with a fresh one.
  if (opts.tokenExpiresAt) {
    expiry = setTimeout(finish, Math.max(0, opts.tokenExpiresAt - Date.now()));
    expiry.unref();
  }
  if (done) stream.end();
  return stream;
}
