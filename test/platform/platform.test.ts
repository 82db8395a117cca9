import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../../src/config.js';
import { createMailer } from '../../src/lib/mailer.js';
import { buildTestApp } from '../helpers/app.js';
import { fixture, multipartBody } from '../helpers/dataSources.js';
import { buildServer } from '../../scripts/build-server.mjs';

t.test('HTTP platform', async (t) => {
  const ctx = await buildTestApp({ corsOrigins: ['https://dashboard.example.com'] });
  t.teardown(ctx.close);
  const { app } = ctx;

  t.test('CORS: configured origins, credentials, methods and headers', async (t) => {
    const pre = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/compliance/domains',
      headers: {
        origin: 'https://dashboard.example.com',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'content-type,x-workspace-id',
      },
    });
    t.equal(pre.statusCode, 204);
    t.equal(pre.headers['access-control-allow-origin'], 'https://dashboard.example.com');
    t.equal(pre.headers['access-control-allow-credentials'], 'true');
    t.equal(pre.headers['access-control-allow-methods'], 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    t.equal(pre.headers['access-control-allow-headers'], 'Content-Type, Authorization, X-Workspace-Id, X-Requested-With, Last-Event-ID, Idempotency-Key');
    const other = await app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://evil.example.net' } });
    t.notOk(other.headers['access-control-allow-origin'], 'unknown origins get no CORS grant');
  });

  t.test('request ids are generated or taken from X-Request-Id', async (t) => {
    const given = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    t.equal(given.headers['x-request-id'], 'abc-123');
    const bad = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'bad id with spaces' } });
    t.match(bad.headers['x-request-id'], /^[0-9a-f-]{36}$/);
  });

  t.test('unknown routes and unsupported bodies answer in the envelope', async (t) => {
    const nf = await app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    t.equal(nf.statusCode, 404);
    t.equal(nf.json().status, 'error');
    t.equal(nf.json().error.code, 'NOT_FOUND');
    const media = await app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/xml' }, payload: '<x/>' });
    t.equal(media.statusCode, 415);
    t.equal(media.json().status, 'error');
    const big = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'a@b.c', password: 'x'.repeat(1_100_000) } });
    t.equal(big.statusCode, 413);
    t.equal(big.json().status, 'error');
  });

  t.test('OpenAPI is generated from the route schemas', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/docs/json' });
    t.equal(res.statusCode, 200);
    const doc = res.json();
    t.match(doc.openapi, /^3\./);
    t.ok(doc.paths['/api/v1/auth/register'].post.requestBody, 'register documents its body');
    t.ok(doc.paths['/api/v1/compliance/articles/{article}'].get.responses['200']);
    t.ok(doc.paths['/health'].get);
    const ui = await app.inject({ method: 'GET', url: '/docs/' });
    t.equal(ui.statusCode, 200);
    t.match(ui.headers['content-type'], /html/);
  });
});

t.test('configuration', async (t) => {
  t.throws(() => loadConfig({ NODE_ENV: 'production' }), /JWT_SECRET/, 'production refuses the development secret');
  t.throws(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'short' }), /JWT_SECRET/, 'production refuses a short secret');
  const prod = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), SECRETS_KEY: 'y'.repeat(40) });
  t.equal(prod.cookieSecure, true, 'cookies are Secure in production');
  t.equal(prod.jwtSecret, 'x'.repeat(40));
  t.equal(loadConfig({}).jwtSecret, undefined, 'no secret in the source: development makes one per data directory');
  t.throws(() => loadConfig({ PORT: 'eighty' }), /integer/);
  const dev = loadConfig({ RATE_LIMIT_LOGIN_MAX: '3', RATE_LIMIT_LOGIN_WINDOW_MS: '60000', INSTITUTION_NAME: 'Bank AG' });
  t.same(dev.rateLimits.login, { max: 3, windowMs: 60000 });
  t.equal(dev.rateLimits.general.max, 100);
  t.equal(dev.institutionName, 'Bank AG');
  t.equal(loadConfig({}).institutionName, 'Financial Entity');
});

