import t from 'tap';
import { AppError } from '../../src/lib/errors.js';
import { conceptQueries, analyseQuestion } from '../../src/rag/concepts.js';
import { isWebsearchSyntax } from '../../src/rag/retrieval.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createTextSource, fixture, upload, waitForDataSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace, createWorkspace } from '../helpers/workspaces.js';

t.test('full-text queries of a question: one per concept, frame words left out', async (t) => {
  t.same(
    conceptQueries(analyseQuestion('Is there a notice period?')),
    ['"notice periods" or "notice period" or "prior written notice" or "days notice" or "advance notice" or "days in advance" or "in advance of"'],
    'a vocabulary concept: any of its wordings',
  );
  t.same(
    conceptQueries(analyseQuestion('What is the notice period?')),
    [
      '"notice periods" or "notice period" or "prior written notice" or "days notice" or "advance notice" or "days in advance" or "in advance of"',
      '"notice periods means" or "notice period means"',
    ],
    'a question asking what something is also looks for its definition',
  );
  t.same(conceptQueries(analyseQuestion('What does DORA say about papaya?')), ['papaya'], 'DORA and "say" frame the question');
  const backUp = conceptQueries(analyseQuestion('How often does Acme back up customer data?')).find((q) => /backup/.test(q)) ?? '';
  t.match(backUp, /"back up"/, 'the verb "back up" is the backup concept');
  t.notOk(backUp.split(' or ').includes('back'), 'and not the word "back" alone, which every "claim back" holds');
  t.notMatch(conceptQueries(analyseQuestion('How do we claim SLA credits?')).join(' | '), /compensation/, 'service credits are not any compensation');
  t.ok(isWebsearchSyntax('"notice period" -termination'), 'websearch syntax is searched as written');
  t.notOk(isWebsearchSyntax('Is it a critical or important function?'), 'a lower-case "or" is part of the question');
  t.same(conceptQueries(analyseQuestion('What does DORA require?')), ['DORA or require'], 'a question of frame words only is searched with its words');
});

t.test('the DORA articles a question names', async (t) => {
  t.same([...analyseQuestion('What does DORA Article 28 require, and how does Art. 30(2) add to it?').articles], ['28', '30']);
  t.same([...analyseQuestion('Does GitHub act as a processor under Article 28 GDPR?').articles], [], "another act's article is not DORA's");
  t.same([...analyseQuestion('What must a contract include?').articles], []);
});

