import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { streamSse, type SseMessage } from '../api/sse';

type Handler = (data: Record<string, unknown>, m: SseMessage) => void;
interface StreamApi {
  /** Subscribes to one event name of the stream; returns the unsubscribe function. */
  on(event: string, fn: Handler): () => void;
  /** Whether the stream is open now (false while reconnecting). */
  connected: boolean;
}
const Ctx = createContext<StreamApi>({ on: () => () => {}, connected: false });

/**
 * One push channel per signed-in tab: `GET /notifications/stream` (docs/notifications.md),
 * read with fetch so that a 401 refreshes the session before reconnecting. Reconnects with
 * `Last-Event-ID` and a growing delay; the server ends it when the access token expires.
 * Components subscribe with `useStreamEvent('notification:new', fn)`.
 */
export function NotificationStreamProvider({ children }: { children: ReactNode }) {
  const handlers = useRef(new Map<string, Set<Handler>>());
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    let lastId: string | undefined;
    let delay = 1000;
    const dispatch = (m: SseMessage) => {
      if (m.id) lastId = m.id;
      const data = (m.data && typeof m.data === 'object' ? m.data : {}) as Record<string, unknown>;
      handlers.current.get(m.event)?.forEach((fn) => fn(data, m));
      handlers.current.get('*')?.forEach((fn) => fn(data, m));
    };
    (async () => {
      while (!controller.signal.aborted) {
        try {
          await streamSse('GET', '/notifications/stream', {
            signal: controller.signal,
            headers: lastId ? { 'Last-Event-ID': lastId } : {},
            onMessage: (m) => {
              if (m.event === 'notification:count') {
                setConnected(true);
                delay = 1000;
              }
              dispatch(m);
            },
          });
        } catch (err) {
          if (controller.signal.aborted) return;
          // Signed out (refresh refused): the app shows sign-in; stop here.
          if (err instanceof ApiError && err.status === 401) return;
        }
        setConnected(false);
        dispatch({ event: 'stream:reconnecting', data: {} });
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 30_000);
      }
    })();
    return () => controller.abort();
  }, []);

  const api = useMemo<StreamApi>(
    () => ({
      connected,
      on(event, fn) {
        const set = handlers.current.get(event) ?? new Set();
        set.add(fn);
        handlers.current.set(event, set);
        return () => set.delete(fn);
      },
    }),
    [connected],
  );
  return <Ctx.Provider value={api}>{children}</Ctx.Provider>;
}

export const useNotificationStream = () => useContext(Ctx);

/** Calls `fn` for every `event` on the stream while the component is mounted. */
export function useStreamEvent(event: string, fn: Handler) {
  const { on } = useNotificationStream();
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => on(event, (d, m) => ref.current(d, m)), [on, event]);
}
