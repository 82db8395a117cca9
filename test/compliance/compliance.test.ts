import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';

t.test('DORA reference API', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const s = await registerUser(app);
  const get = (url: string, headers: Record<string, string> = s.headers) => app.inject({ method: 'GET', url, headers });

  t.test('requires authentication and no workspace', async (t) => {
    for (const url of ['/api/v1/compliance/domains', '/api/v1/compliance/articles', '/api/v1/compliance/articles/Article-28']) {
      const res = await get(url, {});
      t.equal(res.statusCode, 401, url);
      t.equal(res.json().message, 'Authentication required');
    }
  });

  t.test('domains with their article counts', async (t) => {
    const res = await get('/api/v1/compliance/domains');
    t.equal(res.statusCode, 200);
    const { total, domains } = res.json().data;
    t.equal(total, 7);
    t.same(
      domains.map((d: { domain: string; articleCount: number }) => [d.domain, d.articleCount]),
      [
        ['General Provisions', 4],
        ['ICT Risk Management', 12],
        ['Incident Reporting', 7],
        ['Resilience Testing', 4],
        ['Third-Party Risk', 3],
        ['ICT Third-Party Oversight', 14],
        ['Information Sharing', 1],
      ],
    );
    t.same(domains[4].articles, ['Article 28', 'Article 29', 'Article 30']);
    t.equal(
      domains.reduce((n: number, d: { articleCount: number }) => n + d.articleCount, 0),
      45,
    );
  });

  t.test('articles, filtered by domain and by chapter', async (t) => {
    const all = (await get('/api/v1/compliance/articles')).json().data;
    t.equal(all.total, 45);
    t.equal(all.articles.length, 45);
    t.notOk('text' in all.articles[0], 'list items carry no text');
    t.same(Object.keys(all.articles[27]).sort(), ['article', 'chapter', 'domain', 'obligations', 'regulation', 'title']);
    t.equal(all.articles[27].regulation, 'DORA');
    t.equal(all.articles[27].article, 'Article 28');

    const byDomain = (await get('/api/v1/compliance/articles?domain=Third-Party%20Risk')).json().data;
    t.equal(byDomain.total, 3);
    t.same(
      byDomain.articles.map((a: { article: string }) => a.article),
      ['Article 28', 'Article 29', 'Article 30'],
    );
    const chapterV = (await get('/api/v1/compliance/articles?chapter=V')).json().data;
    t.equal(chapterV.total, 17, 'chapter V holds both third-party domains (28-44)');
    const chapterVI = (await get('/api/v1/compliance/articles?chapter=VI')).json().data;
    t.same(
      chapterVI.articles.map((a: { article: string }) => a.article),
      ['Article 45'],
    );
    const both = (await get('/api/v1/compliance/articles?chapter=V&domain=ICT%20Third-Party%20Oversight')).json().data;
    t.equal(both.total, 14);
    const none = (await get('/api/v1/compliance/articles?chapter=I&domain=Third-Party%20Risk')).json().data;
    t.equal(none.total, 0, 'contradictory filters match nothing');
  });

  t.test('reference responses carry an ETag and Cache-Control; a matching If-None-Match is a 304 without a body', async (t) => {
    for (const url of [
      '/api/v1/compliance/domains',
      '/api/v1/compliance/articles',
      '/api/v1/compliance/articles?chapter=V',
      '/api/v1/compliance/articles/Article-28',
    ]) {
      const first = await get(url);
      t.equal(first.statusCode, 200, url);
      const etag = first.headers.etag as string;
      t.match(etag, /^"[A-Za-z0-9_-]{16,}"$/, `${url}: a strong ETag`);
      t.equal(first.headers['cache-control'], 'private, max-age=3600', `${url}: private (authenticated), an hour`);
      t.match(first.headers['content-type'], /^application\/json/);
      t.equal(first.json().status, 'success');
      const again = await get(url);
      t.equal(again.headers.etag, etag, `${url}: the same ETag for the same body`);
      t.equal(again.body, first.body);
      const revalidated = await get(url, { ...s.headers, 'if-none-match': etag });
      t.equal(revalidated.statusCode, 304, `${url}: 304 when the copy is current`);
      t.equal(revalidated.body, '');
      t.equal(revalidated.headers.etag, etag);
      t.equal(revalidated.headers['cache-control'], 'private, max-age=3600');
      t.equal((await get(url, { ...s.headers, 'if-none-match': `"other", W/${etag}` })).statusCode, 304, `${url}: a list and a weak validator match too`);
      t.equal((await get(url, { ...s.headers, 'if-none-match': '"stale"' })).statusCode, 200, `${url}: 200 when the copy is stale`);
      t.equal((await get(url, { 'if-none-match': etag })).statusCode, 401, `${url}: no 304 without authentication`);
    }
    const list = await get('/api/v1/compliance/articles');
    const filtered = await get('/api/v1/compliance/articles?chapter=V');
    t.not(list.headers.etag, filtered.headers.etag, 'each filter has its own body and ETag');
    t.equal((await get('/api/v1/compliance/articles?chapter=V', { ...s.headers, 'if-none-match': list.headers.etag as string })).statusCode, 200);
  });

  t.test('a client that accepts gzip gets the same body compressed', async (t) => {
    const plain = await get('/api/v1/compliance/articles');
    const zipped = await get('/api/v1/compliance/articles', { ...s.headers, 'accept-encoding': 'br, gzip;q=0.8' });
    t.equal(zipped.headers['content-encoding'], 'gzip');
    t.match(zipped.headers.vary, /Accept-Encoding/);
    t.equal(zipped.headers.etag, plain.headers.etag, 'one representation, one ETag');
    t.ok(zipped.rawPayload.length < plain.rawPayload.length / 3, `${zipped.rawPayload.length} compressed bytes for ${plain.rawPayload.length}`);
    t.equal(gunzipSync(zipped.rawPayload).toString(), plain.body);
    const refused = await get('/api/v1/compliance/articles', { ...s.headers, 'accept-encoding': 'gzip;q=0, identity' });
    t.notOk(refused.headers['content-encoding'], 'q=0 refuses gzip');
    t.equal(refused.body, plain.body);
  });

  t.test('unknown filter values are a 400 listing the allowed values', async (t) => {
    const d = await get('/api/v1/compliance/articles?domain=Cloud');
    t.equal(d.statusCode, 400);
    t.equal(d.json().error.code, 'VALIDATION_ERROR');
    t.match(d.json().error.details[0], /^domain: must be one of: General Provisions, /);
    const c = await get('/api/v1/compliance/articles?chapter=VII');
    t.equal(c.statusCode, 400);
    t.match(c.json().message, /chapter: must be one of: I, II, III, IV, V, VI/);
  });

  t.test('one article in both path forms, with its full text', async (t) => {
    const spaced = await get('/api/v1/compliance/articles/Article%2028');
    const hyphen = await get('/api/v1/compliance/articles/Article-28');
    t.equal(spaced.statusCode, 200);
    t.equal(hyphen.statusCode, 200);
    t.same(spaced.json().data, hyphen.json().data);
    const a = spaced.json().data.article;
    t.equal(a.article, 'Article 28');
    t.equal(a.title, 'General principles');
    t.equal(a.domain, 'Third-Party Risk');
    t.match(a.text, /^1\. Financial entities shall manage ICT third-party risk/);
    t.match(a.text, /register of information/);
    t.notMatch(a.text, /\*\*|\\\.|â€/, 'no mirror markup or mojibake');
    t.ok(a.obligations.length > 5);
    for (const o of a.obligations) {
      const firstPart = o.split(': (')[0];
      t.ok(a.text.includes(firstPart.replace(/^\d+\. /, '')), 'obligation quoted from the text');
    }
  });

  t.test('unknown article is 404 with the contract message', async (t) => {
    for (const [url, msg] of [
      ['/api/v1/compliance/articles/Article-99', 'Article not found: Article 99'],
      ['/api/v1/compliance/articles/Article%2046', 'Article not found: Article 46'],
      ['/api/v1/compliance/articles/Article-0', 'Article not found: Article 0'],
    ]) {
      const res = await get(url);
      t.equal(res.statusCode, 404, url);
      t.equal(res.json().status, 'error');
      t.equal(res.json().message, msg);
    }
    const junk = await get('/api/v1/compliance/articles/Chapter-5');
    t.equal(junk.statusCode, 404);
    t.equal(junk.json().message, 'Article not found: Chapter 5');
  });
});

