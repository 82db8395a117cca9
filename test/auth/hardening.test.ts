import { createHmac, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import t from 'tap';
import { sql } from '../../src/db/client.js';
import { DEV_SECRETS_KEY } from '../../src/config.js';
import { developmentJwtSecret, developmentSecret } from '../../src/lib/devSecret.js';
import { createSecretBox } from '../../src/lib/secrets.js';
import { createMailer } from '../../src/lib/mailer.js';
import { buildTestApp, registerUser } from '../helpers/app.js';

/**
 * Hardening of authentication and logs (docs/auth.md, docs/reliability.md), on one app
 * with a real local SMTP server that can hold a message on demand.
 */
const b64 = (v: object | Buffer) => Buffer.from(v instanceof Buffer ? v : JSON.stringify(v)).toString('base64url');
function hs256(payload: object, secret: string): string {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

t.test('auth and logs', async (t) => {
  const received: string[] = [];
  let hold: Promise<void> | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        void (hold ?? Promise.resolve()).then(() => {
          received.push(to);
          callback();
        });
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${(server.server.address() as { port: number }).port}`, from: 'no-reply@service.test' });
  t.teardown(() => mailer.close());
  const lines: string[] = [];
  const ctx = await buildTestApp({ logLevel: 'info' }, { mailer, seed: false, logStream: { write: (line) => void lines.push(line) } });
  t.teardown(ctx.close);
  const { app, database } = ctx;
  const user = await registerUser(app);

  t.test('forgot-password and resend-verification answer before any mail is sent', async (t) => {
    let release!: () => void;
    hold = new Promise<void>((r) => (release = r));
    const safety = setTimeout(() => release(), 5000); // only matters when the answer waits for the mail
    const order: string[] = [];
    const forgot = await app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: user.email } });
    order.push(`answered ${forgot.statusCode}`);
    const unknown = await app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: 'nobody@example.com' } });
    const resend = await app.inject({ method: 'POST', url: '/api/v1/auth/resend-verification', payload: { email: user.email } });
    order.push(`mails received ${received.filter((to) => to === user.email).length}`);
    release();
    clearTimeout(safety);
    await app.services.auth.settled();
    hold = null;
    t.same(order, ['answered 200', 'mails received 1'], 'the answer came while the SMTP server still held the reset mail (only the registration mail was in)');
    t.equal(unknown.json().message, forgot.json().message, 'the same answer for an unknown address');
    t.equal(resend.statusCode, 200);
    t.equal(received.filter((to) => to === user.email).length, 3, 'the reset and verification mails went out after the answers');
    t.notOk(received.includes('nobody@example.com'), 'nothing for an unknown address');
  });

  t.test('a token without exp, or living longer than the TTL, is refused; a valid Bearer wins over a stale cookie', async (t) => {
    const secret = ctx.config.jwtSecret!;
    const forever = hs256({ sub: user.id, typ: 'access', iat: Math.floor(Date.now() / 1000) }, secret);
    const noExp = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${forever}` } });
    t.equal(noExp.statusCode, 401, 'no exp: 401');
    const withExp = hs256({ sub: user.id, typ: 'access', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 60 }, secret);
    t.equal(
      (await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${withExp}` } })).statusCode,
      200,
      'the same token with exp: 200',
    );

    // The lifetime is the service's (ACCESS_TOKEN_TTL_SEC, 15 minutes here), whatever the token says.
    const ttl = ctx.config.accessTokenTtlSec;
    const now = Math.floor(Date.now() / 1000);
    const me = (token: string) => app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${token}` } });
    const tenYears = hs256({ sub: user.id, typ: 'access', iat: now, exp: now + 10 * 365 * 86400 }, secret);
    t.equal((await me(tenYears)).statusCode, 401, 'a 10-year exp: 401');
    const oneTooLong = hs256({ sub: user.id, typ: 'access', iat: now, exp: now + ttl + 1 }, secret);
    t.equal((await me(oneTooLong)).statusCode, 401, 'exp one second beyond the TTL after iat: 401');
    const old = hs256({ sub: user.id, typ: 'access', iat: now - ttl - 120, exp: now + 60 }, secret);
    t.equal((await me(old)).statusCode, 401, 'issued longer ago than the TTL (an exp still in the future): 401');
    const noIat = hs256({ sub: user.id, typ: 'access', exp: now + 60 }, secret);
    t.equal((await me(noIat)).statusCode, 401, 'no iat: 401');
    const future = hs256({ sub: user.id, typ: 'access', iat: now + 3600, exp: now + 3600 + 60 }, secret);
    t.equal((await me(future)).statusCode, 401, 'issued in the future: 401');
    const fullTtl = hs256({ sub: user.id, typ: 'access', iat: now, exp: now + ttl }, secret);
    t.equal((await me(fullTtl)).statusCode, 200, 'exactly the TTL: 200');
    t.equal((await me(user.accessToken)).statusCode, 200, 'a token the service issued: 200');

    const stale = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: user.headers, cookies: { accessToken: 'expired.or.garbage' } });
    t.equal(stale.statusCode, 200, 'a valid Bearer token beside an invalid cookie: 200');
    const cookieOnly = await app.inject({ method: 'GET', url: '/api/v1/auth/me', cookies: { accessToken: user.accessToken } });
    t.equal(cookieOnly.statusCode, 200, 'the cookie alone still works');
  });

  t.test('the development secret is random per data directory and kept beside it', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dora-secret-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const a = developmentJwtSecret({ pgliteDataDir: path.join(dir, 'one') });
    const again = developmentJwtSecret({ pgliteDataDir: path.join(dir, 'one') });
    const b = developmentJwtSecret({ pgliteDataDir: path.join(dir, 'two') });
    t.equal(again.secret, a.secret, 'the same directory keeps its secret across restarts');
    t.not(b.secret, a.secret, 'another directory has another secret');
    t.ok(a.secret.length >= 32);
    t.equal(statSync(a.file!).mode & 0o777, 0o600, 'readable by the owner only');
    t.not(
      developmentJwtSecret({ pgliteDataDir: 'memory://' }).secret,
      developmentJwtSecret({ pgliteDataDir: 'memory://' }).secret,
      'in memory: a new one each time',
    );

    // SECRETS_KEY unset: its own random key beside the data, not the published constant, which
    // still opens what earlier versions sealed with it (src/server.ts passes it as a previous key).
    const key = developmentSecret('secrets-key', { pgliteDataDir: path.join(dir, 'one') });
    t.equal(developmentSecret('secrets-key', { pgliteDataDir: path.join(dir, 'one') }).secret, key.secret, 'the secrets key is kept across restarts');
    t.not(key.secret, a.secret, 'and differs from the token secret');
    t.not(key.secret, DEV_SECRETS_KEY);
    t.equal(statSync(key.file!).mode & 0o777, 0o600);
    const sealedBefore = createSecretBox(DEV_SECRETS_KEY).seal('Bearer old-token', 'row-1');
    const box = createSecretBox(key.secret, [DEV_SECRETS_KEY]);
    t.equal(box.open(sealedBefore, 'row-1'), 'Bearer old-token', 'a credential sealed with the old development key still opens');
    t.notOk(box.isCurrent(sealedBefore), 'and is marked for re-sealing');
    t.throws(() => createSecretBox(randomUUID().repeat(2)).open(box.seal('x', 'row-1'), 'row-1'), 'another installation cannot open it');
  });

  t.test('the log of a failing registration holds no e-mail address, password or hash', async (t) => {
    // Every new user row now violates a constraint: the insert fails inside the database.
    await database.db.execute(sql`alter table users add constraint no_new_users check (created_at < '2000-01-01') not valid`);
    t.teardown(() => database.db.execute(sql`alter table users drop constraint no_new_users`));
    const email = 'victim.person@bank.example';
    const password = 'Tr0ub4dor&3-secret';
    const before = lines.length;
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: { email, password, name: 'Victim Person' } });
    t.equal(res.statusCode, 500, 'the registration fails');
    t.notMatch(res.body, /no_new_users|insert into/i, 'the client sees no internals');
    const log = lines.slice(before).join('');
    t.match(log, /request failed/, 'the failure is logged');
    t.match(log, /Failed query: insert into \\"users\\"/, 'with the statement (JSON-escaped in the log line)');
    t.match(log, /params: \[redacted\]/, 'whose parameters are redacted');
    t.match(log, /no_new_users/, 'and the database error');
    t.notOk(log.includes(email), 'not the e-mail address');
    t.notOk(log.includes('victim.person'), 'not even part of it');
    t.notOk(log.includes(password), 'not the password');
    t.notOk(log.includes('$argon2id$'), 'not the password hash');
    t.notOk(log.includes('Victim Person'), 'not the name');
    t.notOk(lines.join('').includes(user.email), 'no e-mail address anywhere in the log (mail is logged by domain)');
  });
});
