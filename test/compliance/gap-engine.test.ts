import t from 'tap';
import { vendorNamesOf } from '../../src/domain/vendorNames.js';
import { analyzeGaps, runGapAnalysis } from '../../src/compliance/gapAnalysis.js';
import type { GapResult } from '../../src/domain/gap.js';
import { VENDOR_OBLIGATIONS, applicableObligations, type VendorObligation } from '../../src/compliance/obligations.js';
import { quoteAround, splitSentences, type SourceDocument } from '../../src/compliance/passages.js';
import { actors, bindsAsNeeded } from '../../src/compliance/reading.js';
import { riskRating, scoreOf } from '../../src/compliance/risk.js';
import { LocalHashEmbedder } from '../../src/rag/embedders/local.js';
import { parseMarkdown } from '../../src/ingest/parsers/markdown.js';

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
  t.match(locations!.rationale, /^Partial: not found: notice before a change of location; found: countries or regions where data is processed or stored\.$/);
});

/** One obligation read against paragraphs (relevance floor off: the readings are under test). */
const read = (id: string, ...paragraphs: string[]) =>
  analyzeGaps([ob(id)], splitSentences([doc('doc', ...paragraphs)]), { minRelevance: 0, vendorNames: ['Acme'] })[0]!;
const level = (r: GapResult, element: string) => r.elements.find((e) => e.id === element)!.level;
/** One obligation read against one document given whole (its file name, title and headed blocks). */
const readDocument = (id: string, document: SourceDocument) =>
  analyzeGaps([ob(id)], splitSentences([document]), { minRelevance: 0, vendorNames: ['Acme'] })[0]!;

t.test("who is bound: the customer's own duty is not the provider's commitment", async (t) => {
  const customerDuty = read('A30.3.b', 'You will promptly notify Acme within 24 hours of any security incident affecting your account.');
  t.equal(customerDuty.status, 'missing', 'the customer notifying the provider');
  const provider = read('A30.3.b', 'Acme will notify Customer within 24 hours after becoming aware of a security incident affecting Customer Data.');
  t.equal(provider.status, 'covered');
  const right = read('A28.6', 'The provider shall make information available and the customer shall audit its own systems every year.');
  t.equal(level(right, 'audit-right'), 'none', "the customer's duty to audit itself is no audit right");
});

