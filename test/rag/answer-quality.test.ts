import t from 'tap';
import { checkFacts, figuresOf, loadQuestions, runQuestions, startDemo, summaryLine, type QuestionResult } from '../../bench/eval/quality.js';
import { analyseQuestion } from '../../src/rag/concepts.js';

/**
 * Floors under the answer-quality figures of bench/answer-quality.ts (the same questions,
 * the same demo data, the offline defaults): a regression guard on quality, never on time.
 * The figures themselves, with latency, come from `node --import=tsx bench/answer-quality.ts`.
 */

t.test("the vocabulary reads analysts' words as the documents' concepts", async (t) => {
  const concept = (q: string, word: string) => analyseQuestion(q).concepts.find((c) => c.label.split(' / ').includes(word))?.entry?.id;
  t.equal(concept('What is our board responsible for?', 'board'), 'management-body', 'board = management body (Article 3(30))');
  t.equal(concept('How often do we need a pen test?', 'pen test'), 'tlpt');
  t.equal(concept('Can we get the SOC 2 report?', 'SOC 2 report'), 'assurance-report');
  t.equal(concept('What should an exit plan include?', 'exit plan'), 'exit-strategy');
  t.equal(concept('Are our IT systems resilient enough?', 'IT'), 'ict', 'IT in capitals is ICT');
  t.equal(concept('Is it a vendor?', 'it'), undefined, 'the pronoun "it" is not IT');
  t.equal(concept('How should we set our RTO?', 'RTO'), 'recovery-objectives');
  t.equal(concept('Is 37signals ISO 27001 certified?', 'ISO'), undefined, 'no alias stands for a different certificate');
  const a = analyseQuestion("What does DORA say about the vendor's exit plan?");
  t.ok(a.namesDora && a.namesVendor, 'names DORA and points at the vendor');
  t.ok(a.concepts.find((c) => c.label === 'DORA')?.frame, 'DORA frames the question');
});

