import t from 'tap';
import { DORA_TEMPLATE } from '../../src/compliance/questionnaire-template.js';
import { readDoraArticles } from '../../src/compliance/dora.js';
import { redactUrl } from '../../src/lib/redact.js';
import { buildQuestions } from '../../src/modules/questionnaires/questions.js';
import { scoreQuestionnaire } from '../../src/modules/questionnaires/scoring.js';

t.test('the DORA template is consistent', async (t) => {
  const ids = DORA_TEMPLATE.questions.map((q) => q.id);
  t.equal(new Set(ids).size, ids.length, 'unique question ids');
  const sections = new Set(DORA_TEMPLATE.sections.map((s) => s.id));
  const known = new Set(readDoraArticles().map((a) => a.article));
  for (const q of DORA_TEMPLATE.questions) {
    t.ok(sections.has(q.sectionId), `${q.id}: section exists`);
    t.ok(q.articles.length > 0 && q.articles.every((a) => known.has(a)), `${q.id}: maps to DORA articles`);
    t.ok(
      q.references.every((r) => /^Art\. \d+(\(\d+\))?(\([a-z]+\))*(\([ivx]+\))?$/.test(r)),
      `${q.id}: references like Art. 30(2)(a)`,
    );
    if ((q.type === 'number' || q.type === 'date') && q.weight > 0) t.ok(q.scoring, `${q.id}: scored ${q.type} has a rule`);
    if (q.type === 'text') t.equal(q.weight, 0, `${q.id}: text is not scored`);
  }
  // Every key contractual provision of Art. 30(2) (a)-(i) and 30(3) (a)-(f) is asked.
  const refs = new Set(DORA_TEMPLATE.questions.flatMap((q) => q.references.flatMap((r) => [r, r.replace(/(\([a-z]\))\([ivx]+\)$/, '$1')])));
  for (const p of 'abcdefghi') t.ok(refs.has(`Art. 30(2)(${p})`), `Art. 30(2)(${p}) covered`);
  for (const p of 'abcdef') t.ok(refs.has(`Art. 30(3)(${p})`), `Art. 30(3)(${p}) covered`);
  const articleNumbers = new Set(DORA_TEMPLATE.questions.flatMap((q) => q.articles.map((a) => Number(a.slice(8)))));
  for (const n of [5, 6, 8, 9, 10, 11, 12, 13, 14, 17, 18, 19, 24, 25, 26, 27, 28, 29, 30, 45]) t.ok(articleNumbers.has(n), `Article ${n} covered`);
  // A custom build of the template itself is valid.
  t.same(buildQuestions(DORA_TEMPLATE, undefined, undefined).problems, []);
});

t.test('scoring: all best answers give 100, nothing answered gives 0', async (t) => {
  const best = new Map<string, { value: string | number }>();
  for (const q of DORA_TEMPLATE.questions) {
    if (q.type === 'yes_no') best.set(q.id, { value: 'yes' });
    if (q.type === 'number' && q.scoring?.kind === 'range') best.set(q.id, { value: q.scoring.best });
    if (q.type === 'date') best.set(q.id, { value: q.scoring?.kind === 'validity' ? '2099-01-01' : '2026-01-01' });
    if (q.type === 'choice') best.set(q.id, { value: 'performed' });
  }
  const all = scoreQuestionnaire(DORA_TEMPLATE.sections, DORA_TEMPLATE.questions, best, '2026-06-01');
  t.equal(all.total, 100);
  t.ok(all.sections.filter((s) => s.weight > 0).every((s) => s.score === 100));
  const none = scoreQuestionnaire(DORA_TEMPLATE.sections, DORA_TEMPLATE.questions, new Map(), '2026-06-01');
  t.equal(none.total, 0, 'unanswered required questions count as 0');
  t.equal(none.sections.find((s) => s.sectionId === 'general')!.score, null, 'informational section not scored');
  // Recency: 1 up to 365 days, 0 from 730, linear between (TST-02).
  const tst02 = DORA_TEMPLATE.questions.find((q) => q.id === 'TST-02')!;
  const at = (date: string) =>
    scoreQuestionnaire([{ id: 'testing', title: 't', weight: 1, articles: [] }], [tst02], new Map([['TST-02', { value: date }]]), '2026-06-01').total;
  t.equal(at('2025-06-01'), 100);
  t.equal(at('2024-12-01'), 50.1, '547 days old: (730 - 547) / 365 = 50.14');
  t.equal(at('2024-06-01'), 0);
});

t.test('vendor links are redacted from logged URLs', async (t) => {
  t.equal(redactUrl('/api/v1/vendor-questionnaires/abcDEF123_-x/answers'), '/api/v1/vendor-questionnaires/[redacted]/answers');
  t.equal(redactUrl('/api/v1/vendor-questionnaires/abc?x=1'), '/api/v1/vendor-questionnaires/[redacted]?x=1');
  t.equal(redactUrl('/vendor-questionnaire?token=secret&a=b'), '/vendor-questionnaire?token=[redacted]&a=b');
  t.equal(redactUrl('/api/v1/questionnaires/123'), '/api/v1/questionnaires/123');
});
