import { Type, type Static } from 'typebox';
import { TEMPLATES } from '../../compliance/questionnaire-template.js';
import { badRequest } from '../../lib/errors.js';
import { ANSWER_TYPES, YES_NO_VALUES, type AnswerValue, type ScoringRule, type StoredQuestion, type StoredSection } from '../../db/schema/questionnaires.js';

/**
 * Custom questions and sections (request schemas and the checks a schema cannot
 * express), their composition with a template's, and the validation of answer values
 * against their question.
 * Rules in docs/questionnaires.md.
 */

export const MAX_QUESTIONS = 200;
export const MAX_SECTIONS = 30;
export const MAX_TEXT_ANSWER = 5000;
export const MAX_COMMENT = 2000;

const ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$';
const ARTICLE_PATTERN = '^Article ([1-9]|[1-3][0-9]|4[0-5])$';
const NonBlank = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });

export const ScoringRuleSchema = Type.Union([
  Type.Object({ kind: Type.Literal('range'), best: Type.Number(), worst: Type.Number() }, { additionalProperties: false }),
  Type.Object(
    {
      kind: Type.Literal('recency'),
      fullWithinDays: Type.Integer({ minimum: 0, maximum: 36500 }),
      zeroAfterDays: Type.Integer({ minimum: 1, maximum: 36500 }),
    },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('validity'), fullFromDays: Type.Integer({ minimum: 1, maximum: 36500 }) }, { additionalProperties: false }),
]);

