import t from 'tap';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { multipartBody } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * Input hygiene (docs/api-conventions.md): NUL and unpaired surrogates are refused with
 * 400 naming the field wherever they arrive (body, keys, path, query, header, multipart
 * field or file name), before any of it reaches the database; and every upload route
 * answers a malformed or oversized multipart body alike.
 */
const NUL = '\u0000';
const LONE = '\ud800';

const base = testConfig();
const ctx = await buildTestApp({ ingest: { ...base.ingest, maxFileBytes: 32 * 1024, maxFiles: 2 } });
t.teardown(ctx.close);
const { app } = ctx;
const owner = await registerUser(app);
const { headers } = await createOrgAndWorkspace(app, owner);

t.test('NUL and unpaired surrogates: 400 naming the field, on every kind of input', async (t) => {
  const expect400 = async (label: string, res: Awaited<ReturnType<typeof app.inject>>, field: string) => {
    t.equal(res.statusCode, 400, `${label}: 400`);
    const body = res.json();
    t.equal(body.error?.code, 'VALIDATION_ERROR', `${label}: VALIDATION_ERROR`);
    t.match(body.error?.details?.[0], new RegExp(`^${field.replace(/[.()\\]/g, '\\$&')}: must not contain NUL`), `${label}: names ${field}`);
  };
  const json = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: unknown, h: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { ...h, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

  // Unauthenticated routes too: nothing reaches the database.
  await expect400('login e-mail', await json('POST', '/api/v1/auth/login', { email: `a${NUL}@example.com`, password: 'x' }), 'email');
  await expect400(
    'register name (lone surrogate)',
    await json('POST', '/api/v1/auth/register', { email: 'new@example.com', password: 'correct horse battery', name: `Ann ${LONE}` }),
    'name',
  );
  await expect400(
    'nested field',
    await json('POST', '/api/v1/data-sources', { documents: [{ title: 'ok', content: `text${NUL}` }] }, headers),
    'documents.0.content',
  );
  await expect400('object key', await json('POST', '/api/v1/rag', { question: 'why?', [`x${NUL}`]: 1 }, headers), 'x\\u0000 (a key)');
  await expect400('path id', await app.inject({ method: 'GET', url: '/api/v1/data-sources/abc%00def', headers }), 'id');
  await expect400('query', await app.inject({ method: 'GET', url: '/api/v1/data-sources?status=%00', headers }), 'status');
  await expect400(
    'workspace header',
    await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: { ...headers, 'x-workspace-id': `ws${NUL}` } }),
    'X-Workspace-Id',
  );

  const nulName = multipartBody([{ filename: `po${NUL}licy.txt`, content: 'The policy.' }]);
  await expect400(
    'file name',
    await app.inject({ method: 'POST', url: '/api/v1/data-sources', headers: { ...headers, 'content-type': nulName.contentType }, payload: nulName.payload }),
    'files.0.filename',
  );
  const nulField = multipartBody([{ filename: 'policy.txt', content: 'The policy.' }], { name: `Po${NUL}licies` });
  await expect400(
    'form field',
    await app.inject({ method: 'POST', url: '/api/v1/assessments', headers: { ...headers, 'content-type': nulField.contentType }, payload: nulField.payload }),
    'name',
  );

  // Clean text with characters outside the BMP (a valid surrogate pair) is accepted.
  const emoji = await json(
    'POST',
    '/api/v1/data-sources',
    { name: 'Policies 📄', documents: [{ title: 'Policy 📄', content: 'Incidents are reported within 24 hours.' }] },
    headers,
  );
  t.equal(emoji.statusCode, 201, 'a valid surrogate pair is fine');
});

t.test('every upload route shares the multipart handling and its error codes', async (t) => {
  for (const url of ['/api/v1/data-sources', '/api/v1/assessments']) {
    const noBoundary = await app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'multipart/form-data' }, payload: 'hello' });
    t.equal(noBoundary.statusCode, 400, `${url}: no boundary is 400`);
    t.equal(noBoundary.json().error.code, 'VALIDATION_ERROR', `${url}: no boundary is VALIDATION_ERROR`);

    const good = multipartBody([{ filename: 'policy.txt', content: 'The policy text. '.repeat(50) }]);
    const truncated = await app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': good.contentType },
      payload: good.payload.subarray(0, good.payload.length - 60),
    });
    t.equal(truncated.statusCode, 400, `${url}: a truncated body is 400`);
    t.match(truncated.json().message, /malformed multipart/, `${url}: says the body is malformed`);

    const big = multipartBody([{ filename: 'big.txt', content: 'word '.repeat(10_000) }]);
    const tooBig = await app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': big.contentType }, payload: big.payload });
    t.equal(tooBig.statusCode, 413, `${url}: an oversized file is 413`);
    t.equal(tooBig.json().error.code, 'PAYLOAD_TOO_LARGE', `${url}: PAYLOAD_TOO_LARGE`);
    t.match(tooBig.json().message, /big\.txt exceeds the upload limit of 32 KB/, `${url}: names the file`);

    const many = multipartBody([1, 2, 3].map((i) => ({ filename: `n${i}.txt`, content: `note ${i}` })));
    const tooMany = await app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': many.contentType }, payload: many.payload });
    t.equal(tooMany.statusCode, 400, `${url}: too many files is 400`);
    t.match(tooMany.json().error.details, ['files: at most 2'], `${url}: names the field`);
  }
});