t.test("answer quality on the demo data (floors under the runner's figures)", async (t) => {
  const questions = loadQuestions();
  t.same(checkFacts(questions), [], 'every key fact is taken from its gold text');
  const demo = await startDemo();
  t.teardown(demo.close);
  const results = await runQuestions(demo, questions);
  t.comment(summaryLine(results, demo.kind));
  // The floors below were set on the questions before issue 29's kinds (judgement, multi-part,
  // tables, figures the text does not give, summaries, definitions); those are reported by kind.
  const core = results.filter((r) => !r.q.kind);
  const f = figuresOf(core);
  for (const kind of [...new Set(results.map((r) => r.q.kind).filter(Boolean))])
    t.comment(
      summaryLine(
        results.filter((r) => r.q.kind === kind),
        String(kind),
      ),
    );
  const asked = (question: string) => {
    const r = results.find((x) => x.q.question === question);
    if (!r) throw new Error(`not in bench/eval/questions.jsonl: ${question}`);
    return r;
  };
  const floor = (name: string, value: number | null, min: number) => t.ok(value !== null && value >= min, `${name} ${value?.toFixed(2)} >= ${min}`);

  t.test('retrieval', async (t) => {
    floor('DORA article recall@5', f.doraRecall, 0.92);
    floor('vendor document recall@5', f.vendorRecall, 0.95);
    floor('comparisons with both the article and the document', f.bothRecall, 0.7);
    t.equal(f.errors, 0, 'every question answered with 200');
  });

  t.test('diversity: a document repeats only when nothing else is as relevant', async (t) => {
    const repeated = (r: QuestionResult) =>
      Math.max(...Object.values(r.sources.reduce<Record<string, number>>((a, s) => ({ ...a, [s]: (a[s] ?? 0) + 1 }), {})));
    const crowded = core.filter((r) => repeated(r) >= 3);
    t.ok(crowded.length <= core.length * 0.05, `${crowded.length} of ${core.length} answers have one document 3 times or more among their sources`);
    // Before diversity, Article 26 took three of the five sources of this question.
    const def = asked('How does DORA define a critical or important function?');
    t.ok(def.sources.includes('Article 3'), `the definition is found: ${def.sources.join(' | ')}`);
    t.ok(new Set(def.sources).size >= 4, 'at least four different documents');
  });

  t.test('routing: both corpora compete, a comparison gets both', async (t) => {
    for (const r of results.filter((x) => x.q.expect === 'both')) {
      t.ok(
        r.sources.some((s) => s.startsWith('Article ')) && r.sources.some((s) => !s.startsWith('Article ')),
        `${r.q.id}: DORA and the vendor among the sources (${r.sources.join(' | ')})`,
      );
    }
    // The SLA and the terms of service's SLA section both hold the whole question; either may come first.
    const uptime = asked('What uptime does GitHub commit to?');
    t.ok(
      uptime.sources.slice(0, 2).includes('github/github-enterprise-service-level-agreement.md'),
      `a question naming the vendor: its SLA among the first two (${uptime.sources.join(' | ')})`,
    );
    t.ok(uptime.cited.includes('github/github-enterprise-service-level-agreement.md') && /99\.9%/.test(uptime.answer), "the answer quotes the SLA's 99.9%");
    const dora = asked('How often do we have to review our ICT risk management framework?');
    t.match(dora.sources[0], /^Article /, 'a DORA question asked in a vendor workspace: an article first');
    t.ok(dora.sources.includes('Article 6'), 'the right article among the sources');
    t.ok(
      asked('Does the vendor do penetration testing?').sources.includes('basecamp/security-overview-whitepaper.txt'),
      '"the vendor" is the workspace\'s vendor: its pen tests, not only DORA\'s TLPT',
    );
  });

  t.test('the offline answer: answers what the documents answer, refuses the rest', async (t) => {
    floor('answerable questions answered', f.refused === null ? null : 1 - f.refused, 0.88);
    floor('answers citing a right source', f.citedGold, 0.75);
    floor('unanswerable questions refused', f.noneRefused, 0.8);
    t.equal(f.hallucinations, 0, 'no answer flagged for an invented claim or figure');
    t.equal(f.invalidMarkers, 0, 'every [Source n] names a returned source');

    // Ordinary words of a question that no passage holds do not make it unanswered.
    const nis2 = asked('Our bank is also an essential entity under NIS2. How does DORA sit alongside NIS2?');
    t.notOk(nis2.refused, `"sit alongside" is a way of asking: ${nis2.answer.slice(0, 120)}`);
    t.ok(nis2.cited.includes('Article 1'), 'Article 1 (DORA is the sector-specific act for NIS2 entities) is cited');
    const broker = asked("We're a small insurance broker with 20 people. Do we have to comply with DORA?");
    t.notOk(broker.refused, 'a question whose own sentence names nothing is read with the statement before it');
    t.ok(broker.cited.includes('Article 2'), 'Article 2 (scope) is cited');
    t.match(broker.answer, /insurance intermediaries .* small or medium-sized enterprises \[Source \d\]/i);

    // A concept of the domain that no passage holds is what is asked: refused, saying what is missing.
    const iso = asked('Is 37signals ISO 27001 certified?');
    t.ok(iso.refused, iso.answer);
    t.match(iso.answer, /do not mention "ISO", "27001"; the passages retrieved are about /, 'says what is missing and what the passages cover');
    t.same(iso.cited, [], 'a refusal cites nothing');
    // A question about the vendor is not answered from the regulation (Article 12 speaks of RTOs, not of GitHub's).
    const rto = asked('What recovery time objective does GitHub commit to for Enterprise Cloud?');
    t.ok(rto.refused, rto.answer);
    // A question asking for a figure is not answered by a sentence without one.
    t.ok(asked('How much does Basecamp Big cost per user per month?').refused);

    // A question naming an article is answered from that article's own text, not from another
    // article's cross-reference to it (Article 29: "the risks referred to in Article 28(4)").
    for (const [question, article] of [
      ['What does DORA Article 28 require for contractual arrangements?', 'Article 28'],
      ['Under Article 19, who do we report major ICT-related incidents to?', 'Article 19'],
      ['What does Article 11 require for ICT business continuity?', 'Article 11'],
    ] as const) {
      const r = asked(question);
      t.equal(r.cited[0], article, `${question} quotes ${article} first: ${r.cited.join(', ')}`);
      // The article asked about may fill the sources; another document repeats only when nothing is as relevant.
      t.ok(r.sources.filter((s) => s === article).length >= 3, `${question}: ${article} fills the sources (${r.sources.join(' | ')})`);
    }
    // A "how often" question is answered by the sentence stating the frequency.
    const tlpt = asked('How often does Article 26 require threat-led penetration testing?');
    t.match(
      tlpt.answer,
      /^Financial entities, .* shall carry out at least every 3 years advanced testing by means of TLPT \[Source \d\]\.$/,
      tlpt.answer.slice(0, 300),
    );
    const scenarios = asked('How often should we re-assess our ICT risk scenarios?');
    t.match(
      scenarios.answer,
      /^Financial entities shall review on a regular basis, and at least yearly, the risk scenarios impacting them \[Source \d\]\.$/,
      'and by it alone',
    );

    // A comparison: each side quoted with its own label and citation.
    const where = asked('DORA says the contract must state where data is processed. Which locations does GitHub give?');
    t.match(where.answer, /^DORA Article \d+: .+ \[Source \d\][.:]/m, 'the DORA side, labelled with its article');
    t.match(where.answer, /^GitHub [^:\n]+: .*\[Source \d\][.:]/m, 'the GitHub side, labelled with its document');
    t.ok(where.cited.some((c) => c.startsWith('Article ')) && where.cited.some((c) => c.startsWith('github/')), `both sides cited: ${where.cited.join(', ')}`);
  });

  t.test("vocabulary: analysts' words find the regulation's", async (t) => {
    t.ok(asked('What is our board responsible for under DORA?').sources.includes('Article 5'), 'board -> management body (Article 5)');
    t.ok(asked('How often do we need to do a red team exercise?').sources.includes('Article 26'), 'red team exercise -> TLPT (Article 26)');
    t.ok(
      asked('What should an exit plan for a critical vendor include?').sources.includes('Article 28'),
      'exit plan, critical vendor -> exit strategies (Article 28)',
    );
    t.ok(asked('How should we set our RTO and RPO?').sources.includes('Article 12'), 'RTO and RPO -> recovery time and recovery point objectives (Article 12)');
    t.ok(
      asked("Can we get GitHub's SOC 2 report?").sources.includes('github/github-data-protection-agreement.md'),
      'SOC 2 report -> SOC2, type2 audit reports (GitHub DPA)',
    );
  });
});
