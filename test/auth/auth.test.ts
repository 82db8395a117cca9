import t from 'tap';
import { eq } from 'drizzle-orm';
import { emailTokens, refreshTokens, users } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/lib/ids.js';
import { buildTestApp, cookiesOf, registerUser } from '../helpers/app.js';

/** What the dashboard sends with cookie-authenticated writes (CSRF rule, docs/auth.md). */
const browser = { 'x-requested-with': 'dora-dashboard' };
const tokenFromMail = (text: string) => /token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';

t.test('authentication', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;

  t.test('register creates the user, sets both cookies and sends a verification mail', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { email: 'Alice@Example.com', password: 'a-long-password', name: 'Alice' },
    });
    t.equal(res.statusCode, 201);
    const body = res.json();
    t.equal(body.status, 'success');
    t.type(body.message, 'string');
    t.same(Object.keys(body.data.user).sort(), ['createdAt', 'email', 'id', 'name']);
    t.equal(body.data.user.email, 'alice@example.com', 'e-mail is normalised to lower case');
    const access = res.cookies.find((c) => c.name === 'accessToken')!;
    const refresh = res.cookies.find((c) => c.name === 'refreshToken')!;
    t.ok(access.httpOnly && refresh.httpOnly, 'HttpOnly');
    t.equal(access.sameSite, 'Strict');
    t.equal(refresh.sameSite, 'Strict');
    t.equal(access.maxAge, 15 * 60);
    t.equal(refresh.maxAge, 7 * 24 * 3600);
    t.notOk(access.secure, 'not Secure outside production');
    const mail = ctx.mailer.sent.at(-1)!;
    t.equal(mail.to, 'alice@example.com');
    t.match(mail.subject, /verify/i);
    t.ok(tokenFromMail(mail.text), 'mail carries a token link');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, 'alice@example.com'));
    t.match(row.passwordHash, /^\$argon2id\$/, 'password stored as argon2id');
  });

  t.test('register rejects bad input and duplicates', async (t) => {
    const bad = await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: { email: 'not-an-email', password: 'short', name: 'A' } });
    t.equal(bad.statusCode, 400);
    const b = bad.json();
    t.equal(b.status, 'error');
    t.equal(b.error.code, 'VALIDATION_ERROR');
    t.match(b.message, /^Validation failed: /);
    for (const field of ['email', 'password', 'name'])
      t.ok(
        b.error.details.some((d: string) => d.startsWith(`${field}:`)),
        `details name ${field}`,
      );
    const missing = await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: {} });
    t.equal(missing.statusCode, 400);
    t.ok(missing.json().error.details.includes('email: is required'));
    const longName = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { email: 'x@example.com', password: 'a-long-password', name: 'x'.repeat(101) },
    });
    t.equal(longName.statusCode, 400);
    const dup = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { email: 'ALICE@example.com', password: 'another-password', name: 'Alice Two' },
    });
    t.equal(dup.statusCode, 409);
    t.equal(dup.json().error.code, 'EMAIL_TAKEN');
    const notJson = await app.inject({ method: 'POST', url: '/api/v1/auth/register', headers: { 'content-type': 'application/json' }, payload: '{bad json' });
    t.equal(notJson.statusCode, 400);
    t.equal(notJson.json().status, 'error');
  });

  t.test('login', async (t) => {
    const ok = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'alice@example.com', password: 'a-long-password' } });
    t.equal(ok.statusCode, 200);
    t.same(Object.keys(ok.json().data.user).sort(), ['email', 'id', 'name']);
    t.ok(cookiesOf(ok).accessToken && cookiesOf(ok).refreshToken);
    for (const payload of [
      { email: 'alice@example.com', password: 'wrong-password' },
      { email: 'nobody@example.com', password: 'a-long-password' },
    ]) {
      const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload });
      t.equal(res.statusCode, 401);
      t.equal(res.json().message, 'Invalid email or password');
      t.equal(res.json().status, 'error');
    }
    const bad = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'alice@example.com' } });
    t.equal(bad.statusCode, 400);
  });

  t.test('GET /auth/me with cookie, Bearer, and without', async (t) => {
    const s = await registerUser(app, { name: 'Bob Builder' });
    const viaCookie = await app.inject({ method: 'GET', url: '/api/v1/auth/me', cookies: { accessToken: s.accessToken } });
    t.equal(viaCookie.statusCode, 200);
    const u = viaCookie.json().data.user;
    t.equal(u.id, s.id);
    t.equal(u.role, 'user');
    t.equal(u.status, 'active');
    t.ok(Date.parse(u.createdAt) && Date.parse(u.lastLoginAt));
    const viaBearer = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: s.headers });
    t.equal(viaBearer.json().data.user.email, s.email);
    const none = await app.inject({ method: 'GET', url: '/api/v1/auth/me' });
    t.equal(none.statusCode, 401);
    t.equal(none.json().message, 'Authentication required');
    const forged = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${s.accessToken.slice(0, -3)}abc` } });
    t.equal(forged.statusCode, 401);
    const wrongKey = app.jwt.sign({ sub: s.id, typ: 'access' }, { key: 'another-secret-another-secret-another' } as never);
    t.equal((await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${wrongKey}` } })).statusCode, 401);
    const expired = app.jwt.sign({ sub: s.id, typ: 'access' }, { expiresIn: -10 } as never);
    t.equal((await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${expired}` } })).statusCode, 401, 'expired token');
  });

  t.test('GET /auth/session: the user or null, never a 401', async (t) => {
    const s = await registerUser(app, { name: 'Sam Session' });
    const session = (cookies: Record<string, string> = {}, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: '/api/v1/auth/session', cookies, headers });
    const signedIn = await session({ accessToken: s.accessToken });
    t.equal(signedIn.statusCode, 200);
    const me = (await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: s.headers })).json().data.user;
    t.same(signedIn.json().data, { user: me, refreshable: false }, 'the same user as GET /auth/me');
    const none = await session();
    t.equal(none.statusCode, 200, 'a signed-out visitor is not an error');
    t.same(none.json().data, { user: null, refreshable: false });
    // The access token expired but the refresh cookie is there: the client may refresh.
    const expired = app.jwt.sign({ sub: s.id, typ: 'access' }, { expiresIn: -10 } as never);
    const stale = await session({ accessToken: expired, refreshToken: 'some-refresh-token' });
    t.equal(stale.statusCode, 200);
    t.same(stale.json().data, { user: null, refreshable: true });
    t.same((await session({}, { authorization: `Bearer ${expired}x` })).json().data, { user: null, refreshable: false }, 'a forged token is no session');
  });

  t.test('PATCH /auth/me', async (t) => {
    const s = await registerUser(app);
    const res = await app.inject({ method: 'PATCH', url: '/api/v1/auth/me', headers: s.headers, payload: { name: 'New Name', email: 'renamed@example.com' } });
    t.equal(res.statusCode, 200);
    t.same(res.json().data.user, { id: s.id, email: 'renamed@example.com', name: 'New Name' });
    const me = (await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: s.headers })).json().data.user;
    t.equal(me.emailVerified, false, 'a changed e-mail must be verified again');
    t.equal(ctx.mailer.sent.at(-1)!.to, 'renamed@example.com');
    const taken = await app.inject({ method: 'PATCH', url: '/api/v1/auth/me', headers: s.headers, payload: { email: 'alice@example.com' } });
    t.equal(taken.statusCode, 409);
    t.equal((await app.inject({ method: 'PATCH', url: '/api/v1/auth/me', headers: s.headers, payload: { name: 'x' } })).statusCode, 400);
    t.equal((await app.inject({ method: 'PATCH', url: '/api/v1/auth/me', headers: s.headers, payload: {} })).statusCode, 400);
    t.equal((await app.inject({ method: 'PATCH', url: '/api/v1/auth/me', payload: { name: 'Anon' } })).statusCode, 401);
  });

  t.test('refresh rotates the token; reuse of an old one revokes the family', async (t) => {
    const s = await registerUser(app);
    const first = await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: browser, cookies: { refreshToken: s.refreshToken } });
    t.equal(first.statusCode, 200);
    const rotated = cookiesOf(first);
    t.ok(rotated.accessToken, 'new access token cookie');
    t.ok(rotated.refreshToken && rotated.refreshToken !== s.refreshToken, 'refresh token rotated');
    const me = await app.inject({ method: 'GET', url: '/api/v1/auth/me', cookies: { accessToken: rotated.accessToken } });
    t.equal(me.statusCode, 200);

    const reuse = await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: browser, cookies: { refreshToken: s.refreshToken } });
    t.equal(reuse.statusCode, 401);
    t.equal(reuse.json().message, 'Invalid refresh token');
    const afterReuse = await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: browser, cookies: { refreshToken: rotated.refreshToken } });
    t.equal(afterReuse.statusCode, 401, 'the whole family is revoked after reuse');

    const stored = await ctx.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, s.id));
    t.ok(
      stored.every((r) => r.tokenHash.length === 64 && r.tokenHash !== s.refreshToken),
      'stored hashed',
    );
    t.equal((await app.inject({ method: 'POST', url: '/api/v1/auth/refresh' })).statusCode, 401);
    t.equal(
      (await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: browser, cookies: { refreshToken: 'garbage' } })).json().message,
      'Invalid refresh token',
    );
    const viaBody = await registerUser(app);
    t.equal(
      (await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: viaBody.refreshToken } })).statusCode,
      200,
      'API clients may send it in the body',
    );
  });

  t.test('logout clears both cookies and revokes the refresh token', async (t) => {
    const s = await registerUser(app);
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: browser, cookies: s.cookies });
    t.equal(res.statusCode, 200);
    t.type(res.json().message, 'string');
    const cleared = Object.fromEntries(res.cookies.map((c) => [c.name, c]));
    t.equal(cleared.accessToken.value, '');
    t.equal(cleared.refreshToken.value, '');
    t.ok(new Date(cleared.accessToken.expires!).getTime() < Date.now());
    const refresh = await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: browser, cookies: { refreshToken: s.refreshToken } });
    t.equal(refresh.statusCode, 401);
  });

  t.test('logout revokes the refresh token an API client sends in the body (Bearer, no cookie)', async (t) => {
    const s = await registerUser(app);
    const other = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: s.email, password: 'correct horse battery' } });
    // Rotate once: the family, not only the presented token, must die.
    const rotated = await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: s.refreshToken } });
    t.equal(rotated.statusCode, 200);
    const current = cookiesOf(rotated).refreshToken;
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: s.headers, payload: { refreshToken: current } });
    t.equal(res.statusCode, 200);
    const again = await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: current } });
    t.equal(again.statusCode, 401, 'the token given in the body no longer refreshes');
    t.equal(again.json().error.code, 'INVALID_REFRESH_TOKEN');
    const rows = await ctx.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, s.id));
    const family = rows.find((r) => r.tokenHash === sha256(current))!.familyId;
    t.ok(
      rows.filter((r) => r.familyId === family).every((r) => r.revokedAt !== null),
      'every token of that family is revoked (the rotated-away one too)',
    );
    const otherSession = await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: cookiesOf(other).refreshToken } });
    t.equal(otherSession.statusCode, 200, 'another login of the same user is untouched');

    const unknown = await app.inject({ method: 'POST', url: '/api/v1/auth/logout', payload: { refreshToken: 'not-a-token-we-issued' } });
    t.equal(unknown.statusCode, 200, 'an unknown token: 200 (nothing to revoke, nothing told)');
    const extra = await app.inject({ method: 'POST', url: '/api/v1/auth/logout', payload: { refreshToken: 'x'.repeat(20), other: 1 } });
    t.equal(extra.statusCode, 400, 'the body is declared: an unknown field is a 400');
    const tooLong = await app.inject({ method: 'POST', url: '/api/v1/auth/logout', payload: { refreshToken: 'x'.repeat(201) } });
    t.equal(tooLong.statusCode, 400);
    t.match(tooLong.json().error.details, [/^refreshToken:/]);
  });

  t.test('logout with a cookie and a different token in the body revokes both', async (t) => {
    const s = await registerUser(app);
    const other = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: s.email, password: 'correct horse battery' } });
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: browser,
      cookies: s.cookies,
      payload: { refreshToken: cookiesOf(other).refreshToken },
    });
    t.equal(res.statusCode, 200);
    for (const token of [s.refreshToken, cookiesOf(other).refreshToken])
      t.equal((await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: token } })).statusCode, 401);
  });

  t.test('logout-all revokes every session of the user and needs authentication', async (t) => {
    const s = await registerUser(app);
    const bystander = await registerUser(app);
    const logins = [];
    for (let i = 0; i < 3; i++)
      logins.push(
        cookiesOf(await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: s.email, password: 'correct horse battery' } })).refreshToken,
      );
    const anonymous = await app.inject({ method: 'POST', url: '/api/v1/auth/logout-all' });
    t.equal(anonymous.statusCode, 401);
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/logout-all', headers: s.headers });
    t.equal(res.statusCode, 200);
    t.equal(res.cookies.find((c) => c.name === 'refreshToken')?.value, '', 'the cookies are cleared');
    for (const token of [s.refreshToken, ...logins])
      t.equal((await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: token } })).statusCode, 401, 'every family revoked');
    t.equal(
      (await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: bystander.refreshToken } })).statusCode,
      200,
      "another user's session is untouched",
    );
    const cookieClient = await registerUser(app);
    const viaCookie = await app.inject({ method: 'POST', url: '/api/v1/auth/logout-all', headers: browser, cookies: cookieClient.cookies });
    t.equal(viaCookie.statusCode, 200, 'the dashboard (cookie + X-Requested-With) can sign out everywhere');
    t.equal((await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: cookieClient.refreshToken } })).statusCode, 401);
  });

  t.test('change-password', async (t) => {
    const s = await registerUser(app, { password: 'first-password' });
    const other = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: s.email, password: 'first-password' } });
    const otherRefresh = cookiesOf(other).refreshToken;
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/change-password',
      headers: s.headers,
      payload: { currentPassword: 'nope-nope', newPassword: 'second-password' },
    });
    t.equal(wrong.statusCode, 400);
    t.equal(wrong.json().error.code, 'INVALID_CURRENT_PASSWORD');
    const same = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/change-password',
      headers: s.headers,
      payload: { currentPassword: 'first-password', newPassword: 'first-password' },
    });
    t.equal(same.statusCode, 400);
    const short = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/change-password',
      headers: s.headers,
      payload: { currentPassword: 'first-password', newPassword: 'short' },
    });
    t.equal(short.statusCode, 400);
    t.equal(
      (await app.inject({ method: 'POST', url: '/api/v1/auth/change-password', payload: { currentPassword: 'a', newPassword: 'b-long-enough' } })).statusCode,
      401,
    );
    const ok = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/change-password',
      headers: { ...s.headers, ...browser },
      cookies: { refreshToken: s.refreshToken },
      payload: { currentPassword: 'first-password', newPassword: 'second-password' },
    });
    t.equal(ok.statusCode, 200);
    t.type(ok.json().message, 'string');
    t.equal((await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: s.email, password: 'first-password' } })).statusCode, 401);
    t.equal((await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: s.email, password: 'second-password' } })).statusCode, 200);
    t.equal(
      (await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: browser, cookies: { refreshToken: otherRefresh } })).statusCode,
      401,
      'other sessions are signed out',
    );
    t.equal(
      (await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: browser, cookies: { refreshToken: s.refreshToken } })).statusCode,
      200,
      'the current session stays',
    );
  });

  t.test('forgot and reset password with a single-use token from the e-mail', async (t) => {
    const s = await registerUser(app, { password: 'old-password-1' });
    const before = ctx.mailer.sent.length;
    const unknown = await app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: 'ghost@example.com' } });
    t.equal(unknown.statusCode, 200);
    await app.services.auth.settled(); // the mail goes out after the response
    t.equal(ctx.mailer.sent.length, before, 'no mail for an unknown address');
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: s.email } });
    t.equal(res.statusCode, 200);
    await app.services.auth.settled();
    t.equal(res.json().message, unknown.json().message, 'same answer whether or not the account exists');
    const mail = ctx.mailer.sent.at(-1)!;
    t.equal(mail.to, s.email);
    t.match(mail.subject, /reset/i);
    const token = tokenFromMail(mail.text);
    t.equal((await app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: 'bad' } })).statusCode, 400);

    const weak = await app.inject({ method: 'POST', url: '/api/v1/auth/reset-password', payload: { token, newPassword: 'short' } });
    t.equal(weak.statusCode, 400);
    const reset = await app.inject({ method: 'POST', url: '/api/v1/auth/reset-password', payload: { token, newPassword: 'brand-new-password' } });
    t.equal(reset.statusCode, 200);
    t.equal((await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: s.email, password: 'brand-new-password' } })).statusCode, 200);
    t.equal(
      (await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: browser, cookies: { refreshToken: s.refreshToken } })).statusCode,
      401,
      'old sessions revoked',
    );
    const again = await app.inject({ method: 'POST', url: '/api/v1/auth/reset-password', payload: { token, newPassword: 'third-password-x' } });
    t.equal(again.statusCode, 400, 'token is single-use');
    t.equal(again.json().error.code, 'INVALID_TOKEN');

    await app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: s.email } });
    await app.services.auth.settled();
    const late = tokenFromMail(ctx.mailer.sent.at(-1)!.text);
    await ctx.database.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.userId, s.id));
    t.equal(
      (await app.inject({ method: 'POST', url: '/api/v1/auth/reset-password', payload: { token: late, newPassword: 'fourth-password' } })).statusCode,
      400,
      'expired token refused',
    );
  });

  t.test('verify-email and resend-verification', async (t) => {
    const s = await registerUser(app);
    const firstToken = tokenFromMail(ctx.mailer.sent.filter((m) => m.to === s.email).at(-1)!.text);
    const resend = await app.inject({ method: 'POST', url: '/api/v1/auth/resend-verification', headers: s.headers });
    t.equal(resend.statusCode, 200);
    await app.services.auth.settled();
    const token = tokenFromMail(ctx.mailer.sent.at(-1)!.text);
    t.not(token, firstToken);
    t.equal(
      (await app.inject({ method: 'POST', url: '/api/v1/auth/verify-email', payload: { token: firstToken } })).statusCode,
      400,
      'a resent link supersedes the old one',
    );
    const ok = await app.inject({ method: 'POST', url: '/api/v1/auth/verify-email', payload: { token } });
    t.equal(ok.statusCode, 200);
    t.equal(ok.json().data.user.emailVerified, true);
    t.equal((await app.inject({ method: 'POST', url: '/api/v1/auth/verify-email', payload: { token } })).statusCode, 400, 'single use');
    t.equal((await app.inject({ method: 'POST', url: '/api/v1/auth/verify-email', payload: {} })).statusCode, 400);
    const count = ctx.mailer.sent.length;
    t.equal((await app.inject({ method: 'POST', url: '/api/v1/auth/resend-verification', payload: { email: s.email } })).statusCode, 200);
    await app.services.auth.settled();
    t.equal(ctx.mailer.sent.length, count, 'no mail once verified');
    t.equal((await app.inject({ method: 'POST', url: '/api/v1/auth/resend-verification' })).statusCode, 400, 'anonymous without e-mail');
  });
});
