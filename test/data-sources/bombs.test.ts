import t from 'tap';
import { createParsePool } from '../../src/ingest/parsePool.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createAssessment } from '../helpers/assessments.js';
import { docxTextBomb, docxTreeBomb, jsonDeepBomb, pdfGarbage, xlsxBomb } from '../helpers/bombs.js';
import { fixture, upload } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * Parse bombs (docs/reliability.md): small files that expand into a great deal of work.
 * Parsing runs in worker threads with a time and memory budget, and the character limit
 * is counted while the text is produced; the main thread's heap stays where it was and
 * /health keeps answering while a bomb is being refused.
 */
const MB = 1024 * 1024;

t.test('an upload of a bomb is refused with 422 naming the file, without holding the main thread or its heap', async (t) => {
  const ctx = await buildTestApp({ workers: 0 });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const { headers } = await createOrgAndWorkspace(app, owner);

  const docx = await docxTextBomb();
  const bombs = [
    {
      route: 'data-sources',
      filename: 'terms.docx',
      content: docx,
      code: 'DOCUMENT_TOO_LARGE',
      reason: /terms\.docx was rejected: more than 5000000 characters of text/,
    },
    {
      route: 'assessments',
      filename: 'terms.docx',
      content: docx,
      code: 'DOCUMENT_TOO_LARGE',
      reason: /terms\.docx was rejected: more than 5000000 characters of text/,
    },
    {
      route: 'data-sources',
      filename: 'register.xlsx',
      content: await xlsxBomb(),
      code: 'DOCUMENT_TOO_LARGE',
      reason: /register\.xlsx was rejected: more than 5000000 characters of text/,
    },
    { route: 'assessments', filename: 'scan.pdf', content: pdfGarbage(), code: 'CORRUPT_FILE', reason: /scan\.pdf could not be read/ },
    // 150,000 levels (300 KB): refused by a linear scan before JSON.parse builds a single array. There is no parse for
    // /health to answer during (on a loaded machine the refusal can come before the first probe does): its heap is checked.
    {
      route: 'data-sources',
      filename: 'deep.json',
      content: jsonDeepBomb(150_000),
      code: 'DOCUMENT_TOO_LARGE',
      reason: /deep\.json was rejected: JSON nested deeper than 1000 levels/,
      scanOnly: true,
    },
  ];
  for (const b of bombs) {
    t.ok(b.content.length < 400 * 1024, `${b.filename} is small on the wire (${Math.round(b.content.length / 1024)} KB)`);
    const heapBefore = process.memoryUsage().heapUsed;
    let peakHeap = heapBefore;
    let done = false;
    let healthy = 0;
    const probes = (async () => {
      while (!done) {
        const h = await app.inject({ method: 'GET', url: '/health' });
        if (!done && h.statusCode === 200) healthy += 1;
        peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const files = [{ filename: b.filename, content: b.content }];
    const res = b.route === 'data-sources' ? await upload(app, headers, files) : await createAssessment(app, headers, files);
    done = true;
    await probes;
    t.equal(res.statusCode, 422, `${b.route} ${b.filename}: 422`);
    t.equal(res.json().error.code, b.code, `${b.route} ${b.filename}: ${b.code}`);
    t.match(res.json().message, b.reason, 'the message names the file and the reason');
    if (!('scanOnly' in b)) t.ok(healthy >= 1, `/health answered while ${b.filename} was being parsed (${healthy} times)`);
    t.ok(peakHeap - heapBefore < 150 * MB, `the main thread's heap grew by ${Math.round((peakHeap - heapBefore) / MB)} MB only`);
  }
  const list = await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers });
  t.equal(list.json().data.pagination.total, 0, 'nothing was stored');

  // The service still parses good files afterwards.
  const good = await upload(app, headers, [{ filename: 'sample.docx', content: fixture('sample.docx') }]);
  t.equal(good.statusCode, 201, 'a real DOCX is accepted after the bombs');
});

t.test('the parse pool enforces its memory and time budgets, and replaces the worker', async (t) => {
  // The character limit is set out of reach so that the document tree is really built.
  const limits = { maxTextChars: 1e9, maxDecompressedBytes: 100 * MB };
  const tree = await docxTreeBomb(16 * MB);

  const small = createParsePool({ size: 1, timeoutMs: 120_000, memoryMb: 64 });
  t.teardown(() => small.close());
  await t.rejects(small.parse({ content: tree, filename: 'tree.docx', declaredType: null, limits }), {
    statusCode: 422,
    code: 'DOCUMENT_TOO_LARGE',
    message: /tree\.docx was rejected: parsing it needs more than the 64 MB memory budget/,
  });
  const after = await small.parse({ content: fixture('sample.docx'), filename: 'sample.docx', declaredType: null, limits });
  t.ok(after.chars > 0, 'a new worker parses the next file');

  const quick = createParsePool({ size: 1, timeoutMs: 300, memoryMb: 512 });
  t.teardown(() => quick.close());
  await t.rejects(quick.parse({ content: tree, filename: 'tree.docx', declaredType: null, limits }), {
    statusCode: 422,
    code: 'DOCUMENT_TOO_LARGE',
    message: /tree\.docx was rejected: parsing it takes longer than the 0.3 s time budget/,
  });
  t.same(quick.stats(), { workers: 0, busy: 0, queued: 0 }, 'the worker that ran out of time is gone');

  // A job that stops gives up its file at once.
  const stop = new AbortController();
  const parsing = quick.parse({ content: tree, filename: 'tree.docx', declaredType: null, limits, signal: stop.signal });
  setTimeout(() => stop.abort(new Error('worker stopping')), 20);
  await t.rejects(parsing, { message: 'worker stopping' });
});