export const ChoiceOptionSchema = Type.Object(
  {
    value: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    label: NonBlank(500),
    /** Points 0..1; null or absent: not scored. */
    score: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const SectionInputSchema = Type.Object(
  {
    id: Type.String({ pattern: ID_PATTERN, description: 'Section id, unique in the questionnaire' }),
    title: NonBlank(300),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    /** Weight of the section in the total (default 1; 0 = not part of the total). */
    weight: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  },
  { additionalProperties: false },
);
export type SectionInput = Static<typeof SectionInputSchema>;

export const QuestionInputSchema = Type.Object(
  {
    /** Unique in the questionnaire; generated (`Q-1`, `Q-2`...) when absent. */
    id: Type.Optional(Type.String({ pattern: ID_PATTERN })),
    /** Section id (one of `sections` or of the template); default `custom`. */
    sectionId: Type.Optional(Type.String({ pattern: ID_PATTERN })),
    text: NonBlank(2000),
    help: Type.Optional(Type.String({ maxLength: 2000 })),
    type: Type.Enum([...ANSWER_TYPES]),
    required: Type.Optional(Type.Boolean()),
    /** Weight inside the section (default 1, text questions 0; text questions cannot be scored). */
    weight: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    articles: Type.Optional(Type.Array(Type.String({ pattern: ARTICLE_PATTERN, description: '`Article <n>`, 1-45' }), { maxItems: 20, uniqueItems: true })),
    references: Type.Optional(Type.Array(NonBlank(100), { maxItems: 20 })),
    allowPartial: Type.Optional(Type.Boolean()),
    allowNa: Type.Optional(Type.Boolean()),
    options: Type.Optional(Type.Array(ChoiceOptionSchema, { minItems: 2, maxItems: 50 })),
    multiple: Type.Optional(Type.Boolean()),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    unit: Type.Optional(Type.String({ maxLength: 30 })),
    scoring: Type.Optional(ScoringRuleSchema),
  },
  { additionalProperties: false },
);
export type QuestionInput = Static<typeof QuestionInputSchema>;

export const DEFAULT_SECTION: StoredSection = { id: 'custom', title: 'Additional questions', weight: 1, articles: [] };

/**
 * Turns custom questions into stored ones, appended to `base` (template questions).
 * Returns problems as `<field>: <problem>` strings (empty when valid).
 */
export function buildQuestions(
  base: { sections: StoredSection[]; questions: StoredQuestion[] },
  sectionInputs: SectionInput[] | undefined,
  questionInputs: QuestionInput[] | undefined,
): { sections: StoredSection[]; questions: StoredQuestion[]; problems: string[] } {
  const problems: string[] = [];
  const sections = [...base.sections];
  const sectionIds = new Set(sections.map((s) => s.id));
  (sectionInputs ?? []).forEach((s, i) => {
    if (sectionIds.has(s.id)) problems.push(`sections.${i}.id: duplicate section id ${s.id}`);
    sectionIds.add(s.id);
    sections.push({ id: s.id, title: s.title.trim(), ...(s.description ? { description: s.description } : {}), weight: s.weight ?? 1, articles: [] });
  });
  const questions = [...base.questions];
  const questionIds = new Set(questions.map((q) => q.id));
  let counter = 0;
  const nextId = () => {
    do counter += 1;
    while (questionIds.has(`Q-${counter}`));
    return `Q-${counter}`;
  };
  const given = new Set((questionInputs ?? []).map((q) => q.id).filter(Boolean));
  (questionInputs ?? []).forEach((q, i) => {
    const at = `questions.${i}`;
    let id = q.id;
    if (id === undefined) {
      do id = nextId();
      while (given.has(id));
    } else if (questionIds.has(id)) problems.push(`${at}.id: duplicate question id ${id}`);
    questionIds.add(id);
    const sectionId = q.sectionId ?? DEFAULT_SECTION.id;
    if (!sectionIds.has(sectionId)) {
      if (q.sectionId === undefined) {
        sections.push({ ...DEFAULT_SECTION });
        sectionIds.add(DEFAULT_SECTION.id);
      } else problems.push(`${at}.sectionId: unknown section ${sectionId}`);
    }
    const weight = q.weight ?? (q.type === 'text' ? 0 : 1);
    const stored: StoredQuestion = {
      id,
      sectionId,
      text: q.text.trim(),
      ...(q.help ? { help: q.help } : {}),
      type: q.type,
      required: q.required ?? true,
      weight,
      articles: q.articles ?? [],
      references: q.references ?? [],
    };
    if (q.type === 'text' && weight > 0) problems.push(`${at}.weight: text questions are not scored (weight must be 0)`);
    if (q.type === 'yes_no') {
      stored.allowPartial = q.allowPartial ?? true;
      stored.allowNa = q.allowNa ?? true;
    } else if (q.allowPartial !== undefined || q.allowNa !== undefined) problems.push(`${at}: allowPartial and allowNa apply to yes_no questions only`);
    if (q.type === 'choice') {
      if (!q.options) problems.push(`${at}.options: choice questions need at least 2 options`);
      else {
        const values = new Set<string>();
        q.options.forEach((o, j) => {
          if (values.has(o.value)) problems.push(`${at}.options.${j}.value: duplicate option ${o.value}`);
          values.add(o.value);
        });
        stored.options = q.options.map((o) => ({ value: o.value, label: o.label.trim(), score: o.score ?? null }));
        if (weight > 0 && stored.options.every((o) => o.score === null))
          problems.push(`${at}.options: a scored choice question needs at least one option with a score`);
      }
      stored.multiple = q.multiple ?? false;
    } else if (q.options !== undefined || q.multiple !== undefined) problems.push(`${at}: options and multiple apply to choice questions only`);
    if (q.type === 'number') {
      if (q.min !== undefined) stored.min = q.min;
      if (q.max !== undefined) stored.max = q.max;
      if (q.unit) stored.unit = q.unit;
      if (q.min !== undefined && q.max !== undefined && q.min > q.max) problems.push(`${at}.max: must not be below min`);
    } else if (q.min !== undefined || q.max !== undefined || q.unit !== undefined) problems.push(`${at}: min, max and unit apply to number questions only`);
    if (q.scoring) {
      const rule: ScoringRule = q.scoring;
      if (rule.kind === 'range' && q.type !== 'number') problems.push(`${at}.scoring: a range rule applies to number questions only`);
      if ((rule.kind === 'recency' || rule.kind === 'validity') && q.type !== 'date')
        problems.push(`${at}.scoring: a ${rule.kind} rule applies to date questions only`);
      if (rule.kind === 'range' && rule.best === rule.worst) problems.push(`${at}.scoring: best and worst must differ`);
      if (rule.kind === 'recency' && rule.zeroAfterDays <= rule.fullWithinDays) problems.push(`${at}.scoring: zeroAfterDays must be above fullWithinDays`);
      stored.scoring = rule;
    } else if ((q.type === 'number' || q.type === 'date') && weight > 0) {
      problems.push(`${at}.scoring: a scored ${q.type} question needs a scoring rule (or weight 0)`);
    }
    questions.push(stored);
  });
  if (questions.length === 0) problems.push('questions: at least one question is required (or a template)');
  if (questions.length > MAX_QUESTIONS) problems.push(`questions: at most ${MAX_QUESTIONS} questions`);
  if (sections.length > MAX_SECTIONS) problems.push(`sections: at most ${MAX_SECTIONS} sections`);
  // Sections without questions are dropped; article lists follow the questions.
  const used = new Set(questions.map((q) => q.sectionId));
  const outSections = sections
    .filter((s) => used.has(s.id))
    .map((s) => (s.articles.length ? s : { ...s, articles: [...new Set(questions.filter((q) => q.sectionId === s.id).flatMap((q) => q.articles))] }));
  return { sections: outSections, questions, problems };
}

/** Questions of a template (optionally a subset of its sections) plus custom ones; 400 listing every problem. */
export function composeQuestions(input: { template?: string; templateSections?: string[]; sections?: SectionInput[]; questions?: QuestionInput[] }) {
  const problems: string[] = [];
  let base: { sections: StoredSection[]; questions: StoredQuestion[] } = { sections: [], questions: [] };
  const template = input.template ? TEMPLATES[input.template] : undefined;
  if (input.template && !template) problems.push(`template: unknown template ${input.template} (one of: ${Object.keys(TEMPLATES).join(', ')})`);
  if (template) {
    let sections = template.sections;
    if (input.templateSections) {
      const known = new Set(template.sections.map((s) => s.id));
      input.templateSections.forEach((id, i) => {
        if (!known.has(id)) problems.push(`templateSections.${i}: unknown section ${id} (one of: ${[...known].join(', ')})`);
      });
      sections = template.sections.filter((s) => input.templateSections!.includes(s.id));
    }
    const ids = new Set(sections.map((s) => s.id));
    base = { sections, questions: template.questions.filter((q) => ids.has(q.sectionId)) };
  } else if (input.templateSections) problems.push('templateSections: needs a template');
  const built = buildQuestions(base, input.sections, input.questions);
  problems.push(...built.problems);
  if (problems.length) throw badRequest(problems.join('; '), problems);
  return { template, sections: built.sections, questions: built.questions };
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
export function isCalendarDate(v: string): boolean {
  const m = DATE_RE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** Allowed `yes_no` values of a question. */
export function yesNoValues(q: StoredQuestion): string[] {
  return YES_NO_VALUES.filter((v) => (v !== 'partial' || q.allowPartial !== false) && (v !== 'na' || q.allowNa !== false));
}

/**
 * Checks one answer value against its question; returns a problem or null. Text is
 * trimmed by the caller. `today` bounds dates scored by recency (not in the future).
 */
export function checkAnswerValue(q: StoredQuestion, value: AnswerValue, today: string): string | null {
  switch (q.type) {
    case 'yes_no': {
      const allowed = yesNoValues(q);
      return typeof value === 'string' && allowed.includes(value) ? null : `must be one of: ${allowed.join(', ')}`;
    }
    case 'text':
      if (typeof value !== 'string') return 'must be a string';
      if (!value.trim()) return 'must not be blank (send null to clear an answer)';
      return value.length > MAX_TEXT_ANSWER ? `must be at most ${MAX_TEXT_ANSWER} characters` : null;
    case 'date':
      if (typeof value !== 'string' || !isCalendarDate(value)) return 'must be a date (YYYY-MM-DD)';
      if (q.scoring?.kind === 'recency' && value > today) return 'must not be in the future';
      return null;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (q.min !== undefined && value < q.min) return `must be at least ${q.min}`;
      if (q.max !== undefined && value > q.max) return `must be at most ${q.max}`;
      return null;
    case 'choice': {
      const allowed = (q.options ?? []).map((o) => o.value);
      if (q.multiple) {
        if (!Array.isArray(value) || value.length === 0) return `must be a non-empty array of: ${allowed.join(', ')}`;
        if (new Set(value).size !== value.length) return 'must not repeat an option';
        const bad = value.find((v) => !allowed.includes(v));
        return bad === undefined ? null : `${bad} is not one of: ${allowed.join(', ')}`;
      }
      return typeof value === 'string' && allowed.includes(value) ? null : `must be one of: ${allowed.join(', ')}`;
    }
    default:
      return 'unknown question type';
  }
}

/** Normalizes a valid value for storage (text trimmed). */
export function normalizeValue(q: StoredQuestion, value: AnswerValue): AnswerValue {
  return q.type === 'text' && typeof value === 'string' ? value.trim() : value;
}
