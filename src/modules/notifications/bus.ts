import postgres from 'postgres';
import type { Database } from '../../db/client.js';
import { NOTIFY_CHANNEL, type BusMessage } from './repository.js';
import type { Log } from '../../domain/log.js';

/**
 * The receiving end of the cross-instance fan-out: Postgres `LISTEN` on
 * `dora_notifications`. Every API instance listens; the instance that stores a
 * notification announces it with `pg_notify` in the same transaction, so every
 * instance (itself included) hears of it once it is committed.
 *
 * - PostgreSQL: a dedicated connection (postgres-js `listen` on `database.url`), apart
 *   from the query pool; postgres-js reconnects and listens again after a connection loss.
 * - PGlite: `pglite.listen` (one process, one database).
 *
 * Listening starts on the first `start()` (the first open stream) and stops on `close()`.
 */
export interface NotificationBus {
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createNotificationBus(database: Database, onMessage: (m: BusMessage) => void, log?: Log): NotificationBus {
  let starting: Promise<void> | null = null;
  let stop: (() => Promise<void>) | null = null;
  let closed = false;

  const receive = (raw: string) => {
    let m: BusMessage;
    try {
      m = JSON.parse(raw) as BusMessage;
    } catch {
      log?.warn({ raw: raw.slice(0, 200) }, 'notifications: unreadable NOTIFY payload');
      return;
    }
    if (m && typeof m === 'object' && (('u' in m && typeof m.u === 'string') || ('w' in m && typeof m.w === 'string'))) onMessage(m);
  };

  async function listen(): Promise<() => Promise<void>> {
    if (database.kind === 'postgres') {
      if (!database.url) throw new Error('notifications: the PostgreSQL connection string is needed to LISTEN');
      const conn = postgres(database.url, { max: 1, onnotice: () => {} });
      try {
        const meta = await conn.listen(NOTIFY_CHANNEL, receive);
        return async () => {
          await meta.unlisten().catch(() => {});
          await conn.end({ timeout: 2 });
        };
      } catch (err) {
        await conn.end({ timeout: 1 }).catch(() => {});
        throw err;
      }
    }
    if (!database.pglite) throw new Error('notifications: PGlite instance missing');
    const pglite = database.pglite;
    const unsubscribe = await pglite.listen(NOTIFY_CHANNEL, receive);
    return async () => {
      if (!pglite.closed) await unsubscribe().catch(() => {});
    };
  }

  return {
    start() {
      if (closed) return Promise.reject(new Error('notifications: the bus is closed'));
      starting ??= listen().then(
        async (s) => {
          // close() may have run while LISTEN was being set up.
          if (closed) await s();
          else stop = s;
        },
        (err) => {
          starting = null; // the next stream tries again
          throw err;
        },
      );
      return starting;
    },
    async close() {
      closed = true;
      if (starting) await starting.catch(() => {});
      const s = stop;
      stop = null;
      if (s) await s();
    },
  };
}
