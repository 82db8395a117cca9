import { useQuery, useQueryClient } from '@tanstack/react-query';
import { get } from '../api/client';
import type { PageInfo } from '../api/types';
import { useNotificationStream, useStreamEvent } from '../notifications/stream';

/** Shapes of docs/assessments.md. */
export type AssessmentStatus = 'pending' | 'running' | 'completed' | 'failed';
export type RiskRating = 'low' | 'medium' | 'high' | 'critical';
export interface AssessmentDocument {
  id: string;
  filename: string;
  format: string;
  mimeType: string;
  sizeBytes: number;
  pageCount: number;
  title: string | null;
  characters: number;
}
export interface Assessment {
  id: string;
  workspaceId: string;
  name: string;
  framework: string;
  status: AssessmentStatus;
  score: number | null;
  riskRating: RiskRating | null;
  summary: {
    obligations: number;
    covered: number;
    partial: number;
    missing: number;
    documents: number;
    sentences: number;
    missingKey: string[];
    riskReasons: string[];
    embedder: string | null;
    engineScore?: number;
    engineRiskRating?: RiskRating;
    analystVerdicts?: number;
  } | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  signOff: { at: string; userId: string | null; userName: string | null; note: string } | null;
}
export interface Evidence {
  documentId: string;
  filename: string;
  documentTitle: string | null;
  section: string;
  page?: number;
  quote: string;
  truncated: boolean;
  element: string;
  relevance: number;
  role?: 'evidence' | 'limitation' | 'contrary' | 'partial';
}
export interface GapResult {
  obligationId: string;
  article: string;
  ref: string;
  title: string;
  requirement: string;
  doraText: string;
  status: 'covered' | 'partial' | 'missing';
  coverage: number;
  weight: number;
  key: boolean;
  elements: { id: string; label: string; satisfied: boolean; level?: 'met' | 'limited' | 'partial' | 'none'; note?: string }[];
  evidence: Evidence[];
  rationale: string;
  verdictSource?: 'offline' | 'model';
  verdictNote?: string;
  analyst?: {
    status: GapStatus;
    reason: string;
    userId: string | null;
    userName: string | null;
    at: string;
    engineStatus: GapStatus;
    engineCoverage: number;
  } | null;
}
export type GapStatus = GapResult['status'];
/** An entry of the review trail: a verdict set or withdrawn, a comment, the sign-off. */
export interface Review {
  id: string;
  obligationId: string | null;
  kind: 'verdict' | 'clear' | 'comment' | 'sign_off';
  status: string | null;
  previousStatus: string | null;
  text: string;
  userId: string | null;
  userName: string | null;
  at: string;
}
export interface AssessmentDetail extends Assessment {
  documents: AssessmentDocument[];
  results: GapResult[];
  reviews: Review[];
}

export const assessmentsKey = (ws: string) => ['assessments', ws] as const;
const running = (s: AssessmentStatus | undefined) => s === 'pending' || s === 'running';

/** Polling is only the fallback while the notifications stream is down (it pushes every status change). */
const FALLBACK_POLL_MS = 4000;

export function useAssessments(ws: string) {
  const { connected } = useNotificationStream();
  const q = useQuery({
    queryKey: assessmentsKey(ws),
    queryFn: () => get<{ assessments: Assessment[]; pagination: PageInfo }>('/assessments', { workspace: ws, query: { limit: 100, sort: '-createdAt' } }),
    refetchInterval: (query) => (!connected && query.state.data?.assessments.some((a) => running(a.status)) ? FALLBACK_POLL_MS : false),
  });
  useAssessmentEvents(ws);
  return q;
}

export function useAssessment(ws: string, id: string) {
  const { connected } = useNotificationStream();
  const q = useQuery({
    queryKey: [...assessmentsKey(ws), id],
    queryFn: async () => (await get<{ assessment: AssessmentDetail }>(`/assessments/${encodeURIComponent(id)}`, { workspace: ws })).assessment,
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
