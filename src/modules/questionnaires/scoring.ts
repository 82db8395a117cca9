import type { AnswerValue, SectionScore, StoredQuestion, StoredSection } from '../../db/schema/questionnaires.js';

/**
 * Scoring method `weighted-v1` (docs/questionnaires.md).
 *
 * 1. Points of a question, 0..1 or null (not scored):
 *    - a reviewer's `overrideScore` wins;
 *    - else the reviewer's `overrideValue`, else the vendor's value, is scored by type:
 *      yes_no: yes 1, partial 0.5, no 0, na null; choice: the option's score (several
 *      options: the best one); number: the question's `range` rule; date: its
 *      `recency` or `validity` rule (days counted to the scoring date); text: null;
 *    - no answer: 0 when the question is required, else null;
 *    - a question of weight 0 is never scored.
 * 2. Section score = 100 x sum(weight x points) / sum(weight), over the questions whose
 *    points are not null; null when there are none.
 * 3. Total = sum(sectionWeight x sectionScore) / sum(sectionWeight), over the sections
 *    whose score is not null and whose weight is above 0; null when there are none.
 * Section scores and the total are rounded to one decimal at the end (the total is
 * computed from the unrounded section scores).
 */
export const SCORING_METHOD = 'weighted-v1';

export interface ScoredAnswer {
  value?: AnswerValue | null;
  overrideValue?: AnswerValue | null;
  overrideScore?: number | null;
}

export interface QuestionResult {
  questionId: string;
  sectionId: string;
  weight: number;
  /** 0..1, null when not scored. */
  points: number | null;
  /** `vendor`, `override_value`, `override_score`, `unanswered`, `unscored`. */
  basis: 'vendor' | 'override_value' | 'override_score' | 'unanswered' | 'unscored';
}

export interface ScoreResult {
  method: string;
  total: number | null;
  sections: SectionScore[];
  questions: QuestionResult[];
  /** Date (YYYY-MM-DD) date answers were scored against. */
  scoredAt: string;
}

const DAY = 86_400_000;
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
/** Rounds half away from zero to one decimal. */
export const round1 = (x: number) => (Math.sign(x) * Math.round(Math.abs(x) * 10 + 1e-9)) / 10;

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
}

/** Points of one value for a question (no override handling); null = not scored. */
export function valuePoints(q: StoredQuestion, value: AnswerValue, scoringDate: string): number | null {
  switch (q.type) {
    case 'yes_no':
      return value === 'yes' ? 1 : value === 'partial' ? 0.5 : value === 'no' ? 0 : null;
    case 'choice': {
      const chosen = Array.isArray(value) ? value : [value];
      const scores = chosen.map((v) => q.options?.find((o) => o.value === v)?.score ?? null).filter((s): s is number => s !== null);
      return scores.length ? Math.max(...scores) : null;
    }
    case 'number': {
      const rule = q.scoring;
      if (typeof value !== 'number' || rule?.kind !== 'range' || rule.best === rule.worst) return null;
      return clamp01((value - rule.worst) / (rule.best - rule.worst));
    }
    case 'date': {
      const rule = q.scoring;
      if (typeof value !== 'string' || !rule) return null;
      if (rule.kind === 'recency') {
        const age = daysBetween(value, scoringDate);
        if (age < 0) return 0;
        if (age <= rule.fullWithinDays) return 1;
        if (age >= rule.zeroAfterDays) return 0;
        return (rule.zeroAfterDays - age) / (rule.zeroAfterDays - rule.fullWithinDays);
      }
      if (rule.kind === 'validity') {
        const left = daysBetween(scoringDate, value);
        if (left <= 0) return 0;
        return clamp01(left / rule.fullFromDays);
      }
      return null;
    }
    default:
      return null;
  }
}

export function questionResult(q: StoredQuestion, a: ScoredAnswer | undefined, scoringDate: string): QuestionResult {
  const base = { questionId: q.id, sectionId: q.sectionId, weight: q.weight };
  if (!(q.weight > 0)) return { ...base, points: null, basis: 'unscored' };
  if (a?.overrideScore !== null && a?.overrideScore !== undefined) return { ...base, points: clamp01(a.overrideScore), basis: 'override_score' };
  const override = a?.overrideValue ?? null;
  const value = override ?? a?.value ?? null;
  if (value === null || (Array.isArray(value) && value.length === 0)) {
    return { ...base, points: q.required ? 0 : null, basis: 'unanswered' };
  }
  return { ...base, points: valuePoints(q, value, scoringDate), basis: override !== null ? 'override_value' : 'vendor' };
}

/** Scores a questionnaire (method above). `answers` is keyed by question id. */
export function scoreQuestionnaire(
  sections: StoredSection[],
  questions: StoredQuestion[],
  answers: Map<string, ScoredAnswer & { hasAnswer?: boolean }>,
  scoringDate: string,
): ScoreResult {
  const results = questions.map((q) => questionResult(q, answers.get(q.id), scoringDate));
  let totalNum = 0;
  let totalDen = 0;
  const sectionScores: SectionScore[] = sections.map((s) => {
    const qs = questions.filter((q) => q.sectionId === s.id);
    const rs = results.filter((r) => r.sectionId === s.id);
    let num = 0;
    let den = 0;
    for (const r of rs) {
      if (r.points === null) continue;
      num += r.weight * r.points;
      den += r.weight;
    }
    const exact = den > 0 ? (100 * num) / den : null;
    if (exact !== null && s.weight > 0) {
      totalNum += s.weight * exact;
      totalDen += s.weight;
    }
    const answered = qs.filter((q) => {
      const a = answers.get(q.id);
      const v = a?.overrideValue ?? a?.value;
      return (v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)) || (a?.overrideScore !== null && a?.overrideScore !== undefined);
    }).length;
    return {
      sectionId: s.id,
      title: s.title,
      weight: s.weight,
      score: exact === null ? null : round1(exact),
      answered,
      questions: qs.length,
      scoredQuestions: rs.filter((r) => r.points !== null).length,
    };
  });
  return {
    method: SCORING_METHOD,
    total: totalDen > 0 ? round1(totalNum / totalDen) : null,
    sections: sectionScores,
    questions: results,
    scoredAt: scoringDate,
  };
}