t.test('mail goes out over SMTP when SMTP_URL is set', async (t) => {
  const received: { from: string; to: string[]; body: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let body = '';
      stream.on('data', (c: Buffer) => (body += c.toString()));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), body });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const port = (server.server.address() as { port: number }).port;
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Service <no-reply@service.test>' });
  t.teardown(() => mailer.close());
  t.equal(mailer.kind, 'smtp');
  const ctx = await buildTestApp({}, { mailer });
  t.teardown(ctx.close);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { email: 'smtp-user@example.com', password: 'long-password', name: 'Smtp User' },
  });
  t.equal(res.statusCode, 201);
  t.equal(received.length, 1);
  t.same(received[0].to, ['smtp-user@example.com']);
  t.equal(received[0].from, 'no-reply@service.test');
  t.match(received[0].body, /Subject: Verify your e-mail address/);
  t.match(received[0].body, /verify-email\?token=/);
});

t.test('the service starts with `npm start` on PGlite and shuts down gracefully', async (t) => {
  // What `npm start` runs after the dashboard build: the service transpiled to dist/.
  await buildServer();
  const child = spawn(process.execPath, ['dist/server.js'], {
    // The general limit raised: the test polls the upload until it is ingested.
    env: {
      ...process.env,
      DATABASE_URL: '',
      PGLITE_DATA_DIR: 'memory://',
      PORT: '0',
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
      RATE_LIMIT_GENERAL_MAX: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let out = '';
  child.stderr.on('data', (c) => (out += c));
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 240_000);
    child.stdout.on('data', (c) => {
      out += c;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  const health = await fetch(`${address}/health`);
  t.equal(health.status, 200);
  // TypeBox (the route schemas) comes from its one bundled copy in dist/vendor/, never
  // from its ~680 files in node_modules (docs/performance.md, "Start-up and memory").
  const bare = readdirSync('dist', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js') && !f.startsWith(`vendor${path.sep}`))
    .filter((f) => /from ["']typebox/.test(readFileSync(path.join('dist', f), 'utf8')));
  t.same(bare, [], 'no file of dist/ imports TypeBox from node_modules');
  const invalid = await fetch(`${address}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: 'long-password', name: 'Starter' }),
  });
  t.equal(invalid.status, 400, 'the bundled schemas validate');
  t.match((await invalid.json()).error, { code: 'VALIDATION_ERROR', details: [/email/] });
  const reg = await fetch(`${address}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'start@example.com', password: 'long-password', name: 'Starter' }),
  });
  t.equal(reg.status, 201);
  const token = (await reg.json()).data.accessToken;
  const art = await fetch(`${address}/api/v1/compliance/articles/Article-28`, { headers: { authorization: `Bearer ${token}` } });
  t.equal((await art.json()).data.article.title, 'General principles', 'reference data is loaded on first start');

  // The DOCX and XLSX readers are loaded with the first such upload, not at start: the
  // first upload of each in a fresh process is parsed and ingested like any other.
  const auth = { authorization: `Bearer ${token}` };
  const org = await fetch(`${address}/api/v1/organizations`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Start Bank' }),
  });
  t.equal(org.status, 201);
  const ws = await fetch(`${address}/api/v1/workspaces`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ workspaceName: 'First Vendor' }),
  });
  t.equal(ws.status, 201);
  const wsId = (await ws.json()).data.workspace.id;
  const { payload, contentType } = multipartBody([
    { filename: 'sample.docx', content: fixture('sample.docx') },
    { filename: 'sample.xlsx', content: fixture('sample.xlsx') },
  ]);
  const up = await fetch(`${address}/api/v1/data-sources`, {
    method: 'POST',
    headers: { ...auth, 'x-workspace-id': wsId, 'content-type': contentType },
    body: payload,
  });
  const created = await up.json();
  t.equal(up.status, 201, JSON.stringify(created.error));
  const dsId = created.data.dataSource.id;
  let ds: { status: string; documentCount: number; error: unknown } | undefined;
  for (let i = 0; i < 1200; i++) {
    ds = (await (await fetch(`${address}/api/v1/data-sources/${dsId}`, { headers: { ...auth, 'x-workspace-id': wsId } })).json()).data.dataSource;
    if (ds!.status !== 'pending' && ds!.status !== 'processing') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  t.equal(ds?.status, 'ready', JSON.stringify(ds?.error));
  t.equal(ds?.documentCount, 2, 'the first DOCX and the first XLSX of the process are ingested');
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  t.equal(code, 0, 'exit code 0 after SIGTERM');
  t.match(out, /shutting down/);
});
