import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import type { ApiData } from '../api/types';

/** Shapes of docs/questionnaires.md, taken from the API's generated types (web/src/api/types.ts). */
export type QuestionnaireSummary = ApiData<'listQuestionnaires'>['questionnaires'][number];
export type QuestionnaireDetail = ApiData<'getQuestionnaire'>['questionnaire'];
export type QStatus = QuestionnaireSummary['status'];
/** A question as the analyst sees it: weight, answer, suggestion with its citations, review, points, claim. */
export type AnalystQuestion = QuestionnaireDetail['questions'][number];
export type AnswerType = AnalystQuestion['type'];
export type AnswerValue = NonNullable<NonNullable<AnalystQuestion['answer']>['value']>;
/** The vendor's "yes" that its documents contradict or limit (null on a question: not flagged). */
export type ClaimFlag = NonNullable<AnalystQuestion['claim']>;
export type ClaimVerdict = ClaimFlag['verdict'];
export const CLAIM_VERDICT: Record<ClaimVerdict, string> = {
  partly: 'The documents only partly support this',
  does_not: 'The documents do not support this',
  not_addressed: 'The documents do not address this',
};
/** The questionnaire the vendor answers through its link (no weights, scores or reviews). */
export type VendorQuestionnaire = ApiData<'getVendorQuestionnaire'>['questionnaire'];
export type VendorQuestion = VendorQuestionnaire['questions'][number];
export type Template = ApiData<'listQuestionnaireTemplates'>['templates'][number];

export const questionnairesKey = (ws: string) => ['questionnaires', ws] as const;

export function useQuestionnaires(ws: string) {
  return useQuery({
    queryKey: questionnairesKey(ws),
    queryFn: () => get<ApiData<'listQuestionnaires'>>('/questionnaires', { workspace: ws, query: { limit: 100, sort: '-createdAt' } }),
  });
}
export function useQuestionnaire(ws: string, id: string) {
  return useQuery({
    queryKey: [...questionnairesKey(ws), id],
    queryFn: async () => (await get<ApiData<'getQuestionnaire'>>(`/questionnaires/${encodeURIComponent(id)}`, { workspace: ws })).questionnaire,
  });
}
export function useTemplates() {
  return useQuery({
    queryKey: ['questionnaire-templates'],
    staleTime: Infinity,
    queryFn: async () => (await get<ApiData<'listQuestionnaireTemplates'>>('/questionnaire-templates')).templates,
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
export function answerText(q: Pick<VendorQuestion, 'type' | 'options' | 'unit'>, v: AnswerValue | null | undefined): string {
  if (v === null || v === undefined || v === '') return '—';
  if (q.type === 'yes_no') return ({ yes: 'Yes', no: 'No', partial: 'Partially', na: 'Not applicable' } as Record<string, string>)[String(v)] ?? String(v);
  if (q.type === 'choice') {
    const label = (x: string) => q.options?.find((o) => o.value === x)?.label ?? x;
    return Array.isArray(v) ? v.map(label).join(', ') : label(String(v));
  }
  if (q.type === 'number') return `${v}${q.unit ? ` ${q.unit}` : ''}`;
  return Array.isArray(v) ? v.join(', ') : String(v);
}