t.test('hybrid retrieval: DORA corpus, scope, filters, scores', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const search = app.services.retrieval.search;

  const indexed = await app.services.dataSources.indexCorpus({ articles: [2, 28, 30] });
  t.equal(indexed.documents, 3);
  t.equal(indexed.indexed, 3);
  t.ok(indexed.chunks >= 3);
  const again = await app.services.dataSources.indexCorpus({ articles: [2, 28, 30] });
  t.equal(again.indexed, 0, 'indexing again skips unchanged articles');
  const status = await app.services.dataSources.corpusStatus();
  t.equal(status.documents, 3);
  t.equal(status.current, false, 'not all 45 articles are indexed');

  const owner = await registerUser(app);
  const a = await createOrgAndWorkspace(app, owner, 'Vendor A');
  const b = await createWorkspace(app, owner, 'Vendor B');

  // The DORA corpus is shared by every workspace.
  for (const ws of [a.workspaceId, b.id]) {
    const hits = await search({ workspaceId: ws, query: 'key contractual provisions ICT services termination rights', limit: 5 });
    t.ok(hits.length > 0);
    t.equal(hits[0]!.workspaceId, null, 'corpus chunks have no workspace');
    t.match(hits[0]!.title, /^DORA Article (28|30): /);
    t.match(hits[0]!.url, /^https:\/\/eur-lex\.europa\.eu\/eli\/reg\/2022\/2554\/oj#art_(28|30)$/);
    t.match(hits[0]!.section, /^Chapter V – Third-Party Risk > Article (28|30): /);
    t.equal(hits[0]!.dataSourceId, null);
  }

  const old = await createTextSource(app, a.headers, [
    { title: 'Old SLA', format: 'text', content: 'The papaya uptime commitment was 99.5 percent per month.', date: '2021-01-01' },
    {
      title: 'New SLA',
      format: 'markdown',
      content:
        '# New SLA\n\n## Uptime\n\nThe papaya uptime commitment is 99.9 percent per month.\n\n## Credits\n\nService credits of ten percent apply below the papaya commitment.',
      date: '2024-06-01',
    },
  ]);
  const pdf = await upload(app, a.headers, [{ filename: 'sample.pdf', content: fixture('sample.pdf') }]);
  const pdfSource = await waitForDataSource(app, a.headers, pdf.json().data.dataSource.id);
  t.equal(pdfSource.status, 'ready');

  // Shape and scores.
  const hits = await search({ workspaceId: a.workspaceId, query: 'papaya uptime commitment', limit: 8 });
  t.ok(hits.length >= 2 && hits.length <= 8);
  t.same(
    hits.map((h) => h.sourceNumber),
    hits.map((_, i) => i + 1),
  );
  for (const h of hits) {
    t.ok(h.score >= 0 && h.score <= 1, `score ${h.score} in 0..1`);
    t.type(h.id, 'string');
    t.type(h.content, 'string');
    t.type(h.documentId, 'string');
    t.ok(h.workspaceId === a.workspaceId || h.workspaceId === null);
  }
  for (let i = 1; i < hits.length; i++) t.ok(hits[i - 1]!.score >= hits[i]!.score, 'sorted by score');
  t.match(hits[0]!.content, /papaya uptime commitment/, 'the passage holding every concept of the question comes first');
  t.ok(hits[0]!.score > 0.95, 'holding every concept, first of its scope: close to 1');
  const withoutPapaya = hits.filter((h) => !/papaya/i.test(h.content));
  t.ok(withoutPapaya.length > 0);
  for (const h of withoutPapaya) t.ok(h.score < hits[0]!.score - 0.2, 'a passage without the rarest concept scores clearly lower');
  t.equal((await search({ workspaceId: a.workspaceId, query: 'papaya', limit: 1 })).length, 1, 'limit');
  t.same(await search({ workspaceId: a.workspaceId, query: '   ' }), [], 'empty question, no sources');
  t.notOk(
    (await search({ workspaceId: b.id, query: 'papaya uptime commitment', limit: 20 })).some((h) => h.workspaceId === a.workspaceId),
    'scoped to the workspace',
  );

  // Filter: section (whole words, case-insensitive, anywhere in the path).
  const credits = await search({ workspaceId: a.workspaceId, query: 'papaya commitment', filters: { section: 'credits' } });
  t.ok(credits.length > 0);
  for (const h of credits) t.match(h.section, /Credits/);
  const art2 = await search({ workspaceId: a.workspaceId, query: 'scope financial entities', filters: { section: 'Article 2' }, limit: 20 });
  t.ok(art2.length > 0);
  for (const h of art2) t.match(h.section, /Article 2: /, '"Article 2" does not match "Article 28"');

  // Filter: date range (document dates, inclusive).
  const recent = await search({
    workspaceId: a.workspaceId,
    query: 'papaya uptime commitment',
    filters: { dateRange: { start: '2024-04-01', end: '2024-06-01' } },
    limit: 20,
  });
  t.ok(recent.length > 0);
  t.ok(recent[0]!.score >= 0.95, 'holding every concept, first of its scope');
  t.ok(
    recent.every((h) => h.title === 'New SLA'),
    'only documents dated in the range',
  );
  const before2022 = await search({ workspaceId: a.workspaceId, query: 'papaya uptime commitment', filters: { dateRange: { end: '2021-12-31' } }, limit: 20 });
  t.same([...new Set(before2022.map((h) => h.title))], ['Old SLA']);
  await t.rejects(search({ workspaceId: a.workspaceId, query: 'x', filters: { dateRange: { start: '2024-02-30' } } }), AppError, 'an impossible date is a 400');
  const reversed = await search({ workspaceId: a.workspaceId, query: 'x', filters: { dateRange: { start: '2024-05-01', end: '2024-01-01' } } }).then(
    () => null,
    (e: unknown) => e,
  );
  t.ok(reversed instanceof AppError, 'a reversed range is refused');
  t.match(reversed, {
    statusCode: 400,
    code: 'VALIDATION_ERROR',
    message: 'Validation failed: filters.dateRange.start must not be after filters.dateRange.end',
  });

  // Filter: page (a page number, or a document id).
  const page2 = await search({ workspaceId: a.workspaceId, query: 'zephyrine customer', filters: { page: '2' }, limit: 20 });
  t.ok(page2.length > 0);
  t.ok(
    page2.every((h) => h.page === '2'),
    'only passages on page 2',
  );
  const pdfDocId = pdfSource.files[0].document.id;
  const inDoc = await search({ workspaceId: a.workspaceId, query: 'papaya zephyrine', filters: { page: pdfDocId }, limit: 20 });
  t.ok(inDoc.length > 0);
  t.ok(
    inDoc.every((h) => h.documentId === pdfDocId),
    'only passages of that document',
  );
  t.same(old.files.length, 2);
});
