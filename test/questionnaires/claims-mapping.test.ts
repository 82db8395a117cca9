import t from 'tap';
import { DORA_TEMPLATE } from '../../src/compliance/questionnaire-template.js';
import type { GapResult } from '../../src/domain/gap.js';
import { claimFlag, obligationsOf, sameClause } from '../../src/modules/questionnaires/claims.js';
import type { AnswerRow } from '../../src/modules/questionnaires/repository.js';

/** Which obligations a question asks about, and which answers are claims to flag (claims.ts). */

const question = (id: string) => DORA_TEMPLATE.questions.find((q) => q.id === id)!;
const ids = (refs: string[]) => obligationsOf({ references: refs }).map((o) => o.id);

t.test('a question names the obligations of its references', async (t) => {
  t.same(ids(['Art. 30(3)(e)(i)', 'Art. 28(6)']).sort(), ['A28.6', 'A30.3.e'], 'a sub-point reads as its point');
  t.same(ids(['Art. 30(2)(g)']), ['A30.2.g']);
  t.same(ids(['Art. 24', 'Art. 25']), ids(['Art. 24']), 'Articles 24-25 is one obligation');
  t.equal(ids(['Art. 24']).length, 1);
  t.same(ids(['Art. 9']), [], 'an article of several obligations without a point names none');
  t.same(ids(['Art. 45']), [], 'an article without obligation names none');
  const mapped = DORA_TEMPLATE.questions.filter((q) => q.type === 'yes_no' && obligationsOf(q).length);
  t.ok(mapped.length >= 20, `most yes/no questions of the template are checked (${mapped.length})`);
});

const answer = (value: AnswerRow['value']) => ({ value }) as AnswerRow;
const result = (status: GapResult['status'], coverage: number, extra: Partial<GapResult> = {}): GapResult =>
  ({
    obligationId: 'A28.6',
    status,
    coverage,
    elements: [{ id: 'audit-right', label: 'Right to audit', satisfied: false, level: 'limited', note: 'satisfied by something else (e.g. reports) instead' }],
    evidence: [
      {
        documentId: 'd1',
        filename: 'dpa.md',
        documentTitle: 'DPA',
        section: 'Audits',
        quote: 'Customer may audit.',
        truncated: false,
        element: 'audit-right',
        relevance: 1,
      },
      {
        documentId: 'd1',
        filename: 'dpa.md',
        documentTitle: 'DPA',
        section: 'Audits',
        quote: 'Audit rights will be satisfied by these reports.',
        truncated: false,
        element: 'audit-right',
        relevance: 1,
        role: 'limitation',
      },
    ],
    ...extra,
  }) as GapResult;

t.test('only a "yes" the documents do not fully support is flagged', async (t) => {
  const q = question('CIF-06');
  const partly = new Map([['A28.6', result('partial', 0.5)]]);
  const flag = claimFlag(q, answer('yes'), partly);
  t.ok(flag);
  t.equal(flag!.verdict, 'partly');
  t.same(flag!.obligations[0]!.limitations, ['Right to audit: satisfied by something else (e.g. reports) instead']);
  t.equal(flag!.obligations[0]!.passages[0]!.role, 'limitation', 'the limiting clause comes first');
  for (const v of ['no', 'partial', 'na'] as const) t.equal(claimFlag(q, answer(v), partly), null, `"${v}" is not a claim`);
  t.equal(claimFlag(q, undefined, partly), null, 'unanswered');
  t.equal(claimFlag(q, answer('yes'), new Map([['A28.6', result('covered', 1, { elements: [] })]])), null, 'met in full: not flagged');
  t.equal(claimFlag(q, answer('yes'), new Map()), null, 'not read: not flagged');
  t.equal(claimFlag(q, answer('yes'), new Map([['A28.6', result('missing', 0)]]))!.verdict, 'not_addressed');
});

t.test('a clause read in two windows is shown once', async (t) => {
  const clause =
    'Should Customer be subject to a regulatory or supervisory authority audit or investigation, then GitHub will promptly respond to Customer’s additional instructions and requests for information, in accordance with the following terms';
  const window =
    'be subject to a regulatory or supervisory authority audit or investigation, then GitHub will promptly respond to Customer’s additional instructions and requests for information, in accordance with the following terms and conditions:';
  t.ok(sameClause(clause, window), 'two windows of one sentence');
  t.notOk(
    sameClause(
      clause,
      'Customer agrees that any information and audit rights granted by the applicable Data Protection Requirements will be satisfied by these compliance reports.',
    ),
    'two different clauses are both shown',
  );
});
