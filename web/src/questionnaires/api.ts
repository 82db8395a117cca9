import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import type { PageInfo } from '../api/types';

/** Shapes of docs/questionnaires.md. */
export type QStatus = 'draft' | 'sent' | 'in_progress' | 'submitted' | 'complete';
export type AnswerValue = string | number | string[];
export type AnswerType = 'yes_no' | 'text' | 'number' | 'date' | 'choice';
export interface Progress {
  questions: number;
  answered: number;
  required: number;
  requiredAnswered: number;
}
export interface QuestionnaireSummary {
  id: string;
  title: string;
  status: QStatus;
  template: { id: string; version: string } | null;
  vendorContact: { email: string; name: string | null } | null;
  dueDate: string | null;
  score: number | null;
  progress: Progress;
  sentAt: string | null;
  submittedAt: string | null;
  completedAt: string | null;
  createdAt: string;
}
export interface Citation {
  sourceId: string;
  documentId: string;
  title: string;
  section: string;
  url: string;
  passage: string;
  score: number;
}
export interface PublicQuestion {
  id: string;
  sectionId: string;
  text: string;
  help: string | null;
  type: AnswerType;
  required: boolean;
  articles: string[];
  references: string[];
  allowPartial?: boolean;
  allowNa?: boolean;
  multiple?: boolean;
  min?: number | null;
  max?: number | null;
  unit?: string | null;
  options?: { value: string; label: string; score?: number | null }[];
  answer: { value: AnswerValue | null; comment: string | null; answeredAt: string | null } | null;
}
export interface AnalystQuestion extends PublicQuestion {
  weight: number;
  suggestion: { value: AnswerValue | null; rationale: string; citations: Citation[]; createdAt: string } | null;
  review: { overrideValue: AnswerValue | null; overrideScore: number | null; note: string | null } | null;
  points: number | null;
  basis: 'vendor' | 'override_value' | 'override_score' | 'unanswered' | 'unscored';
  /** The vendor's "yes" that its documents contradict or limit (null: not flagged). */
  claim: ClaimFlag | null;
}
export type ClaimVerdict = 'partly' | 'does_not' | 'not_addressed';
export interface ClaimFlag {
  answer: 'yes';
  verdict: ClaimVerdict;
  obligations: {
    id: string;
    ref: string;
    title: string;
    verdict: ClaimVerdict | 'meets';
    limitations: string[];
    passages: {
      documentId: string;
      document: string;
      section: string;
      quote: string;
      role: 'evidence' | 'limitation' | 'contrary' | 'partial';
      element: string;
    }[];
  }[];
}
export const CLAIM_VERDICT: Record<ClaimVerdict, string> = {
  partly: 'The documents only partly support this',
  does_not: 'The documents do not support this',
  not_addressed: 'The documents do not address this',
};
export interface QuestionnaireDetail extends QuestionnaireSummary {
  description: string | null;
  shareSuggestions: boolean;
  reviewerNotes: string | null;
  claims: { checked: boolean; flagged: number };
  link: {
    active: boolean;
    /** Only in the response of the send that issued it. */
    url: string | null;
    writable: boolean;
    expiresAt: string | null;
    sentAt: string | null;
    sendCount: number;
    firstOpenedAt: string | null;
    lastVendorActivityAt: string | null;
  };
  scoring: {
    method: string;
    final: boolean;
    total: number | null;
    sections: { sectionId: string; title: string; weight: number; score: number | null; answered: number; questions: number }[];
  };
  sections: { id: string; title: string; description?: string; weight: number }[];
  questions: AnalystQuestion[];
}
export interface VendorQuestionnaire {
  title: string;
  description: string | null;
  requester: string | null;
  status: 'open' | 'submitted';
  readOnly: boolean;
  dueDate: string | null;
  expiresAt: string;
  submittedAt: string | null;
  progress: Progress;
  sections: { id: string; title: string; description: string | null }[];
  questions: (PublicQuestion & { suggestion: { value: AnswerValue | null; rationale: string; citations: { title: string; passage: string }[] } | null })[];
}
export interface Template {
  id: string;
  version: string;
  title: string;
  description: string;
  questionCount: number;
  sections: { id: string; title: string; questionCount: number }[];
}

export const questionnairesKey = (ws: string) => ['questionnaires', ws] as const;

export function useQuestionnaires(ws: string) {
  return useQuery({
    queryKey: questionnairesKey(ws),
    queryFn: () =>
      get<{ questionnaires: QuestionnaireSummary[]; pagination: PageInfo }>('/questionnaires', { workspace: ws, query: { limit: 100, sort: '-createdAt' } }),
  });
}
export function useQuestionnaire(ws: string, id: string) {
  return useQuery({
    queryKey: [...questionnairesKey(ws), id],
    queryFn: async () => (await get<{ questionnaire: QuestionnaireDetail }>(`/questionnaires/${encodeURIComponent(id)}`, { workspace: ws })).questionnaire,
  });
}
export function useTemplates() {
  return useQuery({
    queryKey: ['questionnaire-templates'],
    staleTime: Infinity,
    queryFn: async () => (await get<{ templates: Template[] }>('/questionnaire-templates')).templates,
  });
}

export const STATUS_LABEL: Record<QStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  in_progress: 'Vendor answering',
  submitted: 'Submitted: to review',
  complete: 'Complete',
};

/** An answer value in words ("Yes", "Partially", "ISO 27001, SOC 2"). */
export function answerText(q: Pick<PublicQuestion, 'type' | 'options' | 'unit'>, v: AnswerValue | null | undefined): string {
  if (v === null || v === undefined || v === '') return '—';
  if (q.type === 'yes_no') return ({ yes: 'Yes', no: 'No', partial: 'Partially', na: 'Not applicable' } as Record<string, string>)[String(v)] ?? String(v);
  if (q.type === 'choice') {
    const label = (x: string) => q.options?.find((o) => o.value === x)?.label ?? x;
    return Array.isArray(v) ? v.map(label).join(', ') : label(String(v));
  }
  if (q.type === 'number') return `${v}${q.unit ? ` ${q.unit}` : ''}`;
  return Array.isArray(v) ? v.join(', ') : String(v);
}
