import { useQuery, useQueryClient } from '@tanstack/react-query';
import { get } from '../api/client';
import type { ApiData } from '../api/types';
import { useNotificationStream, useStreamEvent } from '../notifications/stream';

/** Shapes of docs/assessments.md. */
export type AssessmentDetail = ApiData<'getAssessment'>['assessment'];
export type Assessment = ApiData<'listAssessments'>['assessments'][number];
export type AssessmentStatus = Assessment['status'];
export type RiskRating = NonNullable<Assessment['riskRating']>;
export type AssessmentDocument = AssessmentDetail['documents'][number];
export type GapResult = AssessmentDetail['results'][number];
export type Evidence = GapResult['evidence'][number];
export type GapStatus = GapResult['status'];
export type Review = AssessmentDetail['reviews'][number];

export const assessmentsKey = (ws: string) => ['assessments', ws] as const;
const running = (s: AssessmentStatus | undefined) => s === 'pending' || s === 'running';

/** Polling is only the fallback while the notifications stream is down (it pushes every status change). */
const FALLBACK_POLL_MS = 4000;

export function useAssessments(ws: string) {
  const { connected } = useNotificationStream();
  const q = useQuery({
    queryKey: assessmentsKey(ws),
    queryFn: () => get<ApiData<'listAssessments'>>('/assessments', { workspace: ws, query: { limit: 100, sort: '-createdAt' } }),
    refetchInterval: (query) => (!connected && query.state.data?.assessments.some((a) => running(a.status)) ? FALLBACK_POLL_MS : false),
  });
  useAssessmentEvents(ws);
  return q;
}

export function useAssessment(ws: string, id: string) {
  const { connected } = useNotificationStream();
  const q = useQuery({
    queryKey: [...assessmentsKey(ws), id],
    queryFn: async () => (await get<ApiData<'getAssessment'>>(`/assessments/${encodeURIComponent(id)}`, { workspace: ws })).assessment,
    refetchInterval: (query) => (!connected && running(query.state.data?.status) ? FALLBACK_POLL_MS : false),
  });
  useAssessmentEvents(ws);
  return q;
}

/**
 * `assessment:status` events (every status change of an assessment of a workspace the user
 * can see, docs/notifications.md) re-read the vendor's assessments at once; so does a
 * reconnect of the stream, since events are not replayed.
 */
function useAssessmentEvents(ws: string) {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: assessmentsKey(ws) });
  useStreamEvent('assessment:status', refresh);
  useStreamEvent('stream:reconnecting', refresh);
}
