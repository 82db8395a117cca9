import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { multipartBody } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

// CSRF protection of the cookie session (docs/auth.md, "CSRF"): a cookie-authenticated write
// needs X-Requested-With, and a write from a foreign Origin is refused; Bearer clients are unchanged.
t.test('cross-site writes with the session cookie are refused', async (t) => {
  const ctx = await buildTestApp({ corsOrigins: ['https://dashboard.example.com'], workers: 0 });
  t.teardown(ctx.close);
  const { app } = ctx;
  const user = await registerUser(app);
  const { workspaceId } = await createOrgAndWorkspace(app, user);
  const cookies = { accessToken: user.accessToken, refreshToken: user.refreshToken };
  const browser = { 'x-requested-with': 'dora-dashboard' };
  const count = async () => (await app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: user.headers })).json().data.workspaces.length;

  // What a forged form post or no-cors fetch from another site can send: the cookie, no custom header.
  const forged = await app.inject({ method: 'POST', url: '/api/v1/workspaces', cookies, payload: { workspaceName: 'Forged' } });
  t.equal(forged.statusCode, 403);
  t.equal(forged.json().error.code, 'CSRF_REJECTED');
  t.match(forged.json().message, /X-Requested-With/);
  t.equal(await count(), 1, 'nothing was created');

  const { payload, contentType } = multipartBody([{ filename: 'policy.md', content: '# Policy\n\nForged upload.' }]);
  const upload = await app.inject({
    method: 'POST',
    url: '/api/v1/data-sources',
    cookies,
    headers: { 'content-type': contentType, 'x-workspace-id': workspaceId },
    payload,
  });
  t.equal(upload.statusCode, 403, 'a multipart upload with the cookie and no header is refused');
  const sources = await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: { ...user.headers, 'x-workspace-id': workspaceId } });
  t.equal(sources.json().data.pagination.total, 0, 'nothing was stored');

  const stream = await app.inject({
    method: 'POST',
    url: '/api/v1/rag/stream',
    cookies,
    headers: { 'x-workspace-id': workspaceId },
    payload: { question: 'What is the SLA?' },
  });
  t.equal(stream.statusCode, 403, 'POST /rag/stream with the cookie and no header: refused before any event');
  t.match(stream.headers['content-type'], /application\/json/);

  const logout = await app.inject({ method: 'POST', url: '/api/v1/auth/logout', cookies });
  t.equal(logout.statusCode, 403, 'a cross-site page cannot sign the user out');

  // The dashboard's own requests: same origin (or none sent), with the header.
  const ok = await app.inject({ method: 'POST', url: '/api/v1/workspaces', cookies, headers: browser, payload: { workspaceName: 'Basecamp' } });
  t.equal(ok.statusCode, 201, 'the cookie and X-Requested-With: accepted');
  const sameOrigin = await app.inject({
    method: 'PATCH',
    url: `/api/v1/workspaces/${ok.json().data.workspace.id}`,
    cookies,
    headers: { ...browser, origin: 'http://localhost' },
    payload: { workspaceName: 'Basecamp 2' },
  });
  t.equal(sameOrigin.statusCode, 200, 'Origin of the service itself: accepted');
  const allowed = await app.inject({
    method: 'POST',
    url: '/api/v1/notifications/read-all',
    cookies,
    headers: { ...browser, origin: 'https://dashboard.example.com' },
    payload: {},
  });
  t.equal(allowed.statusCode, 200, 'an Origin of CORS_ORIGINS: accepted');

  // A foreign Origin is refused even with the header (a same-site sibling host, a misconfigured proxy).
  const foreign = await app.inject({
    method: 'POST',
    url: '/api/v1/workspaces',
    cookies,
    headers: { ...browser, origin: 'https://evil.example.net' },
    payload: { workspaceName: 'Evil' },
  });
  t.equal(foreign.statusCode, 403);
  t.equal(foreign.json().error.code, 'CSRF_REJECTED');
  t.match(foreign.json().message, /origin https:\/\/evil\.example\.net is not allowed/);
  const nullOrigin = await app.inject({ method: 'DELETE', url: `/api/v1/workspaces/${workspaceId}`, cookies, headers: { ...browser, origin: 'null' } });
  t.equal(nullOrigin.statusCode, 403, 'Origin: null (sandboxed frame, data: URL) is refused');
  const loginCsrf = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { origin: 'https://evil.example.net' },
    payload: { email: user.email, password: 'correct horse battery' },
  });
  t.equal(loginCsrf.statusCode, 403, 'login from a foreign page (login CSRF) is refused');

  // Reading is not a write: GET with the cookie and no header works (and CORS keeps foreign pages from reading it).
  t.equal((await app.inject({ method: 'GET', url: '/api/v1/workspaces', cookies })).statusCode, 200);

  // Bearer API clients are unchanged: no cookie, no header, no Origin.
  const bearer = await app.inject({ method: 'POST', url: '/api/v1/workspaces', headers: user.headers, payload: { workspaceName: 'Bearer Vendor' } });
  t.equal(bearer.statusCode, 201, 'a Bearer client needs no extra header');
  const bearerUpload = await app.inject({
    method: 'POST',
    url: '/api/v1/data-sources',
    headers: { ...user.headers, 'content-type': contentType, 'x-workspace-id': workspaceId },
    payload,
  });
  t.equal(bearerUpload.statusCode, 201, 'a Bearer multipart upload works as before');
  t.equal(
    (await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: user.email, password: 'correct horse battery' } })).statusCode,
    200,
    'login without Origin (API client) works',
  );

  // A preflight from an allowed origin may ask for the header.
  const pre = await app.inject({
    method: 'OPTIONS',
    url: '/api/v1/workspaces',
    headers: {
      origin: 'https://dashboard.example.com',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,x-requested-with',
    },
  });
  t.match(pre.headers['access-control-allow-headers'], /X-Requested-With/i);
});