t.test('reference data loading is repeatable and reset reloads it', async (t) => {
  const ctx = await buildTestApp({}, { seed: false });
  t.teardown(ctx.close);
  const svc = ctx.app.services.compliance;
  t.equal(await svc.isLoaded(), false);
  await svc.loadReferenceData();
  await svc.loadReferenceData();
  t.equal((await svc.articles({})).total, 45, 'loading twice keeps 45 articles');
  const [first] = (await svc.articles({})).articles;
  await svc.loadReferenceData({
    articles: [
      { ...(await svc.article('Article 1')), number: 1, obligations: ['changed'] },
      ...(await svc.articles({})).articles.slice(1).map((a, i) => ({ ...a, number: i + 2, text: 'x' })),
    ],
  });
  t.same((await svc.article('Article 1')).obligations, ['changed'], 'a load updates in place');
  const s = await registerUser(ctx.app);
  const served = await ctx.app.inject({ method: 'GET', url: '/api/v1/compliance/articles/Article-1', headers: s.headers });
  t.same(served.json().data.article.obligations, ['changed']);
  await svc.loadReferenceData({ reset: true });
  t.same((await svc.article('Article 1')).obligations, first.obligations, 'reset reloads the reference file');
  const reloaded = await ctx.app.inject({
    method: 'GET',
    url: '/api/v1/compliance/articles/Article-1',
    headers: { ...s.headers, 'if-none-match': served.headers.etag as string },
  });
  t.equal(reloaded.statusCode, 200, 'a reload in this process replaces the cached response');
  t.same(reloaded.json().data.article.obligations, first.obligations);
  t.not(reloaded.headers.etag, served.headers.etag);
  t.equal((await svc.articles({})).total, 45);
});
