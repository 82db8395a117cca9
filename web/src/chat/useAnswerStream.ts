import { useCallback, useRef, useState } from 'react';
import { ApiError, messageOf } from '../api/client';
import { streamSse } from '../api/sse';
import type { ApiBody, CitedSource, Source, Validation } from '../api/types';

/** The filters of an answer's retrieval (the `filters` of `POST /rag/stream`'s body). */
export type Filters = NonNullable<ApiBody<'askStream'>['filters']>;

/** The answer being streamed (or just streamed) from `POST /rag/stream`. */
export interface LiveAnswer {
  question: string;
  status: string;
  text: string;
  sources: Source[];
  citedSources: CitedSource[];
  validation: Validation | null;
  totalTime: number | null;
  state: 'streaming' | 'done' | 'stopped' | 'error';
  error?: string;
  conversationId?: string;
  messageId?: string;
}

/**
 * Streams an answer: events `status`, `sources`, `chunk`..., `metadata`, `saved`, `done` or
 * `error` (docs/rag.md). `stop()` aborts the request, which makes the service stop generating
 * and store nothing.
 */
export function useAnswerStream(ws: string, onSaved: (conversationId: string, answer: LiveAnswer) => void) {
  const [answer, setAnswer] = useState<LiveAnswer | null>(null);
  const controller = useRef<AbortController | null>(null);

  const ask = useCallback(
    async (question: string, conversationId: string | undefined, filters: Filters | undefined) => {
      controller.current?.abort();
      const ctl = new AbortController();
      controller.current = ctl;
      // The conversation it belongs to: the one asked in, or the new one named by `saved`.
      let current: LiveAnswer = {
        question,
        status: 'Sending the question',
        text: '',
        sources: [],
        citedSources: [],
        validation: null,
        totalTime: null,
        state: 'streaming',
        conversationId,
      };
      const set = (patch: Partial<LiveAnswer>) => {
        current = { ...current, ...patch };
        setAnswer(current);
      };
      set({});
      try {
        await streamSse('POST', '/rag/stream', {
          workspace: ws,
          signal: ctl.signal,
          body: { question, ...(conversationId ? { conversationId } : {}), ...(filters && (filters.section || filters.dateRange) ? { filters } : {}) },
          onMessage: (m) => {
            const d = (m.data ?? {}) as Record<string, unknown>;
            switch (m.event) {
              case 'status':
                set({ status: String(d.message ?? '') });
                break;
              case 'sources':
                set({ sources: (d.sources as Source[]) ?? [] });
                break;
              case 'chunk':
                set({ text: current.text + String(d.text ?? '') });
                break;
              case 'metadata':
                set({
                  citedSources: (d.citedSources as CitedSource[]) ?? [],
                  validation: (d.validation as Validation) ?? null,
                  totalTime: typeof d.totalTime === 'number' ? d.totalTime : null,
                });
                break;
              case 'saved':
                set({ conversationId: String(d.conversationId), messageId: d.messageId ? String(d.messageId) : undefined });
                break;
              case 'done':
                set({ state: 'done', status: '' });
                break;
              case 'error':
                set({ state: 'error', error: String(d.message ?? 'The answer failed'), status: '' });
                break;
            }
          },
        });
        if (current.state === 'streaming') set({ state: 'error', error: 'The answer stream ended early; please ask again.', status: '' });
      } catch (err) {
        if ((err as Error).name === 'AbortError') set({ state: 'stopped', status: '' });
        else set({ state: 'error', error: err instanceof ApiError ? err.message : messageOf(err), status: '' });
      } finally {
        if (controller.current === ctl) controller.current = null;
      }
      if (current.state === 'done' && current.conversationId) onSaved(current.conversationId, current);
    },
    [ws, onSaved],
  );

  const stop = useCallback(() => controller.current?.abort(), []);
  const clear = useCallback(() => {
    controller.current?.abort();
    setAnswer(null);
  }, []);
  return { answer, ask, stop, clear, streaming: answer?.state === 'streaming' };
}
