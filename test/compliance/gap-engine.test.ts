import t from 'tap';
import { analyzeGaps, runGapAnalysis } from '../../src/compliance/gapAnalysis.js';
import type { GapResult } from '../../src/domain/gap.js';
import { VENDOR_OBLIGATIONS, applicableObligations, type VendorObligation } from '../../src/compliance/obligations.js';
import { quoteAround, splitSentences } from '../../src/compliance/passages.js';
import { riskRating, scoreOf } from '../../src/compliance/risk.js';
import { LocalHashEmbedder } from '../../src/rag/embedders/local.js';

const doc = (id: string, ...paragraphs: string[]) => ({
  id,
  filename: `${id}.md`,
  title: id,
  blocks: paragraphs.map((text) => ({ text, headings: ['Terms'] })),
});
const ob = (id: string) => VENDOR_OBLIGATIONS.find((o) => o.id === id)!;

t.test('elements, negation, adjacent sentences, headings', async (t) => {
  const docs = [
    doc(
      'dpa',
      'Vendor will notify Customer without undue delay, and in any case within 48 hours, after becoming aware of a security incident affecting Customer Data.',
      '37signals LLC itself has not completed a SOC audit of its own systems this year.',
      'Penetration testing',
      'Our primary data centers are located in Frankfurt. Data is stored in the United States as well when customers opt in.',
    ),
  ];
  const sentences = splitSentences(docs);
  const [notice, standards, testing, locations] = analyzeGaps([ob('A30.3.b'), ob('A28.5'), ob('A30.3.d'), ob('A30.2.b')], sentences, { minRelevance: 0 });
  t.equal(notice!.status, 'covered');
  t.equal(notice!.evidence[0]!.quote, docs[0]!.blocks[0]!.text, 'verbatim quote');
  t.equal(standards!.status, 'missing', 'a negated SOC mention is no evidence');
  t.same(standards!.evidence, []);
  t.equal(testing!.status, 'missing', 'a heading parsed as a paragraph is no evidence');
  t.equal(locations!.elements.find((e) => e.id === 'location')!.satisfied, true);
  t.equal(locations!.status, 'partial', 'no notice of location changes');
  t.match(locations!.rationale, /1 of 2 evidence elements found; not found: notice before a change of location/);
});

t.test('relevance floor and the embedder', async (t) => {
  const docs = [doc('x', 'The customer may audit the vendor once per year with thirty days prior written notice, at its own cost.')];
  const { results } = await runGapAnalysis({ obligations: [ob('A28.6')], documents: docs, embedder: new LocalHashEmbedder(384) });
  t.equal(results[0]!.status, 'covered');
  t.ok(results[0]!.evidence.every((e) => e.relevance > 0 && e.relevance <= 1));
  const strict = analyzeGaps([ob('A28.6')], splitSentences(docs), { minRelevance: 1.01 });
  t.equal(strict[0]!.status, 'missing', 'nothing passes an impossible floor');
});

t.test('long sentences are quoted around the match', async (t) => {
  const long = `${'Lorem ipsum dolor sit amet. '.repeat(0)}${'word '.repeat(200)}the SOC 2 Type 2 report is available on request ${'tail '.repeat(200)}`.trim();
  const at = long.indexOf('SOC 2');
  const { quote, truncated } = quoteAround(long, at, 200);
  t.ok(truncated);
  t.ok(quote.length <= 200);
  t.ok(quote.includes('SOC 2 Type 2'));
  t.ok(long.includes(quote));
});

t.test('obligations selection', async (t) => {
  t.equal(applicableObligations(null).length, VENDOR_OBLIGATIONS.length, 'unknown profile: all');
  const nonCritical = applicableObligations({ supportsCriticalFunction: false, criticalityTier: 'low' });
  t.notOk(nonCritical.some((o) => o.scope === 'critical'));
  t.ok(applicableObligations({ supportsCriticalFunction: false, criticalityTier: 'critical' }).some((o) => o.id === 'A30.3.c'));
  t.same(
    VENDOR_OBLIGATIONS.slice(0, 3).map((o) => o.article),
    [28, 28, 28],
    'Articles 28-30 first',
  );
  t.equal(new Set(VENDOR_OBLIGATIONS.map((o) => o.id)).size, VENDOR_OBLIGATIONS.length, 'unique ids');
});

t.test('score and risk rating rules', async (t) => {
  const r = (o: Partial<GapResult> & Pick<GapResult, 'status' | 'coverage'>): GapResult => ({
    obligationId: 'x',
    article: 'Article 30',
    ref: 'Article 30(2)(x)',
    title: '',
    requirement: '',
    doraText: '',
    weight: 1,
    key: false,
    elements: [],
    evidence: [],
    rationale: '',
    ...o,
  });
  t.equal(scoreOf([r({ status: 'covered', coverage: 1, weight: 3 }), r({ status: 'missing', coverage: 0, weight: 1 })]), 75);
  t.same(riskRating([r({ status: 'covered', coverage: 1 })], { critical: false }).rating, 'low');
  const oneKeyMissing = [...Array(9)]
    .map(() => r({ status: 'covered', coverage: 1 }))
    .concat(r({ status: 'missing', coverage: 0, key: true, ref: 'Article 30(3)(c)' }));
  t.equal(riskRating(oneKeyMissing, { critical: false }).rating, 'medium', 'score 90 but a key obligation missing');
  const crit = riskRating(oneKeyMissing, { critical: true });
  t.equal(crit.rating, 'high', 'critical function: one level more');
  t.match(crit.reasons.join(' '), /Article 30\(3\)\(c\)/);
  const threeKey = [...Array(17)]
    .map(() => r({ status: 'covered', coverage: 1 }))
    .concat([1, 2, 3].map(() => r({ status: 'missing', coverage: 0, key: true })));
  t.equal(riskRating(threeKey, { critical: false }).rating, 'high');
  t.equal(riskRating([r({ status: 'missing', coverage: 0, key: true })], { critical: true }).rating, 'critical');
});

t.test('every obligation names DORA text that exists in the reference data', async (t) => {
  const { readDoraArticles } = await import('../../src/compliance/dora.js');
  const articles = readDoraArticles();
  for (const o of VENDOR_OBLIGATIONS as VendorObligation[]) {
    const a = articles.find((x) => x.number === o.article);
    t.ok(
      a?.obligations.some((text) => text.includes(o.dora.match)),
      `${o.id}: "${o.dora.match}" in Article ${o.article}`,
    );
  }
});