t.test('limiting language makes an element limited, with the limiting clause quoted', async (t) => {
  const reports = read(
    'A28.6',
    'Customer may audit Acme once per year with thirty days prior written notice. Customer agrees that these audit rights will be satisfied by providing SOC 2 Type 2 reports.',
  );
  t.equal(reports.status, 'partial');
  t.equal(level(reports, 'audit-right'), 'limited');
  t.match(reports.rationale, /satisfied by something else \(e\.g\. reports\) instead \(“.*will be satisfied by providing SOC 2/);
  t.ok(reports.evidence.some((e) => e.role === 'limitation' && /will be satisfied by providing/.test(e.quote)));
  for (const [clause, note] of [
    ['Customer may audit Acme only to the extent required under data protection laws, once per year with reasonable notice.', /only in limited cases/],
    ['Customer may audit Acme once per year with reasonable notice, at Customer’s expense.', /at the customer's expense/],
    ['Customer may audit Acme once per year with reasonable notice; the scope of each audit shall be mutually agreed.', /to be agreed/],
  ] as const) {
    const r = read('A28.6', clause);
    t.equal(r.status, 'partial', clause);
    t.match(r.rationale, note);
  }
  const full = read('A28.6', 'Customer may audit Acme, including on-site at its premises, once per year with thirty days prior written notice.');
  t.equal(full.status, 'covered', 'an audit right with defined terms and no limitation');
  const efforts = read(
    'A30.2.e',
    'Acme will use commercially reasonable efforts to make the Service available 99.9% of the time. If availability falls below 99.9%, Customer receives service credits.',
  );
  t.equal(level(efforts, 'uptime'), 'limited', 'an efforts-based availability target');
});

t.test('data-protection scope, authorities and clauses pointing the other way', async (t) => {
  const scc = read(
    'A28.6',
    'The data importer shall, at the data exporter’s request, allow for and contribute to audits of the processing activities covered by these Clauses, at reasonable intervals.',
  );
  t.equal(level(scc, 'audit-right'), 'limited');
  t.match(scc.rationale, /personal-data processing only/);
  const dpAuthority = read(
    'A30.2.g',
    'Acme shall provide reasonable assistance to Customer in consultations with the competent supervisory authority under the GDPR.',
  );
  t.equal(dpAuthority.status, 'partial', 'a data-protection authority is not the financial supervisor');
  const financial = read(
    'A30.2.g',
    'Acme shall fully cooperate with the competent authorities and resolution authorities of the Customer, including by giving them access to information.',
  );
  t.equal(financial.status, 'covered');
  const unencrypted = read(
    'A9.3.enc',
    'All traffic is encrypted in transit with TLS 1.2 and files are encrypted at rest with AES-256.',
    'Application databases are generally not encrypted at rest.',
  );
  t.equal(level(unencrypted, 'rest'), 'limited');
  t.ok(unencrypted.evidence.some((e) => e.role === 'contrary' && /not encrypted at rest/.test(e.quote)));
  const hostCert = read('A28.5', 'Our hosting provider, AWS, has achieved ISO 27001 certification and SOC 2 Type 2 reports.');
  // The host's certificate is not the provider's: nothing is held, and the rationale says what was found.
  t.equal(hostCert.status, 'missing');
  t.match(hostCert.rationale, /not the provider's own/);
  t.ok(
    hostCert.evidence.some((e) => e.role === 'limitation' && /AWS/.test(e.quote)),
    'the host clause is quoted',
  );
  const ownAndHost = read(
    'A28.5',
    'Our hosting provider, AWS, has achieved ISO 27001 certification.',
    'We hold our own SOC 2 Type 2 report, available on request.',
  );
  t.equal(level(ownAndHost, 'certification'), 'none');
  t.equal(level(ownAndHost, 'assurance'), 'met', "the provider's own report still counts");
  const example = read('A28.5', 'Such audits may be fulfilled by certificates such as ISO 27001 or by self-assessments.');
  t.equal(level(example, 'certification'), 'none', 'a standard named as an example is not held');
});

t.test('partial evidence, list lead-ins, abbreviations and "no less than"', async (t) => {
  const undue = read('A30.3.b', 'Acme shall notify Customer without undue delay after becoming aware of a personal data breach.');
  t.equal(undue.status, 'partial');
  t.equal(level(undue, 'timing'), 'partial');
  t.match(undue.rationale, /no time limit is set/);
  const list = read(
    'A30.3.b',
    'Acme shall, within 48 hours, notify the Customer if:',
    '- it becomes aware of a security incident affecting Customer Data; or',
    '- it receives a request from a data subject.',
  );
  t.equal(list.status, 'covered', 'a list item read with its lead-in');
  t.ok(
    list.evidence.some((e) => e.quote === '- it becomes aware of a security incident affecting Customer Data; or'),
    'the item quoted on its own',
  );
  const periodic = read(
    'A24',
    'Acme employs an independent third party to conduct periodic (but no less than once per year) penetration tests of the Service.',
  );
  t.equal(periodic.status, 'covered', '"no less than once per year" is no negation');
  const para = analyzeGaps(
    [ob('A29.2.sub')],
    splitSentences([
      doc(
        'dpa',
        'Acme shall use a sub-processor under Article 4 para. 8 GDPR only after informing the Client in writing; the Client may object within 2 weeks.',
      ),
    ]),
    { minRelevance: 0 },
  )[0]!;
  t.equal(level(para, 'change-notice'), 'met', 'a sentence is not cut at "para."');
  const anyTime = read('A30.2.h', 'Either party may terminate this Agreement at any time, effective immediately.');
  t.equal(level(anyTime, 'notice'), 'partial', 'termination at any time: no notice period');
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

t.test('a contractual obligation stated only in a policy or web page is partial; the same words in a contract cover it', async (t) => {
  const words = 'Acme will notify Customer within 24 hours after becoming aware of a security incident affecting Customer Data.';
  const at = (filename: string, title: string) =>
    analyzeGaps(
      [ob('A30.3.b'), ob('A9.3.enc')],
      splitSentences([{ id: 'd', filename, title, blocks: [{ text: `${words} All customer data is encrypted at rest with AES-256.`, headings: [] }] }]),
      {
        minRelevance: 0,
        vendorNames: ['Acme'],
      },
    );
  const [inPolicy, encPolicy] = at('security-overview.md', 'Security Overview');
  t.equal(inPolicy!.status, 'partial', 'a security page is not the contractual arrangement Article 30 asks for');
  t.match(inPolicy!.rationale, /stated only in Security Overview, a policy, web page or report, not in the contract/);
  t.equal(level(encPolicy!, 'rest'), 'met', 'an ICT risk control (Article 9) may be evidenced by a security page');
  t.equal(at('dpa.pdf', 'Data Processing Addendum')[0]!.status, 'covered');
  t.equal(at('acme-2025.pdf', null as unknown as string)[0]!.status, 'covered', 'a document its name does not place is not held against');
});

t.test('which documents are contractual: by file name, then title, then first heading', async (t) => {
  const { isContractual } = await import('../../src/compliance/passages.js');
  const d = (filename: string, title: string | null = null, heading = '') =>
    isContractual({ filename, title, blocks: heading ? [{ text: 'x', headings: [heading] }] : [] });
  t.equal(d('github-data-protection-agreement.md'), true);
  t.equal(d('basecamp-big-sla.md'), true);
  t.equal(d('security-addendum.pdf'), true, 'an addendum is part of the contract even when it is about security');
  t.equal(d('security-toms.md'), true, 'technical and organisational measures are a DPA annex');
  t.equal(d('github-general-privacy-statement.md'), false);
  t.equal(d('security-overview.md'), false);
  t.equal(d('subprocessors.md'), false);
  t.equal(d('upload-3.pdf', 'Privacy Policy'), false, 'the title decides when the name says nothing');
  t.equal(d('upload-3.pdf', null, 'Master Subscription Agreement'), true, 'then the first heading');
  t.equal(d('upload-3.pdf'), true);
  t.equal(isContractual({ filename: 'security-overview.md', title: null, blocks: [], contractual: true }), true, 'an analyst-set kind wins');
});

t.test('a policy the contract incorporates by reference is part of the contract', async (t) => {
  const { contractualDocuments } = await import('../../src/compliance/passages.js');
  const terms = {
    id: 't',
    filename: 'terms.md',
    title: 'Terms of Service',
    blocks: [
      { text: 'Acme has several policies that form part of these Terms, and are hereby incorporated by reference:', headings: ['Policies'] },
      { text: '1. Security Policy', headings: ['Policies'] },
    ],
  };
  const security = {
    id: 's',
    filename: 'security.md',
    title: 'Security Policy',
    blocks: [{ text: 'Acme will notify Customer within 24 hours after becoming aware of a security incident affecting Customer Data.', headings: [] }],
  };
  const privacy = { id: 'p', filename: 'privacy.md', title: 'Privacy Policy', blocks: [{ text: 'We collect your e-mail address.', headings: [] }] };
  const set = contractualDocuments([terms, security, privacy]);
  t.ok(set.has(security), 'named in the incorporation clause');
  t.notOk(set.has(privacy), 'a policy the contract does not incorporate stays outside it');
  const [notice] = analyzeGaps([ob('A30.3.b')], splitSentences([terms, security]), { minRelevance: 0, vendorNames: ['Acme'] });
  t.equal(notice!.status, 'covered', 'the incorporated policy evidences a contractual obligation');
  t.notOk(contractualDocuments([{ ...terms, blocks: [terms.blocks[1]!] }, security]).has(security), 'a mere mention is not incorporation');
});

t.test('list items are bound by their lead-in; termination at will only without a notice period or cause', async (t) => {
  const prohibited = readDocument(
    'A24',
    doc('terms', 'You will not:', '- conduct security penetration tests or vulnerability scans on the Services without Acme’s prior written consent;'),
  );
  t.equal(prohibited.elements[0]!.level, 'none', "the customer's prohibition is no testing by the provider");
  const h = (text: string) => level(read('A30.2.h', 'Either party may terminate this Agreement upon thirty (30) days prior written notice.', text), 'notice');
  t.equal(h('Acme may terminate the Services at any time in its sole determination.'), 'limited', 'at will');
  t.equal(h('Acme may terminate your Services for any reason or no reason by providing you with thirty days advance notice.'), 'met', 'with a notice period');
  t.equal(h('Acme may immediately terminate the Services without notice in the event that you breach these Terms.'), 'met', 'for cause');
  t.equal(h('Acme may terminate the Services without notice.'), 'limited', 'without notice and without cause');
  // The customer's notice period in another point of the sentence is not a notice period for the termination at any time.
  t.equal(
    h(
      'In addition, (i) either party may terminate this Agreement at any time upon notice to the other party; and (ii) the Client may terminate this Agreement with thirty (30) days written notice.',
    ),
    'limited',
    "another point's notice period",
  );
  t.equal(
    h(
      'In addition, (i) either party may terminate this Agreement at any time upon thirty (30) days written notice; and (ii) the Client may terminate this Agreement for convenience.',
    ),
    'met',
    "the point's own notice period",
  );
});

t.test('the scope of a commitment: some storage, physical access, visitor logs, free delegation', async (t) => {
  // Encryption at rest of one store is not encryption of the customer's data.
  const s3 = read('A9.3.enc', 'Connections use TLS 1.2. The S3 storage holding attachments is encrypted and replicated.');
  t.equal(level(s3, 'rest'), 'limited');
  t.match(s3.rationale, /only for some storage/);
  const all = read('A9.3.enc', 'Connections use TLS 1.2. All customer data, including S3 buckets and database volumes, is encrypted at rest.');
  t.equal(level(all, 'rest'), 'met', 'the same store named inside a statement about all customer data');
  // Two-factor authentication to enter a data centre is not strong authentication to systems.
  const floors = read('A9.4.c', 'Access is restricted to authorised personnel. Staff must pass two-factor authentication to access data center floors.');
  t.equal(level(floors, 'strong-auth'), 'limited');
  const systems = read('A9.4.c', 'Access is restricted to authorised personnel. Staff must use multi-factor authentication to access production systems.');
  t.equal(level(systems, 'strong-auth'), 'met');
  // A privacy policy's server logs of visitors are not security logging.
  const visitors = read(
    'A10',
    'Acme monitors its systems to detect security threats and alerts its on-call engineers.',
    'We automatically receive and record information on our server logs from your browser, including your IP address and cookie information, when you access the Services.',
  );
  t.equal(level(visitors, 'logging'), 'none');
  const audit = read('A10', 'Acme monitors its systems to detect security threats. Acme logs administrative access events and keeps the logs for one year.');
  t.equal(level(audit, 'logging'), 'met');
  // A provider that may delegate its duties without consent has set no subcontracting condition.
  const servicesAndSubprocessors =
    '“Services” means the hosted platform Acme provides. Subprocessors are bound by a written agreement with the same obligations.';
  const free = read(
    'A30.2.a',
    servicesAndSubprocessors,
    'Acme may also delegate its duties under these Terms to any third party without notice to you or approval from you.',
  );
  t.equal(level(free, 'subcontracting'), 'limited');
  t.equal(free.status, 'partial');
  const neither = read(
    'A30.2.a',
    servicesAndSubprocessors,
    'Neither party may assign or delegate its duties under this Agreement without the prior written consent of the other party.',
  );
  t.equal(level(neither, 'subcontracting'), 'met', 'a restriction on both parties is not a free hand');
});

t.test('continuity tested: a test of the recovery arrangements, not the words "testing" and "recovery" side by side', async (t) => {
  const snapshots = read(
    'A11',
    'Acme maintains a disaster recovery plan.',
    'Raw database snapshots and restored clones are available upon request for testing and recovery.',
  );
  t.equal(level(snapshots, 'tested'), 'none');
  const drills = read('A11', 'Acme maintains a disaster recovery plan. We practice regular recovery drills where we test disaster and failure scenarios.');
  t.equal(level(drills, 'tested'), 'met');
  // Restoring data is tested, not the recovery plans: the partial level (seventh session).
  const restores = read('A11', 'Acme maintains a disaster recovery plan.', 'Regular tests for data recovery are performed and their results logged.');
  t.equal(level(restores, 'tested'), 'partial');
  const recoveryTests = read('A11', 'Acme maintains a disaster recovery plan.', 'Regular recovery tests are performed and their results logged.');
  t.equal(level(recoveryTests, 'tested'), 'met');
});

t.test("a definition is not a commitment; the customer's duty without a modal of its own is the customer's", async (t) => {
  const defined = read(
    'A30.2.c',
    '“Confidential Information” means any information disclosed by either party that is marked confidential and must be protected.',
  );
  t.equal(level(defined, 'confidentiality'), 'none');
  const kept = read('A30.2.c', 'Each party will keep the other party’s Confidential Information confidential and protect it with reasonable care.');
  t.equal(level(kept, 'confidentiality'), 'met');
  const services = read('A30.2.a', '“Services” means the hosted analytics platform Acme provides to Customer.');
  t.equal(level(services, 'description'), 'met', 'a description of the services is asked for as a definition');
  const yours = read('A11', 'The Services do not replace the need for you to maintain regular data backups or redundant data archives.');
  t.equal(level(yours, 'plan'), 'none');
  const ours = read('A11', 'Acme maintains redundant data archives and a disaster recovery plan.');
  t.equal(level(ours, 'plan'), 'met');
});

t.test('who acts: "The Controller may" is the customer; "the Processor notifies" is the provider; a warned termination is not at will', async (t) => {
  const customerOnly = 'The Controller may terminate the agreement at any time without notice if the Processor breaches this agreement.';
  t.notOk(bindsAsNeeded(customerOnly, 'provider', ['Acme']), "the customer's right to terminate is not the provider's");
  t.ok(bindsAsNeeded('The Processor notifies the Controller of any new sub-processor before processing starts.', 'provider', ['Acme']));
  const warned = read(
    'A30.2.h',
    "Either party may terminate this Agreement for convenience upon thirty (30) days' prior written notice.",
    'Termination without notice is always subject to the requirement that the other Party is warned and requested in writing to remedy the grounds within a reasonable period.',
  );
  t.equal(level(warned, 'notice'), 'met');
  const atWill = read(
    'A30.2.h',
    "Either party may terminate this Agreement for convenience upon thirty (30) days' prior written notice.",
    'Acme may terminate your account at any time, in its sole discretion, without notice.',
  );
  t.equal(level(atWill, 'notice'), 'limited');
});

t.test('readings that keep a clause from counting for more than it says', async (t) => {
  // Export controls are not an export of the customer's data.
  const exportControls = read(
    'A30.2.d',
    'The Services may not be downloaded or otherwise exported or re-exported into any country subject to U.S. export controls.',
  );
  t.equal(level(exportControls, 'return'), 'none');
  t.equal(level(read('A30.2.d', 'Acme will return all Customer Data to Customer within 30 days of termination.'), 'return'), 'met');
  // "no information … can be retrieved" negates its subject.
  t.equal(level(read('A30.2.d', 'Once an account is terminated, no information associated with the account can be retrieved.'), 'return'), 'none');
  // A dispute about a breach of contract is not a security breach notice.
  const dispute = read(
    'A30.3.b',
    'For any dispute or breach of these terms, you agree to first contact us and Acme will contact you to resolve the dispute informally.',
  );
  t.equal(level(dispute, 'incident-notice'), 'none');
  // A waiver of termination rights the contract does not state.
  const waiver = read(
    'A30.2.h',
    'Either party may terminate the Agreement if the other party fails to cure a material breach within 15 days of written notice.',
    'With the exception of the rights explicitly provided in the Agreement, each party waives any rights to terminate or rescind the Agreement.',
  );
  t.equal(level(waiver, 'termination'), 'limited');
  t.match(waiver.rationale, /waive/);
  // A provider free to change the terms on its own: the written contract is only partly one.
  const unilateral = read(
    'A30.1',
    'This Agreement constitutes the entire agreement between the parties and supersedes all prior agreements.',
    'Acme may modify these Terms at any time in its sole discretion.',
  );
  t.equal(level(unilateral, 'written'), 'limited');
  const withNotice = read(
    'A30.1',
    'This Agreement constitutes the entire agreement between the parties and supersedes all prior agreements.',
    'Acme may modify these Terms at any time by giving thirty (30) days notice.',
  );
  t.equal(level(withNotice, 'written'), 'met', 'a change on thirty days notice is not a unilateral change at will');
  // "Regular security testing" names no penetration test; "regular data backups" no frequency.
  const testing = read('A24', 'Acme performs regular security testing and vulnerability management.');
  t.equal(level(testing, 'testing'), 'partial');
  t.equal(level(read('A30.3.d', 'Acme performs regular security testing of the platform.'), 'pentest'), 'partial');
  t.equal(level(read('A30.3.d', 'GitHub Dependabot scans our dependencies for vulnerabilities.'), 'pentest'), 'none');
  t.equal(level(read('A12', 'Acme maintains business continuity capabilities, including regular data backups of the platform.'), 'backup'), 'partial');
  t.equal(level(read('A12', 'Acme backs up all Customer Data daily and keeps the backups for 30 days.'), 'backup'), 'met');
  const deletion = read(
    'A12',
    'Acme will delete all Customer Personal Data within 30 days, excluding any back-up or archival copies which shall be deleted in accordance with its retention policy.',
  );
  t.equal(level(deletion, 'backup'), 'none', 'backups named as an exception to deletion are no backup commitment');
  // A team that responds to incidents is an incident response team.
  t.equal(level(read('A17', 'A 24/7 staffed team is responsible for monitoring the services and responding to incidents.'), 'process'), 'met');
  // A documented incident process is a process, not a record of incidents.
  const documented = read('A17', 'Acme has a documented internal incident-response process, including notification of affected customers.');
  t.equal(level(documented, 'process'), 'met');
  t.equal(level(documented, 'records'), 'none');
  t.equal(level(read('A17', 'Acme records and classifies every security incident by severity.'), 'records'), 'met');
  // Monitoring written with a slash, and breach detection, are security monitoring.
  t.equal(level(read('A10', 'Automated backups and monitoring/alerting are in place for production systems.'), 'monitoring'), 'met');
  // Dependencies watched for known vulnerabilities are testing in part, not a penetration test or scan programme.
  t.equal(level(read('A24', 'Security-relevant changes are reviewed; dependencies are monitored for known vulnerabilities.'), 'testing'), 'partial');
  // Internal monitoring of availability is not measurement against a service level.
  t.equal(level(read('A30.3.a', 'Our operations team monitors service availability around the clock.'), 'measurement'), 'none');
  t.equal(level(read('A30.3.a', 'Uptime is calculated monthly and reported on our status page.'), 'measurement'), 'met');
});

t.test('a subprocessor list describes the subprocessors, not the provider', async (t) => {
  const list = {
    id: 'subs',
    filename: 'subprocessors.md',
    title: 'Subprocessors',
    blocks: [
      {
        text: 'Name of Subprocessor: Twilio; Description of Processing: SMS notification provider for 2 Factor Authentication; Location: United States',
        headings: ['Subprocessors'],
      },
    ],
  };
  const [auth, sub] = analyzeGaps([ob('A9.4.c'), ob('A29.2.sub')], splitSentences([list]), { minRelevance: 0, vendorNames: ['Acme'] });
  t.equal(level(auth!, 'strong-auth'), 'none', "a subprocessor's 2FA service is not the provider's strong authentication");
  t.equal(level(sub!, 'list'), 'met', 'the list still discloses the subprocessors');
});

t.test("readings of the fifth round: page updates as notice, unilateral changes, others' commitments, questions", async (t) => {
  const notify = 'Acme will notify Customer by e-mail at least 30 days before engaging a new sub-processor.';
  t.equal(level(read('A29.2.sub', notify), 'change-notice'), 'met');
  // A notice that may be only an update of a web page is not a notice to the customer.
  const pageOnly = read('A29.2.sub', 'Acme will update this page at least 30 days before engaging a new sub-processor.');
  t.equal(level(pageOnly, 'change-notice'), 'limited');
  t.match(pageOnly.rationale, /web page/);
  const deemed = read(
    'A29.2.sub',
    notify,
    'Any update that Acme makes to its list of Subprocessors at https://www.acme.example/legal/subprocessors will constitute notice to Customer.',
  );
  t.equal(level(deemed, 'change-notice'), 'limited', 'an update of the list "will constitute notice", even with a URL in the clause');
  const andOr = read('A29.2.sub', `${notify} Notice shall be given by e-mail and/or by updating the list published at this page.`);
  t.equal(level(andOr, 'change-notice'), 'limited');

  const byPosting = read(
    'A29.2.sub',
    'Acme will maintain a list of Subprocessors and will provide at least 10 days’ prior notice of the addition of any subprocessor, which may be given by posting detail of such addition at https://acme.example/subprocessors.',
  );
  t.equal(level(byPosting, 'change-notice'), 'limited');
  const withMechanism = read(
    'A29.2.sub',
    'Acme will give Customer notice (by updating the website at https://acme.example/subprocessors and providing Customer with a mechanism to obtain notice of that update) of any new Subprocessor in advance of providing that Subprocessor with access to Customer Personal Data.',
  );
  t.equal(level(withMechanism, 'change-notice'), 'met', 'a page update with a way to be notified of it is a notice');
  const otherNotice = read(
    'A29.2.sub',
    notify,
    'If there are material changes to this privacy statement, we will provide at least 30 days prior notice by updating our website.',
  );
  t.equal(level(otherNotice, 'change-notice'), 'met', "a page update announcing another document's changes says nothing of subprocessors");
  t.equal(
    level(
      read(
        'A29.2.sub',
        'These obligations do not apply to infringement resulting from modification of the Service by someone other than Acme or its subcontractors, or after notice of a new claim.',
      ),
      'change-notice',
    ),
    'none',
  );
  // Data protected only on commercially reasonable efforts.
  const effortsOnly = read(
    'A30.2.c',
    'Acme will implement appropriate technical and organisational measures to protect Customer Data.',
    'Acme will implement commercially reasonable efforts at all times to protect Customer Data from unauthorized use, access, or disclosure.',
  );
  t.equal(level(effortsOnly, 'security-measures'), 'limited');
  // A credit card, a discount credit, "make available": no service credits.
  t.equal(
    level(read('A30.2.e', 'Acme may seek pre-authorization of your credit card to verify that it has the necessary funds or credit available.'), 'credits'),
    'none',
  );
  t.equal(
    level(read('A30.2.e', 'Acme may make available trials without charge. Acme may offer you discounts or other credits based on campaigns.'), 'credits'),
    'none',
  );
  t.equal(level(read('A30.2.e', 'If availability falls below 99.9% in a month, Customer receives a credit of 10% of the monthly fee.'), 'credits'), 'met');

  // A right to change the terms at the provider's discretion, written with a comma, limits the written contract ...
  const entire = 'This Agreement constitutes the entire agreement between the parties and supersedes all prior agreements.';
  t.equal(level(read('A30.1', entire, 'We reserve the right, at our discretion, to change these Terms at any time.'), 'written'), 'limited');
  // ... and so do new terms that take immediate effect; a notice period in the next sentence is the exception.
  t.equal(level(read('A30.1', entire, 'From time to time Acme may update these Terms. The new Terms will take immediate effect.'), 'written'), 'limited');
  const noticeNext = read(
    'A30.1',
    entire,
    'Acme reserves the right, at its sole discretion, to amend this Agreement at any time. Acme will notify Customer of material changes at least 30 days prior to the change taking effect.',
  );
  t.equal(level(noticeNext, 'written'), 'met');

  // A host's service level, or its certificates listed under its name, are not the provider's own.
  const hostSla = read(
    'A30.2.e',
    'Amazon in case of EC2 and RDS claims to “use commercially reasonable efforts to make each available with a Monthly Uptime Percentage of at least 99.95%”.',
  );
  t.equal(level(hostSla, 'uptime'), 'none');
  t.equal(level(read('A30.2.e', 'Acme commits to a Monthly Uptime Percentage of at least 99.9% for the Service.'), 'uptime'), 'met');
  const hostCerts = analyzeGaps(
    [ob('A28.5')],
    splitSentences([doc('sec', 'Underlying Amazon AWS is dedicated to comply with the most demanding certifications, namely:', '* ISO 27001 Certification')]),
    { minRelevance: 0, vendorNames: ['Acme'] },
  )[0]!;
  t.equal(level(hostCerts, 'certification'), 'none', "a list item is read with its lead-in: the host's certificate");
  t.equal(level(read('A30.2.i', 'Data centers are staffed 24x7 by trained security guards.'), 'own-training'), 'none');

  // Monitoring of availability or performance is not the detection of anomalous activity, unless the clause says security.
  const uptimeWatch = read('A10', 'All Acme components are continuously monitored. System availability is monitored by an external service.');
  t.equal(level(uptimeWatch, 'monitoring'), 'limited');
  t.equal(level(read('A10', 'Systems are continuously monitored with regard to availability and safety.'), 'monitoring'), 'met');
  t.equal(level(read('A10', 'Acme monitors its systems for suspicious activity and alerts the on-call team.'), 'monitoring'), 'met');
  // Encrypted database backups are encrypted backups; encryption said not to be part of the services counts against.
  t.equal(
    level(
      read('A9.3.enc', 'Technical Measures: Encryption of database backups; Organizational Measures: timely deletion of personal data by the provider.'),
      'rest',
    ),
    'limited',
  );
  const notPart = read(
    'A9.3.enc',
    'Acme encrypts all customer data stored in its databases with AES-256.',
    'Pseudonymization and encryption of the controller’s data are generally not part of the services to be provided.',
  );
  t.equal(level(notPart, 'rest'), 'limited');
  // A question commits to nothing.
  t.equal(level(read('A30.3.f', 'How can a customer download its content and transfer it to another provider?'), 'migration'), 'none');
  t.equal(level(read('A30.3.f', 'Acme will assist the Customer in migrating its data to another provider.'), 'migration'), 'met');
  // The provider's own right to terminate gives the customer no termination right to limit.
  const providerOnly = read('A28.7', 'We may at our absolute discretion terminate your use of the Services without prior notice for any reason.');
  t.equal(level(providerOnly, 'customer-right'), 'none');
});

t.test("Art. 30(2)(a): a DPA's conditions on subprocessors of personal data are not conditions on subcontracting the ICT services", async (t) => {
  const dpaOnly = read(
    'A30.2.a',
    '“Services” means the hosted analytics platform Acme provides to Customer.',
    'Acme will ensure that any Subprocessors to which it transfers Personal Data enter into written agreements requiring that the Subprocessor abide by terms substantially similar to this DPA.',
  );
  t.equal(level(dpaOnly, 'subcontracting'), 'limited');
  t.equal(dpaOnly.status, 'partial');
  t.match(dpaOnly.rationale, /subprocessors of personal data only/);
  const services = read(
    'A30.2.a',
    '“Services” means the hosted analytics platform Acme provides to Customer.',
    'Acme may use subcontractors to provide the Services only under a written agreement imposing the same obligations as this Agreement, and Acme remains fully responsible for them.',
  );
  t.equal(level(services, 'subcontracting'), 'met', 'conditions on subcontracting the services themselves');
  t.equal(services.status, 'covered');
});

t.test("Article 17: what a customer's service-credit claim must list is not the provider's incident records", async (t) => {
  const claim = read(
    'A17',
    'To receive a Service Credit, the credit request must be received by us by the end of the second billing cycle after which the incident occurred and must include:',
    'i) the words "SLA Credit Request" in the subject line; ii) the dates and times of each Unavailability incident that you are claiming; iii) the affected team id; and iv) request logs that document the errors and corroborate your claimed outage',
  );
  t.equal(level(claim, 'records'), 'none');
  const logged = read('A17', 'Acme records, classifies and escalates every security incident according to its severity.');
  t.equal(level(logged, 'records'), 'met');
});

t.test('Article 30(2)(f): help with a leak or an unauthorised disclosure is incident assistance; a contract breach is not an incident', async (t) => {
  const leak = read('A30.2.f', 'Acme will cooperate with Customer in investigating any such Leak of Customer Data.');
  t.equal(level(leak, 'assistance'), 'met');
  const support = read('A30.2.f', 'In the event of unauthorised access to Customer Data by third parties, Acme must provide support to the Customer.');
  t.equal(level(support, 'assistance'), 'met');
  const remedy = read('A30.2.f', 'Acme shall reasonably cooperate with Customer to remedy any unauthorized disclosure of Customer Data.');
  t.equal(level(remedy, 'assistance'), 'met');
  const contract = read(
    'A30.2.f',
    'Either party may terminate this Agreement in the event of a material breach if, after written notice of the breach, the other party does not remedy the breach within thirty days.',
  );
  t.equal(level(contract, 'assistance'), 'none');
  // The customer's own right to act is not the provider's help ("retains the right" is a right).
  const own = read(
    'A30.2.f',
    'Customer retains the right to take reasonable and appropriate steps to stop and remediate unauthorized Processing of Personal Data.',
  );
  t.equal(level(own, 'assistance'), 'none');
  t.notOk(bindsAsNeeded('Customer retains the right to take reasonable steps to stop unauthorized Processing.', 'provider', ['Acme']));
});

t.test('Article 17: incidents investigated, contained or escalated are handled, short of a defined process; a disclaimer handles nothing', async (t) => {
  const handled = read('A17', 'Acme investigates and mitigates every security incident affecting the Services and escalates it to its engineers.');
  t.equal(level(handled, 'process'), 'partial');
  t.equal(handled.status, 'partial');
  const disclaimer = read(
    'A17',
    'Acme’s obligation to report or respond to a Breach under this Section will not be construed as an acknowledgment by Acme of any fault.',
  );
  t.equal(level(disclaimer, 'process'), 'none');
  const defined = read('A17', 'Acme maintains a documented incident response plan with defined roles and escalation procedures.');
  t.equal(level(defined, 'process'), 'met');
});

t.test(
  'Article 24: tests commissioned every so often or run by professional firms are regular or independent; a programme not yet running tests nothing',
  async (t) => {
    const cadence = read('A24', 'Acme will commission a detailed penetration test every 2 years, and an interim test every 6 months.');
    t.equal(level(cadence, 'regular-independent'), 'met');
    t.equal(cadence.status, 'covered');
    const firms = read('A24', 'Technical Measures: Penetration tests by professional IT security companies');
    t.equal(level(firms, 'regular-independent'), 'met');
    const planned = read('A24', 'A bug bounty program for Acme is currently under construction.');
    t.equal(level(planned, 'testing'), 'none');
  },
);

t.test('Article 9(4)(c): "only a few people have access" restricts access', async (t) => {
  const few = read('A9.4.c', 'Only a small handful of Acme engineers have access to production servers or sensitive customer data.');
  t.equal(level(few, 'least-privilege'), 'met');
  const everyone = read('A9.4.c', 'All Acme engineers have access to production servers.');
  t.equal(level(everyone, 'least-privilege'), 'none');
});

t.test('Article 9(4)(e): software updated regularly is part of patching, short of a patching process', async (t) => {
  const regular = read('A9.4.e', 'Acme keeps its servers secure with firewalls and regularly updated anti-malware software.');
  t.equal(level(regular, 'patching'), 'partial');
  t.equal(regular.status, 'partial');
  const process = read('A9.4.e', 'Acme will apply security patches to production systems within 14 days.');
  t.equal(level(process, 'patching'), 'met');
});

t.test("Article 30(3)(d): a customer who may not test without the provider's consent may test with it (partial)", async (t) => {
  const inline = read(
    'A30.3.d',
    "Client will not: (i) reverse engineer the Solution; (ii) resell the Solution; (iii) conduct security/vulnerability testing without Acme's prior written authorization.",
  );
  t.equal(level(inline, 'customer-testing'), 'partial');
  const listed = read('A30.3.d', 'You will not:', "- conduct security penetration tests or load tests on the Services without Acme's advance written consent;");
  t.equal(level(listed, 'customer-testing'), 'partial');
  const never = read('A30.3.d', 'You will not conduct security penetration tests on the Services.');
  t.equal(level(never, 'customer-testing'), 'none');
});

t.test("a vendor named 'Brand (Product)' goes by 'Brand' and 'Product' too: its own clauses bind it", async (t) => {
  t.same(vendorNamesOf('Weaviate (Weaviate Cloud)', 'Weaviate B.V.'), ['Weaviate (Weaviate Cloud)', 'Weaviate', 'Weaviate Cloud', 'Weaviate B.V.']);
  t.same(vendorNamesOf('GitHub', '', null, ' GitHub '), ['GitHub']);
});

t.test('limiting language in its usual contract forms; a restriction of what the provider does with the data is no limitation', async (t) => {
  for (const [clause, note] of [
    ['Acme will notify Customer within 24 hours after becoming aware of a security incident, on a best-effort basis.', /an effort, not a commitment/],
    ['Acme will notify Customer within 24 hours after becoming aware of a security incident, but is under no obligation to do so.', /not an obligation/],
    ['Acme will, in its reasonable discretion, notify Customer within 24 hours after becoming aware of a security incident.', /discretion/],
    ['Acme will notify Customer within 24 hours after becoming aware of a security incident, except where law enforcement asks otherwise.', /with exceptions/],
    [
      'Acme will notify Customer within 24 hours after becoming aware of a security incident, provided that Customer has registered a contact.',
      /subject to conditions/,
    ],
    ['Acme will generally notify Customer within 24 hours after becoming aware of a security incident.', /hedged/],
    ['Acme will notify Customer within 24 hours after becoming aware of a security incident to the extent practicable.', /only as far as needed/],
    [
      'Acme will notify Customer within 24 hours after becoming aware of a security incident; this only applies to incidents within its control.',
      /only in limited cases/,
    ],
  ] as const) {
    const r = read('A30.3.b', clause);
    t.equal(r.status, 'partial', clause);
    t.match(r.rationale, note, clause);
  }
  const plain = read('A30.3.b', 'Acme will notify Customer within 24 hours after becoming aware of a security incident affecting Customer Data.');
  t.equal(plain.status, 'covered');
  // Protective restrictions: what the provider may do with the data, and the customer's own burden.
  for (const clause of [
    'Acme shall treat Customer Data as confidential and shall use and disclose it only to the extent necessary to perform the Services.',
    'Acme shall keep Customer Data confidential, and Customer Data is stored solely in the region Customer selects.',
  ]) {
    t.equal(level(read('A30.2.c', clause), 'confidentiality'), 'met', clause);
  }
});

t.test('a security page written as bullets: labels, objectives without values, backup restore tests, MFA offered to users', async (t) => {
  // An item of a table of contents (one of the document's headings) is not a statement; the same words as an item of a list are.
  const page = (...blocks: { text: string; headings: string[] }[]) =>
    analyzeGaps([ob('A17')], splitSentences([{ id: 'sec', filename: 'security.md', title: 'Security', blocks }]), {
      minRelevance: 0,
      vendorNames: ['Acme'],
    })[0]!;
  const toc = page(
    { text: '- Incident Response', headings: ['Security'] },
    { text: '- Encryption', headings: ['Security'] },
    { text: 'We answer security questions by e-mail within one business day.', headings: ['Security', 'Incident Response'] },
  );
  t.equal(level(toc, 'process'), 'none', 'a table of contents entry');
  const item = page({ text: 'Our programme covers:', headings: ['Security'] }, { text: '- Incident Response', headings: ['Security'] });
  t.equal(level(item, 'process'), 'met', 'an item of a list that is no heading is read');
  // Recovery objectives are figures.
  const named = read(
    'A12',
    'Automated daily backups are kept for 30 days in a separate region.',
    'Disaster recovery procedures with defined RPO and RTO are in place.',
  );
  t.equal(level(named, 'objectives'), 'partial');
  t.match(named.rationale, /named without their values/);
  const valued = read(
    'A12',
    'Automated daily backups are kept for 30 days in a separate region.',
    'Our RTO is 4 hours and our RPO is 24 hours for all production systems.',
  );
  t.equal(level(valued, 'objectives'), 'met');
  // Restoring backups is not testing the continuity plans.
  const restore = read(
    'A11',
    'Acme maintains a business continuity and disaster recovery plan for the Service.',
    'Acme performs regular backup restoration testing of all databases.',
  );
  t.equal(level(restore, 'tested'), 'partial');
  t.equal(restore.status, 'partial');
  const drill = read(
    'A11',
    'Acme maintains a business continuity and disaster recovery plan for the Service.',
    'Acme tests its disaster recovery plan at least annually.',
  );
  t.equal(level(drill, 'tested'), 'met');
  // Backups kept elsewhere, or failover between zones, are the means to restore, not a contingency plan:
  // partial for Article 30(3)(c); plain backups are neither.
  for (const means of [
    'Customer data is backed up daily to a remote data center.',
    'The platform runs in two availability zones with automatic failover.',
    'Backups are kept under standard disaster recovery and backup rotation cycles.',
  ]) {
    const r = read('A30.3.c', means);
    t.equal(level(r, 'plan'), 'partial', means);
    t.equal(r.status, 'partial', means);
  }
  t.equal(read('A30.3.c', 'Acme performs automated backups of the database.').status, 'missing');
  // Article 30(3)(f): all the data handed over when the contract ends is a copy, not a transition period
  // (partial); returning or deleting personal data is not; migration help only as paid services is partial.
  const handover = read('A30.3.f', 'When the contractual relationship ends, Acme shall provide the Customer with all the data stored in its account.');
  t.equal(level(handover, 'transition-period'), 'partial');
  t.equal(
    read('A30.3.f', 'At the end of the agreement, Acme shall delete or return all personal data to the Customer.').status,
    'missing',
    'personal data returned or deleted is no exit arrangement',
  );
  // Article 28(7): the customer's right to terminate is a clause giving it ("You may terminate … by canceling your
  // account"), not any sentence that mentions termination and the customer (a deletion after termination).
  const deletion = read(
    'A28.7',
    'Acme will within thirty (30) days after termination or expiration of the Agreement close the account of the Client and delete any Client Data, except to the limited extent retention is required by law or persists solely in back-ups; any retained copies will remain subject to this Agreement.',
  );
  t.equal(level(deletion, 'customer-right'), 'none');
  t.equal(level(read('A28.7', 'You may terminate these Terms at any time by canceling your account.'), 'customer-right'), 'met');
  t.equal(level(read('A28.7', 'Customer can terminate an auto-renewal by providing written notice to Acme.'), 'customer-right'), 'met');
  // Article 24: a customer's own security scans ("may be performed by Customer") are not the provider's testing.
  t.equal(read('A24', 'External Security Scans may be performed by Customer independently or by its contractors on a regular basis.').status, 'missing');
  // Article 29(2): a subprocessor list given as bullets under its heading is a list; "where their facilities are
  // located" is not. Article 30(2)(b): "information technology" is no notice of a change of location.
  const bullets = readDocument('A29.2.sub', {
    id: 's',
    filename: 's.md',
    title: 's',
    blocks: [{ text: '- Amazon Web Services', headings: ['List of sub-processors used by Acme:'] }],
  });
  t.equal(level(bullets, 'list'), 'met');
  t.equal(
    level(read('A29.2.sub', 'Acme and its Subprocessors store and process Customer Data in Israel, where their facilities are located.'), 'list'),
    'none',
  );
  t.equal(
    level(read('A30.2.b', 'Acme may transfer the data of the card to a payment processor for information technology interaction.'), 'change-notice'),
    'none',
  );
  // Article 30(2)(e): "compensation, % of the service fee" for missed availability is a service credit.
  t.equal(level(read('A30.2.e', 'Service Uptime Percentage below 99.95%: compensation of 10% of the Service Fee for the Reporting Period.'), 'credits'), 'met');
  // Article 29(2): SCCs named only in a privacy policy (the vendor's own processing as controller) are no commitment for
  // the customer's data (limited); the same words in a DPA are one.
  const privacy = readDocument('A29.2.law', {
    id: 'p',
    filename: 'privacy.md',
    title: 'Privacy Policy',
    blocks: [{ text: 'Where personal data is transferred outside the EU/EEA, we rely on Standard Contractual Clauses.', headings: ['Transfers'] }],
  });
  t.equal(level(privacy, 'transfer-safeguards'), 'limited');
  t.equal(
    level(read('A29.2.law', 'Where personal data is transferred outside the EU/EEA, Acme relies on Standard Contractual Clauses.'), 'transfer-safeguards'),
    'met',
  );
  // A clause that opens on the law's requirement commits only as far as the law does.
  const lawOnly = read(
    'A29.2.sub',
    'Where required by Data Protection Laws, Acme will notify Customer prior to engaging any new subprocessor by updating its list.',
  );
  t.equal(level(lawOnly, 'change-notice'), 'limited');
  t.match(lawOnly.rationale, /only where the law requires it/);
  // Article 30(2)(h): a notice period written "at least 30 (thirty) calendar days before the expected date of termination".
  t.equal(
    level(
      read(
        'A30.2.h',
        'Acme has the right to terminate the Agreement by sending a written notice to the Customer at least 30 (thirty) calendar days before the expected date of termination.',
      ),
      'notice',
    ),
    'met',
  );
  // Article 30(2)(g): a confidentiality carve-out for disclosures the law or an authority compels is no cooperation
  // with the entity's competent authorities.
  t.equal(
    read(
      'A30.2.g',
      'The receiving party may disclose Confidential Information if it is required by any order of a court or other governmental or regulatory authority to be disclosed, and shall use commercially reasonable efforts to assist the disclosing party.',
    ).status,
    'missing',
  );
  // A cure period ("not remedied within thirty (30) days after receipt of written notice") is no notice period.
  t.not(
    level(
      read('A30.2.h', 'Either party may terminate for material breach if the breach is not remedied within thirty (30) days after receipt of written notice.'),
      'notice',
    ),
    'met',
  );
  // Encryption at rest of "Key Data" only is not of the customer's data as a whole.
  t.equal(level(read('A9.3.enc', 'Key Data stored on Acme’s servers is encrypted in regards to Personal Information at rest.'), 'rest'), 'limited');
  // Article 17: an onboarding session that covers incident response is training, not an incident process.
  t.equal(
    level(read('A17', 'All employees take part in a security onboarding session that covers topics such as phishing and incident response.'), 'process'),
    'none',
  );
  // Article 28(7): a right to terminate where the law or a regulator requires it is a termination right that names
  // them, not a deletion after termination that keeps data "where required by law"; "will have the right" is a right.
  t.equal(
    level(
      read(
        'A28.7',
        'Acme will within thirty (30) days after termination or expiration of the Agreement close the account of the Client maintained on the IT systems of Acme and delete or destroy any Client Data, except to the limited extent retention is required by law or persists solely in back-ups; any retained copies will remain subject to this Agreement.',
      ),
      'regulatory',
    ),
    'none',
  );
  t.equal(
    level(
      read('A28.7', 'If Acme must implement a material change for legal or regulatory reasons, Client may terminate the affected Subscription.'),
      'regulatory',
    ),
    'limited',
  );
  t.equal(
    level(
      read('A28.7', 'Each party will have the right to terminate this Agreement if the other party breaches this Agreement and fails to cure such breach.'),
      'for-breach',
    ),
    'met',
  );
  // Article 30(2)(b): data that "may be processed, hosted and stored" in the United States or Europe names
  // possible locations, not the ones used (partial); a cookie notice's "may be stored" stays out.
  const possible = read(
    'A30.2.b',
    'Customer consents that Customer Data may be processed, hosted and stored from locations either in the United States or Europe, depending on its domicile.',
  );
  t.equal(level(possible, 'location'), 'partial');
  t.equal(read('A30.2.b', 'Cookies may be stored on servers in the United States.').status, 'missing');
  const paid = read('A30.3.f', 'Migration or other transition services requested on termination shall be ordered as Consultancy Services.');
  t.equal(level(paid, 'migration'), 'partial');
  // Multi-factor authentication offered to the customer's users is no control on the provider's own access.
  const offered = read(
    'A9.4.c',
    'Access to production systems is restricted to authorised personnel on a least privilege basis.',
    'Multi-factor authentication is available for all account access.',
  );
  t.equal(level(offered, 'strong-auth'), 'limited');
  const enforced = read(
    'A9.4.c',
    'Access to production systems is restricted to authorised personnel on a least privilege basis.',
    'Multi-factor authentication is enforced for all staff and is available to customers.',
  );
  t.equal(level(enforced, 'strong-auth'), 'met');
});

t.test("an SLA's credit tiers are the remedy, not the commitment; 'reasonable commercial efforts' is an effort", async (t) => {
  const sla = read(
    'A30.2.e',
    'Acme shall use all reasonable commercial efforts to ensure that the Service is available 99.99% of the time in any calendar month.',
    'Monthly Uptime Percentage: < 99.99% – >= 99.90%; Days of Service: 3',
    'Monthly Uptime Percentage: < 99.90%; Days of Service: 7',
    'If availability falls below 99.99%, Customer receives service credits.',
  );
  t.equal(level(sla, 'uptime'), 'limited');
  t.match(sla.rationale, /commercially reasonable efforts/);
  const firm = read(
    'A30.2.e',
    'Acme will make the Service available 99.99% of the time in any calendar month.',
    'Monthly Uptime Percentage: < 99.99% – >= 99.90%; Days of Service: 3',
    'If availability falls below 99.99%, Customer receives service credits.',
  );
  t.equal(level(firm, 'uptime'), 'met');
  // The same for Article 30(3)(a)'s quantitative target, and a tier written as a range ("99.50 - 98.50 %").
  const tiers = read(
    'A30.3.a',
    'Availability: 99.50 - 98.50 %; Service credit: 10 % of the hosting fee.',
    'Availability: < 97.00 %; Service credit: 50 % of the hosting fee.',
  );
  t.not(level(tiers, 'quantitative'), 'met', 'credit tiers are no target');
  const target = read('A30.3.a', 'The agreed availability of the hosting is 99.5 % measured on an annual basis.');
  t.equal(level(target, 'quantitative'), 'met');
});

t.test("'It is your responsibility to export your data' is the customer's duty, not the provider's return of data", async (t) => {
  const duty = read('A30.2.d', 'It is your responsibility to export your data prior to termination.');
  t.equal(level(duty, 'return'), 'none');
  const solely = read('A30.2.d', 'Customer is solely responsible for exporting its data before the end of the subscription.');
  t.equal(level(solely, 'return'), 'none');
  const provider = read('A30.2.d', 'Upon termination, Acme will return all Customer Data to Customer in CSV format within 30 days.');
  t.equal(level(provider, 'return'), 'met');
});

t.test('Article 30(3)(b): a notice of personal data breaches only is partial; incidents affecting the service or its data are covered', async (t) => {
  const personal = read(
    'A30.3.b',
    'In the event of a confirmed Personal Data breach, Acme shall notify the Customer no later than 72 hours after becoming aware of it.',
  );
  t.equal(personal.status, 'partial');
  t.match(personal.rationale, /personal data only/);
  const incidents = read(
    'A30.3.b',
    'Acme shall notify the Customer of any security incident affecting the Service no later than 24 hours after becoming aware of it.',
  );
  t.equal(incidents.status, 'covered');
});

t.test("'the Controller shall be entitled to carry out an audit' is the customer's right; internal audits are no security testing", async (t) => {
  const right = read(
    'A30.3.e',
    'The Controller shall be entitled on 30 days’ written notice to carry out an audit of the Processor’s processing, including inspections of its premises.',
  );
  t.not(level(right, 'audit-right'), 'none');
  t.ok(right.evidence.some((e) => /shall be entitled/.test(e.quote)));
  t.ok(bindsAsNeeded('The Controller shall be entitled to carry out an audit.', 'customer'));
  const internal = read('A24', 'We perform regular internal audits and management reviews of our information security management system.');
  t.equal(internal.status, 'missing');
  const external = read('A24', 'We undergo regular independent security audits of our information security management system.');
  t.equal(level(external, 'testing'), 'partial');
});

t.test("Article 30(2)(f): help with personal data breaches only (a DPA's) is partial; help with any incident is met", async (t) => {
  const dpa = read('A30.2.f', 'Acme will investigate the personal data breach and provide the Customer with reasonable assistance at no additional cost.');
  t.equal(level(dpa, 'assistance'), 'limited');
  t.match(dpa.rationale, /personal data only/);
  const any = read('A30.2.f', 'Acme will assist the Customer in investigating and mitigating any ICT incident affecting the Service at no additional cost.');
  t.equal(level(any, 'assistance'), 'met');
});

t.test('Article 17: incidents recorded, not logs watched for incidents; a definition with a colon; advice to the customer', async (t) => {
  const watched = read(
    'A17',
    'Acme maintains an incident response plan for handling security incidents. These logs are monitored to detect and respond to potential security incidents.',
  );
  t.equal(level(watched, 'records'), 'none', 'logs monitored for incidents are not a record of incidents');
  t.equal(watched.status, 'partial');
  const logged = read(
    'A17',
    'Acme maintains an incident response plan for handling security incidents. All security incidents are logged and classified by severity.',
  );
  t.equal(logged.status, 'covered');
  const alerts = read(
    'A17',
    'Acme maintains an incident response plan for handling security incidents. Alerts are triggered by any security events and answered by the on-call team.',
  );
  t.equal(level(alerts, 'records'), 'met', 'alerts on security events are escalations');
  const defined = read(
    'A17',
    'Acme maintains an incident response plan for handling security incidents.',
    '- “Personal Data Breach”: any breach of security that leads to the destruction, loss or disclosure of personal data, recorded or not.',
  );
  t.equal(level(defined, 'records'), 'none', 'a definition with a colon says what a word means, not what anyone does');
  const advice = readDocument('A9.4.c', {
    id: 'policy',
    filename: 'policy.md',
    title: 'Data Protection Policy',
    blocks: [
      { text: 'Access to your information is restricted to specific employees.', headings: ['Safeguarding measures'] },
      {
        text: 'Two-factor authentication provides an additional layer of protection on top of the password.',
        headings: ['Your account', 'Setting up two-factor authentication'],
      },
    ],
  });
  t.equal(level(advice, 'strong-auth'), 'none', "a section telling the customer how to secure its own account is not the provider's control");
});

t.test("encryption stated only in a privacy policy; a data subject's erasure request; subprocessor notice only on a web site", async (t) => {
  const privacy = readDocument('A9.3.enc', {
    id: 'privacy',
    filename: 'privacy.md',
    title: 'Privacy Policy',
    blocks: [{ text: 'We protect your Personal Data with encryption of data in transit and at rest.', headings: ['How we protect your information'] }],
  });
  t.equal(privacy.status, 'partial', "a privacy policy speaks of the vendor's own processing as controller");
  t.match(privacy.rationale, /privacy policy/);
  const dsar = read('A28.8', 'Requests to access, change, or delete Personal Data will be addressed within 30 days.');
  t.equal(level(dsar, 'deletion'), 'none', "answering a data subject's request is no deletion at exit");
  const posted = read(
    'A29.2.sub',
    'Our subprocessors are listed at https://trust.acme.example/subprocessors. Acme provides at least ten (10) days’ prior written notice of the addition of any Subprocessor by means of a notice on the Acme Subprocessors website. Customer may object to a new Subprocessor within ten (10) days.',
  );
  t.equal(level(posted, 'change-notice'), 'limited', 'a notice on a web page is no notice to the customer');
  const mailed = read(
    'A29.2.sub',
    'Our subprocessors are listed at https://trust.acme.example/subprocessors. Acme will notify the Customer by e-mail at least ten (10) days before engaging any new Subprocessor. Customer may object to a new Subprocessor within ten (10) days.',
  );
  t.equal(level(mailed, 'change-notice'), 'met');
});

t.test(
  'governing law: courts for one group of customers only; a jurisdiction where use is prohibited is no forum; a list updated before a change',
  async (t) => {
    const usOnly = read(
      'A29.2.law',
      'For parties residing in the United States, the exclusive jurisdiction and venue for any claims arising out of this Agreement is in the state and federal courts located in San Francisco, California.',
    );
    t.equal(level(usOnly, 'forum'), 'limited', 'a forum stated only for customers in one country');
    const prohibited = read(
      'A29.2.law',
      'Customer shall not use the Services if Customer is located in any jurisdiction in which the provision of the Services is prohibited under applicable laws.',
    );
    t.equal(level(prohibited, 'forum'), 'none');
    t.equal(level(prohibited, 'governing-law'), 'none');
    const courts = read('A29.2.law', 'All disputes are subject to the exclusive jurisdiction of the courts of Dublin, Ireland.');
    t.equal(level(courts, 'forum'), 'met');
    t.equal(level(courts, 'governing-law'), 'none', 'a court is not the law the contract is governed by');
    const updated = read(
      'A29.2.sub',
      'The current list of Acme Sub-processors is available at https://acme.example/subprocessors. Acme shall update the Sub-processor List before authorizing any new Sub-processor to process personal data. The Customer may object to a new Sub-processor within ten business days.',
    );
    t.equal(level(updated, 'change-notice'), 'limited', 'updating a published list is no notice to the customer');
  },
);

t.test("confidentiality of personal data only (a DPA's personnel clause) does not protect the customer's data as a whole", async (t) => {
  const personnel = read('A30.2.c', 'Acme shall ensure that persons authorised to process the personal data have committed themselves to confidentiality.');
  t.equal(level(personnel, 'confidentiality'), 'limited');
  const mutual = read(
    'A30.2.c',
    "Each party shall keep the other party's Confidential Information, including Customer Data, in strict confidence and protect it with at least reasonable care.",
  );
  t.equal(level(mutual, 'confidentiality'), 'met');
});

t.test('confidentiality is an undertaking to keep information confidential, not any sentence that names the word', async (t) => {
  for (const passing of [
    'If you provide any suggestions to us, we will own all right, title, and interest in them, even if you have designated the suggestions as confidential.',
    'Logs you submit must be complete; any confidential or sensitive information in these logs should be removed.',
    'By submitting any Idea, you agree that your disclosure will not place Acme under any fiduciary or other obligation, whether or not marked confidential.',
  ]) {
    t.equal(level(read('A30.2.c', passing), 'confidentiality'), 'none', passing);
  }
  for (const undertaking of [
    "Neither party shall disclose the other party's Confidential Information to any third party.",
    'Both parties shall retain in confidence all Confidential Information disclosed or made available by the other party.',
    'The receiving party shall use Confidential Information solely for the purpose of performing its obligations under the Agreement.',
  ]) {
    t.equal(level(read('A30.2.c', undertaking), 'confidentiality'), 'met', undertaking);
  }
});

t.test('notice of a new subcontractor needs an advance period or prior consent', async (t) => {
  const bare = read('A29.2.sub', 'Acme shall inform the Customer of any intended changes concerning the addition or replacement of Sub-processors.');
  t.equal(level(bare, 'change-notice'), 'limited');
  t.match(bare.rationale, /no advance period/);
  for (const timed of [
    'Acme will notify the Customer by email at least thirty (30) days before engaging any new Sub-processor.',
    'Acme shall inform the Customer in text form of any new Sub-processor before it starts processing Customer Data.',
    "Acme shall inform the Customer of any new Sub-processor and shall not engage it without the Customer's prior written consent.",
  ]) {
    t.equal(level(read('A29.2.sub', timed), 'change-notice'), 'met', timed);
  }
});

t.test("encryption stated for less than the customer's data, or left to the customer or a plan, is limited", async (t) => {
  for (const narrow of [
    'We protect the personal information we collect about you with encryption in transit and at rest.',
    'Acme encrypts payment card data in transit and at rest.',
    'Encryption at rest is available on the Enterprise plan, and all data in transit is encrypted with TLS 1.2 or higher.',
  ]) {
    t.equal(read('A9.3.enc', narrow).status, 'partial', narrow);
  }
  const optional = read(
    'A9.3.enc',
    'Customers can enable encryption at rest for their databases, and all traffic between clients and the service is encrypted with TLS.',
  );
  t.not(optional.status, 'covered', 'encryption the customer may enable');
  t.equal(read('A9.3.enc', 'Acme encrypts all Customer Data in transit using TLS 1.2 or higher and at rest using AES-256.').status, 'covered');
});

t.test("the host's plans and tests, the customer's own audit log and a recommendation to the customer are not the provider's commitment", async (t) => {
  t.equal(read('A30.3.c', 'Our cloud provider AWS maintains business continuity and disaster recovery plans for its data centers.').status, 'missing');
  t.equal(read('A30.3.d', 'Our hosting provider performs regular penetration tests of its infrastructure.').status, 'missing');
  t.equal(read('A30.3.c', 'Acme maintains a business continuity and disaster recovery plan for the Service.').status, 'partial', "the provider's own plan");
  t.equal(read('A30.3.e', 'You may audit your own usage through the audit log available in the dashboard.').status, 'missing');
  t.equal(read('A12', 'We recommend that you regularly back up your content; we do not guarantee that backups will be available.').status, 'missing');
  t.equal(read('A12', 'Acme performs regular backups of Customer Data.').status, 'partial', "the provider's own backups");
});

t.test("security measures committed for personal data only do not protect the customer's data as a whole (Article 30(2)(c))", async (t) => {
  const personal = read(
    'A30.2.c',
    'Acme shall implement appropriate technical and organisational measures to protect the Personal Data against accidental loss.',
  );
  t.equal(level(personal, 'security-measures'), 'limited');
  t.match(personal.rationale, /personal data only/);
  const dpa = {
    id: 'dpa',
    filename: 'dpa.md',
    title: 'Data Processing Addendum',
    blocks: [
      {
        text: 'Acme will maintain appropriate technical and organizational measures designed to protect Customer Data against accidental or unlawful destruction.',
        headings: ['Data Processing Addendum', 'Security'],
      },
    ],
  };
  t.equal(level(readDocument('A30.2.c', dpa), 'security-measures'), 'met', "a DPA clause for the customer's data as a whole");
});

t.test('service credits as the sole and exclusive remedy are no corrective action (Article 30(3)(a))', async (t) => {
  const sla = [
    'Acme commits to maintain at least 99.9% monthly uptime, measured by its external monitoring.',
    'If Acme does not meet the uptime commitment, Customer will be entitled to service credits.',
  ];
  t.equal(read('A30.3.a', ...sla).status, 'covered');
  const sole = read('A30.3.a', ...sla, 'Service credits are the sole and exclusive remedy for any failure by Acme to meet the uptime commitment.');
  t.equal(level(sole, 'corrective'), 'limited');
  t.match(sole.rationale, /sole remedy/);
});

t.test("testing only as needed or only planned, and a host's monitoring, are not the provider's commitment", async (t) => {
  t.equal(read('A24', 'We engage third-party security experts to perform penetration tests as needed.').status, 'partial');
  t.equal(read('A24', 'We plan to conduct an independent penetration test later this year.').status, 'partial');
  t.equal(read('A24', 'Acme engages an independent third party to perform a penetration test of the Service at least annually.').status, 'covered');
  t.not(read('A10', 'Our hosting provider AWS monitors its infrastructure for intrusions and keeps access logs.').status, 'covered');
  t.equal(
    read('A10', 'Acme monitors its systems 24/7 for security threats and alerts the on-call team, and logs all administrative access to production systems.')
      .status,
    'covered',
  );
});

t.test('a control named in passing is no evidence of it: purposes of data use, copies left in backups', async (t) => {
  const purposes = read(
    'A9.4.c',
    'We use this information for legitimate business purposes, such as account management, multi-factor authentication of your account, and fraud prevention.',
  );
  t.equal(level(purposes, 'strong-auth'), 'none', 'a purpose of data use');
  t.equal(level(read('A9.4.c', 'All Acme staff must use multi-factor authentication to access production systems.'), 'strong-auth'), 'met');
  const carveOut = read(
    'A12',
    'The Receiving Party may retain copies required to be kept under applicable law or stored in routine electronic backup systems, provided that such copies remain confidential.',
  );
  t.equal(carveOut.status, 'missing', 'copies left in backups after deletion');
});

t.test('a window to get the data after account closure is a partial exit period (Article 30(3)(f))', async (t) => {
  const closure = read('A30.3.f', 'For 30 days after account closure, you may request an export of your Customer Data by emailing support.');
  t.equal(level(closure, 'transition-period'), 'partial');
  t.equal(closure.status, 'partial');
});

t.test('a way to report vulnerabilities is no testing; scans, incidents handled and a standard followed are partial evidence', async (t) => {
  const vdp = read('A24', 'We welcome reports from independent security researchers through our vulnerability disclosure policy.');
  t.equal(vdp.status, 'partial');
  t.match(vdp.rationale, /no testing is commissioned/);
  t.equal(read('A24', 'We run a public bug bounty program on HackerOne and commission an annual penetration test from an external firm.').status, 'covered');
  t.equal(read('A24', 'When developing or deploying code, we scan for vulnerabilities before pushing to production.').status, 'partial');
  t.equal(read('A17', 'Security incidents are handled by our engineering team as they arise.').status, 'partial');
  t.equal(read('A28.5', 'We follow ISO 27001 best practices in our information security program.').status, 'partial');
});

t.test("the provider's own security training in the wordings of security pages (Article 30(2)(i))", async (t) => {
  for (const text of [
    '- Security training during onboarding and at least annually thereafter, covering data handling, phishing and incident response.',
    'We run regular training and awareness programs so that our team understands its data protection obligations.',
    'All employees take part in a security onboarding session in their first week.',
  ]) {
    t.equal(level(read('A30.2.i', text), 'own-training'), 'met', text);
  }
});

t.test('backups stated in the passive or as procedures are partial evidence of backups (Article 12)', async (t) => {
  for (const text of [
    'Back-ups of customer content are kept under our standard archiving procedures.',
    'Control plane services of the managed environment are backed up and restored by Acme.',
    'Acme maintains backup procedures and remote storage for the data it processes.',
  ]) {
    t.equal(level(read('A12', text), 'backup'), 'partial', text);
  }
});

t.test('running in several availability zones with failover is partial continuity evidence (Article 11)', async (t) => {
  const zones = read(
    'A11',
    'Acme operates in two availability zones and uses load balancing across them, so that traffic is routed to healthy components if one fails.',
  );
  t.equal(level(zones, 'plan'), 'partial');
  t.equal(
    read('A11', 'For these customers, all production data centers and disaster recovery sites will reside in Canada.').status,
    'missing',
    'where DR sites are is no plan',
  );
});

t.test('a subset of a standard adopted, or compliance audits against standards, are partial evidence without a certificate (Article 28(5))', async (t) => {
  for (const text of [
    'Acme commits to embed security in company processes by adopting a representative subset of the ISO 27001 Information Security Framework.',
    'Acme audits its compliance with data protection and information security standards on a regular basis.',
  ]) {
    t.equal(read('A28.5', text).status, 'partial', text);
  }
});

t.test('a notice of non-renewal before the end of the term is a notice period (Article 30(2)(h))', async (t) => {
  const breach = 'Either party may terminate for material breach if the breach is not remedied within thirty (30) days after receipt of written notice.';
  for (const renewal of [
    'Renewal will occur automatically unless either party provides written notice of non-renewal at least thirty (30) days before the end of the current term.',
    'The Term will automatically renew unless you or we notify the other of its desire to non-renew the Term at least 30 days prior to the end of the current Term.',
  ]) {
    t.equal(read('A30.2.h', renewal, breach).status, 'covered', renewal);
  }
});

t.test("TLS in its long form ('utilizes transport layer security') ranks as evidence of encryption in transit", async (t) => {
  const whitepaper = doc(
    'whitepaper',
    'The platform is composed of a web application, an API service and a set of background workers that run in isolated containers.',
    'All network communication between platform components and with external clients utilizes transport layer security with enforced minimum protocol versions.',
    'The platform encrypts data at rest using provider-managed encryption services.',
    'Secrets are protected with envelope encryption, and customers may rotate their own keys from the settings page of the console.',
    'Deployments are rolled out gradually and monitored, and a failed deployment is rolled back automatically without any downtime.',
  );
  const [r] = analyzeGaps([ob('A9.3.enc')], splitSentences([whitepaper]));
  t.equal(r!.elements.find((e) => e.id === 'transit')!.level, 'met');
});

t.test('a contract the provider changes on its own (continued use as acceptance) is no fixed written agreement', async (t) => {
  const entire = 'This Agreement, including the Service Level Agreement, constitutes the entire agreement between the parties.';
  t.equal(level(read('A30.1', entire), 'written'), 'met');
  const revised = read(
    'A30.1',
    entire,
    'We will notify you by e-mail at least 30 days before material changes to these Terms take effect. Your continued use of the Service after the effective date constitutes acceptance of the updated Terms.',
  );
  t.equal(level(revised, 'written'), 'limited', 'a notice period does not make the change mutual');
  t.match(revised.rationale, /continued use counts as acceptance/);
  const replaced = read('A30.1', entire, 'We reserve the right, at our sole discretion, to modify or replace these Terms at any time.');
  t.equal(level(replaced, 'written'), 'limited');
  const trial = read(
    'A30.1',
    entire,
    'If Customer continues to use the Services after the trial period, this will be deemed acceptance of the paid version of the Services.',
  );
  t.equal(level(trial, 'written'), 'met', 'continued use after a trial is no change of the terms');
});

t.test('a loose list under a negated lead-in, nested lists read flat: what the service does not provide is no commitment', async (t) => {
  const md = [
    '## Managed Services',
    '',
    '1. Acme operates the customer environment.',
    '',
    '2. The Managed Service does not provide:',
    '',
    '   1. For managed infrastructure:',
    '',
    '      1. Monitoring of applications running within virtual machines',
    '',
    '   2. Alternative scheduling of updates',
    '',
    "   3. Adherence to the Customer's change management requirements and change control procedures",
    '',
  ].join('\n');
  const parsed = parseMarkdown(md);
  t.ok(
    parsed.blocks.some((b) => b.text.startsWith('- Alternative scheduling')),
    'an item of a loose list keeps its marker',
  );
  const document = { id: 'sla', filename: 'sla.md', title: 'SLA', blocks: parsed.blocks };
  t.equal(level(readDocument('A9.4.e', document), 'change'), 'none');
  t.equal(level(read('A9.4.e', 'As a normal business practice, Acme performs peer reviews on a percentage of all support cases.'), 'change'), 'none');
  t.equal(level(read('A9.4.e', 'Every code change is peer reviewed before it is deployed to production.'), 'change'), 'met');
  t.equal(level(read('A10', 'Managed Services include 24/7 monitoring, excluding security-related monitoring.'), 'monitoring'), 'limited');
  t.equal(level(read('A17', 'Acme provides (non-security) incident management for the managed environment.'), 'process'), 'limited');
});

t.test('an operational transfer or hand-over at the end of the term is transition help', async (t) => {
  const handover = 'At the end of the service term, Acme will initiate an operational transfer and hand over all credentials to the Customer.';
  t.equal(level(read('A28.8', handover), 'transition'), 'met');
  t.equal(level(read('A30.3.f', handover), 'migration'), 'met');
  t.equal(level(read('A28.8', 'Acme will hand over the keys to its office to the landlord.'), 'transition'), 'none', 'a hand-over that is no exit');
});

t.test(
  'a right to disclose to authorities notwithstanding confidentiality is neither cooperation nor confidentiality; a privacy policy on logs, an account option',
  async (t) => {
    const disclose =
      'In compliance with the inquiry, request, order, or direction of any governmental authorities, regulators or other competent authorities, and notwithstanding any confidentiality obligations set forth in these Terms, Acme will be entitled to render cooperation to the aforementioned authorities, including providing the relevant information to such regulators.';
    t.equal(read('A30.2.g', disclose).status, 'missing');
    t.equal(level(read('A30.2.c', disclose), 'confidentiality'), 'none');
    t.equal(level(read('A30.2.c', 'All arbitration proceedings between the parties will be confidential.'), 'confidentiality'), 'none');
    const privacy = readDocument('A10', {
      id: 'p',
      filename: 'privacy.md',
      title: 'Privacy Policy',
      blocks: [
        {
          text: 'We collect log metadata associated with your interactions with the Acme website and keep access logs of our systems.',
          headings: ['Privacy Policy'],
        },
      ],
    });
    t.equal(level(privacy, 'logging'), 'limited', "a privacy policy's logs are the vendor's own processing");
    t.equal(
      level(read('A9.4.c', 'If you activate account verification, we will send you SMS alerts and two-factor authentication codes.'), 'strong-auth'),
      'limited',
      'two-factor authentication the user may activate for its own account',
    );
  },
);

t.test("terms for another region's customers or for consumers do not bind the provider towards an EU financial entity", async (t) => {
  const regional = readDocument('A30.3.b', {
    id: 't',
    filename: 'terms.md',
    title: 'Terms',
    blocks: [
      {
        text: 'Acme will notify Customer within 24 hours after becoming aware of a security incident affecting Customer Data.',
        headings: ['Acme Cloud South Korea Terms'],
      },
    ],
  });
  t.equal(regional.status, 'missing');
  const general = readDocument('A30.3.b', {
    id: 't',
    filename: 'terms.md',
    title: 'Terms',
    blocks: [
      {
        text: 'Acme will notify Customer within 24 hours after becoming aware of a security incident affecting Customer Data.',
        headings: ['Acme Cloud Terms of Service'],
      },
    ],
  });
  t.equal(general.status, 'covered');
});

t.test("termination for the provider's breach is no customer right to terminate on notice; the customer's own regulators", async (t) => {
  const forBreach = read(
    'A28.7',
    "Customer may terminate this Agreement with immediate effect if Acme commits a material breach, or where required by Customer's competent authority.",
  );
  t.equal(level(forBreach, 'customer-right'), 'none');
  t.equal(forBreach.status, 'partial');
  t.equal(level(read('A28.7', 'Customer may terminate this Agreement for convenience at any time on thirty days written notice.'), 'customer-right'), 'met');
  const regulators = read(
    'A30.3.e',
    "Customer and its regulators shall have the right to access, inspect and audit Acme's premises, systems and records relating to the Services, upon reasonable notice.",
  );
  t.equal(level(regulators, 'authority-access'), 'met');
  t.equal(regulators.status, 'covered');
});

t.test('the clause is quoted before a heading-like fragment; a commitment subject to its own clause is not limited', async (t) => {
  const law = read(
    'A29.2.law',
    '(e) Governing Law and Dispute Resolution.',
    'These Terms and any dispute arising out of them will be governed by the laws of England and Wales.',
  );
  const quoted = law.evidence.find((e) => e.element === 'governing-law')!;
  t.match(quoted.quote, /laws of England and Wales/, 'the clause, not the heading, is the evidence');
  const own = read(
    'A29.2.sub',
    'Customer grants Acme general written authorisation to engage the Sub-processors listed at https://acme.example/subprocessors to process Personal Data, subject to the requirements of this clause 8.',
  );
  t.equal(level(own, 'list'), 'met');
});

t.test("a host's testing is not the provider's; an audit under way is no report", async (t) => {
  const host = read('A24', 'Our platform provider, AWS, conducts regular penetration testing of its infrastructure.');
  t.equal(host.status, 'missing');
  t.match(host.rationale, /host's or a subprocessor's testing/);
  const own = read('A24', 'Acme engages an independent third-party security firm to perform penetration tests of the Services at least annually.');
  t.equal(own.status, 'covered');
  t.equal(read('A28.5', 'Acme is currently undergoing its SOC 2 Type I audit.').status, 'missing');
});

t.test('governing law and the forum for disputes are read apart: a law without a court, a court of competent jurisdiction, arbitration', async (t) => {
  const lawOnly = read('A29.2.law', 'This Agreement shall be governed by and construed in accordance with the laws of the State of Delaware.');
  t.equal(level(lawOnly, 'governing-law'), 'met');
  t.equal(level(lawOnly, 'forum'), 'none', 'no court, venue or arbitration is named');
  t.equal(lawOnly.status, 'partial');
  const severability = read(
    'A29.2.law',
    'If any provision of this Agreement is held invalid by a court of competent jurisdiction, the remaining provisions will remain in full force and effect.',
  );
  t.equal(level(severability, 'forum'), 'none', 'a court of competent jurisdiction in a severability clause is no forum');
  const arbitration = read(
    'A29.2.law',
    'Any dispute arising out of this Agreement shall be finally settled by arbitration administered by the Arbitration Institute of the Stockholm Chamber of Commerce, seated in Stockholm.',
  );
  t.equal(level(arbitration, 'forum'), 'met');
  const sccCourts = read('A29.2.law', 'Standard Contractual Clauses. Any dispute arising from these Clauses shall be resolved by the courts of Ireland.');
  t.equal(level(sccCourts, 'forum'), 'limited', "the SCCs' courts are not the contract's");
});

t.test(
  'usual synonyms: least access, unusual activity, review and approve, current backups; transition only as paid services; additions to a list as notice',
  async (t) => {
    t.equal(
      level(
        read('A9.4.c', 'We maintain a principle of least access, meaning people and systems only get the permissions they actually need.'),
        'least-privilege',
      ),
      'met',
    );
    t.equal(
      level(read('A10', 'We monitor our systems for unusual activity and have automated alerts set up for potential security issues.'), 'monitoring'),
      'met',
    );
    t.equal(level(read('A9.4.e', 'Any changes to production systems require at least 2 team members to review and approve.'), 'change'), 'met');
    t.equal(level(read('A12', 'We maintain current backups of all critical data.'), 'backup'), 'partial', 'backups without a frequency or retention');
    t.equal(level(read('A12', 'The Customer shall make reasonable backup copies of its data.'), 'backup'), 'none', "the customer's own backups");
    const paid = read(
      'A28.8',
      'Any work in connection with termination of the Agreement, such as migration or other transition services, shall be ordered as Consultancy Services.',
    );
    t.equal(level(paid, 'transition'), 'limited');
    const additions = read(
      'A29.2.sub',
      'Acme will maintain an up-to-date list of sub-processors on its website, and any additions to this list will serve as official notice to the Controller. The Controller may object to a new sub-processor within 30 days following the notification.',
    );
    t.equal(level(additions, 'change-notice'), 'limited');
  },
);

t.test('a web address beginning https:// is no encryption in transit', async (t) => {
  const url = read('A9.3.enc', 'We use all data in accordance with our privacy policy found at https://acme.example/privacy.');
  t.equal(level(url, 'transit'), 'none');
  const tls = read('A9.3.enc', 'All connections to the Service are encrypted with TLS 1.2 or higher.');
  t.equal(level(tls, 'transit'), 'met');
});

t.test('Article 30(3)(b): a breach of the contract and its cure period are no security incident notice', async (t) => {
  const contract = read(
    'A30.3.b',
    'We may suspend or terminate your account if you materially breach these Terms and do not cure the breach within 15 days of our notice, and we will notify you of the suspension.',
  );
  t.equal(level(contract, 'incident-notice'), 'none');
  t.equal(level(contract, 'timing'), 'none');
  const security = read('A30.3.b', 'Acme will notify the Customer of any security breach affecting Customer Data within 48 hours.');
  t.equal(security.status, 'covered');
});

t.test("Article 28(7): a party's right named as a noun, a termination in the passive by the customer's administrator, 'cancel your Paid Plan'", async (t) => {
  t.ok(bindsAsNeeded('Both Parties’ rights to terminate the Agreement without notice with good cause are not affected.', 'customer'));
  t.ok(bindsAsNeeded('A subscription can be terminated by a team administrator via the account management.', 'customer'));
  t.notOk(bindsAsNeeded('A subscription can be terminated at any time.', 'customer'), 'no one named: not a right of the customer');
  const goodCause = read('A28.7', 'Both Parties’ rights to terminate the Agreement without notice with good cause are not affected.');
  t.equal(level(goodCause, 'for-breach'), 'met');
  const plan = read('A28.7', 'You can cancel your Paid Plan at any time, and you will be able to upload new Data through the end of your billing period.');
  t.equal(level(plan, 'customer-right'), 'met');
  const admin = read('A28.7', 'A subscription can be terminated by a team administrator via the account management.');
  t.equal(level(admin, 'customer-right'), 'met');
});

t.test('an aspiration is no certificate; notice before a "change of location"', async (t) => {
  for (const text of [
    'Acme is working towards SOC 2 compliance.',
    'As we grow, this policy will evolve to meet compliance requirements like SOC 2 and ISO 27001 certification.',
  ])
    t.equal(read('A28.5', text).status, 'missing', text);
  t.equal(read('A28.5', 'Acme holds a SOC 2 Type II report and is ISO 27001 certified.').status, 'covered');
  const notice = read(
    'A30.2.b',
    'Acme stores and processes Customer Data only in Germany and will give Customer 90 days’ notice before any change of location.',
  );
  t.equal(level(notice, 'change-notice'), 'met');
});

t.test('"where required by applicable law" anywhere in the clause; regular scanning alone is no independent testing', async (t) => {
  const law = read('A30.3.b', 'Acme will notify Customer of security incidents within 72 hours where required by applicable law.');
  t.equal(law.status, 'partial');
  t.match(law.rationale, /only where the law requires it/);
  const scans = read('A24', 'Acme performs regular vulnerability scans of its infrastructure.');
  t.equal(level(scans, 'regular-independent'), 'limited');
  const pentest = read('A24', 'Acme engages an independent third party to perform penetration tests of the Service at least annually.');
  t.equal(pentest.status, 'covered');
});

t.test('a commitment for some plans or customers only; "to the best of its knowledge and ability"', async (t) => {
  const plans = read(
    'A30.2.e',
    'The Service Level Agreement applies only to Enterprise plans: Acme will make the Service available 99.95% of each month, with service credits of 10% of the monthly fee for each 0.1% below.',
  );
  t.equal(plans.status, 'partial');
  t.match(plans.rationale, /only for some plans or customers/);
  const rest = read(
    'A9.3.enc',
    'Customer Data is encrypted in transit using TLS 1.2.',
    'Data at rest is encrypted with AES-256 for Enterprise customers only.',
  );
  t.equal(level(rest, 'rest'), 'limited');
  const best = read(
    'A30.2.f',
    'To the best of its knowledge and ability, Acme will assist Customer with ICT incidents related to the Service at no additional cost.',
  );
  t.equal(level(best, 'assistance'), 'limited');
});

t.test('encryption that is possible, optional, planned or said of some fields only is no commitment to encrypt the data', async (t) => {
  t.equal(level(read('A9.3.enc', "Data may be encrypted in transit using TLS where supported by the customer's systems."), 'transit'), 'limited');
  t.equal(level(read('A9.3.enc', 'Encryption at rest can be enabled for your storage buckets in the bucket settings.'), 'rest'), 'limited');
  t.equal(level(read('A9.3.enc', 'Passwords are stored using salted hashing and secrets are encrypted at rest.'), 'rest'), 'limited');
  t.equal(level(read('A9.3.enc', 'Sensitive fields such as API tokens and integration credentials are encrypted at rest in our database.'), 'rest'), 'limited');
  t.equal(level(read('A9.3.enc', 'We encrypt data at rest for certain services, such as our file storage.'), 'rest'), 'limited');
  t.equal(level(read('A9.3.enc', 'Where technically feasible, customer data is encrypted at rest using AES-256.'), 'rest'), 'limited');
  const roadmap = read('A9.3.enc', 'Encryption at rest for all customer databases is on our roadmap for next year.');
  t.equal(level(roadmap, 'rest'), 'limited');
  t.match(roadmap.rationale, /planned, not yet in place/);
  // What still counts.
  t.equal(level(read('A9.3.enc', 'All customer data stored in our databases is encrypted at rest using AES-256.'), 'rest'), 'met');
  t.equal(level(read('A9.3.enc', 'Backups and all customer data at rest are encrypted with AES-256.'), 'rest'), 'met');
});

t.test("the customer's own vigilance, an add-on, a plan's customers, an aim: no commitment of the provider's", async (t) => {
  t.equal(level(read('A10', 'You should monitor your account for suspicious activity and notify us immediately.'), 'monitoring'), 'none');
  t.equal(level(read('A10', 'Intrusion detection is available as an add-on for Enterprise customers.'), 'monitoring'), 'limited');
  t.equal(level(read('A30.2.e', 'Enterprise customers receive a 99.95% uptime SLA.'), 'uptime'), 'limited');
  t.equal(level(read('A30.2.e', 'We offer a 99.9% uptime guarantee to customers on annual Business plans.'), 'uptime'), 'limited');
  t.equal(level(read('A30.2.e', 'We aim for 99.9% availability of the Service.'), 'uptime'), 'limited');
  // Plans that cover everyone, and the provider's own commitment, still count.
  t.equal(level(read('A30.2.e', 'Acme will make the Service available 99.9% of each month to customers on all plans.'), 'uptime'), 'met');
  t.equal(level(read('A10', 'We continuously monitor our infrastructure for suspicious activity and alert our on-call security team.'), 'monitoring'), 'met');
});

t.test(
  "the customer with its auditors and authorities as one subject; reports that satisfy the audit right; the provider's choice; a new country",
  async (t) => {
    const model = read(
      'A28.6',
      "Customer, its auditors and its competent authorities may access, inspect and audit Acme's premises, systems and records relating to the Services.",
    );
    t.equal(level(model, 'audit-right'), 'met', "the customer's side is the subject of the right");
    const reports = read(
      'A28.6',
      'Upon request, Acme will provide a copy of its most recent SOC 2 Type II report, which Customer agrees satisfies its audit rights.',
    );
    t.equal(level(reports, 'audit-right'), 'limited');
    t.equal(level(read('A30.2.d', 'Upon termination, Acme will delete or return Customer Data at Acme’s choice.'), 'return'), 'limited');
    t.equal(
      level(read('A30.2.d', 'Upon termination, Acme will return Customer Data in CSV format at Customer’s election.'), 'return'),
      'met',
      "the customer's own choice is no limit",
    );
    const country = read(
      'A30.2.b',
      'Customer Data is stored in Frankfurt, Germany.',
      'Acme will notify Customer at least 30 days before changing the country in which Customer Data is stored.',
    );
    t.equal(level(country, 'change-notice'), 'met');
  },
);

t.test('Article 30(3)(b): notice as a list item under its lead-in, "provide written notice", a leak of data; "information" is no informing', async (t) => {
  const item = read(
    'A30.3.b',
    'Acme shall:',
    '- notify Customer without undue delay if it becomes aware of any accidental or unlawful destruction, loss, alteration or disclosure of, or access to, Customer Data (an "Incident").',
  );
  t.equal(level(item, 'incident-notice'), 'met');
  const customerItem = read(
    'A30.3.b',
    'Customer shall:',
    '- notify Acme without undue delay of any unauthorized access to its account or any security incident.',
  );
  t.equal(level(customerItem, 'incident-notice'), 'none', "the customer's duty in a list");
  const written = read(
    'A30.3.b',
    'Upon becoming aware of a Security Incident, Acme agrees to provide written notice to Customer by email without undue delay.',
  );
  t.equal(level(written, 'incident-notice'), 'met');
  t.equal(level(written, 'timing'), 'partial', '"without undue delay": notice with no time limit');
  const leak = read('A30.3.b', 'Acme will promptly notify Customer of any actual or potential exposure or misappropriation of Customer Data (any “Leak”).');
  t.equal(level(leak, 'incident-notice'), 'met');
  const confidential = read(
    'A30.3.b',
    'Confidential Information shall not include information that is or becomes part of the public domain through no breach of the receiving party.',
  );
  t.equal(level(confidential, 'incident-notice'), 'none', 'a confidentiality exception is no incident notice');
});

t.test('Article 29(2): new subprocessors only published on a web page, with no advance period, are no notice to the customer', async (t) => {
  const page = read('A29.2.sub', 'We may engage new subprocessors at any time and will publish them on this page.');
  t.equal(level(page, 'change-notice'), 'limited');
  t.match(page.rationale, /only by publishing them on a web page/);
  const ahead = read('A29.2.sub', 'Acme will publish any new Subprocessor on its website at least 30 days before it starts processing Customer Data.');
  t.equal(level(ahead, 'change-notice'), 'met', 'with an advance period the publication is notice');
});

t.test("someone's attempt is no effort of the provider's; the element's own limit is named before a generic one", async (t) => {
  const attempts = read(
    'A10',
    'Acme monitors for suspicious activity, including users who attempt to access production systems, and alerts its security team.',
  );
  t.equal(level(attempts, 'monitoring'), 'met', '"users who attempt to" is not "Acme attempts to"');
  t.equal(level(read('A10', 'Acme attempts to detect suspicious activity on its network and alerts its security team.'), 'monitoring'), 'limited');
  const passwords = read('A9.3.enc', 'Acme stores passwords encrypted at rest and strives to keep them secure.');
  t.equal(level(passwords, 'rest'), 'limited');
  t.match(passwords.rationale, /only backups or passwords are said to be encrypted/, 'the specific limit, not "an effort"');
});

t.test('Article 30(2)(h): a provider that may discontinue the service at any time overrides the notice period (not for beta features)', async (t) => {
  const discontinue = read(
    'A30.2.h',
    "Either party may terminate this Agreement for convenience on 30 days' written notice.",
    'Acme may modify, suspend or discontinue the Service, in whole or in part, at any time without notice or liability.',
  );
  t.equal(discontinue.status, 'partial');
  t.match(discontinue.rationale, /may discontinue the service at any time/);
  const beta = read(
    'A30.2.h',
    "Either party may terminate this Agreement for convenience on 30 days' written notice.",
    'Acme may discontinue any Beta Services at any time in its sole discretion.',
  );
  t.equal(beta.status, 'covered', 'a beta programme is not the service');
});

t.test('Article 28(5): a certificate that covers only part of the organisation is limited', async (t) => {
  t.equal(level(read('A28.5', "Acme's ISO 27001 certification covers its headquarters in Berlin only."), 'certification'), 'limited');
  t.equal(level(read('A28.5', 'The scope of the ISO 27001 certificate excludes the hosted Service.'), 'certification'), 'limited');
  t.equal(
    level(read('A28.5', 'Acme GmbH is certified according to ISO/IEC 27001:2022 (certificate no. 12345, issued by an accredited body).'), 'certification'),
    'met',
  );
});

t.test("a provider named by its own name: 'may' is its right, 'will' its duty", async (t) => {
  t.same(
    actors('Travis-CI may suspend the account at any time.').map((a) => [a.party, a.modality]),
    [['provider', 'right']],
  );
  t.same(
    actors('Travis-CI will notify the account owner.').map((a) => [a.party, a.modality]),
    [['provider', 'duty']],
  );
});
