import t from 'tap';
import { a11yViolations, browserSkipReason, lastMailLink, launchBrowser, screenshot, startDashboardServer } from '../helpers/browser.js';

// The dashboard's way in, in a real browser (docs/dashboard.md): register, onboarding, the
// session surviving a reload, e-mail verification, sign-out, sign-in, password reset; the
// app shell's fallback and caching; no serious accessibility violation on these screens.
const skip = browserSkipReason();
// Skipped as a whole file, with the reason on the runner's line.
if (skip) t.plan(0, skip);
else
  t.test('sign-up to sign-in in the dashboard', async (t) => {
    const server = await startDashboardServer();
    const browser = await launchBrowser();
    t.teardown(async () => {
      await browser.close();
      await server.close();
    });
    const { page } = browser;
    const base = server.url;
    const email = 'ada.analyst@example.com';

    // The shell, its caching, and the fallback that never covers the API.
    const shell = await fetch(`${base}/vendors/some-vendor/ask`);
    t.equal(shell.status, 200, 'a client route deep link gets the app shell');
    t.match(shell.headers.get('cache-control'), /no-cache/, 'the shell is revalidated on every load');
    t.match(shell.headers.get('content-security-policy'), /frame-ancestors 'none'/);
    const html = await shell.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    t.ok(asset, 'the shell references a hashed script');
    const js = await fetch(`${base}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
    t.equal(js.status, 200);
    t.match(js.headers.get('cache-control'), /immutable/, 'hashed assets are cached as immutable');
    t.equal((await fetch(`${base}/assets/missing-abc123.js`)).status, 404, 'a missing asset is a 404, not the shell');
    const api404 = await fetch(`${base}/api/v1/no-such-route`);
    t.equal(api404.status, 404);
    t.equal((await api404.json()).error.code, 'NOT_FOUND', '/api keeps its JSON 404');
    t.equal((await fetch(`${base}/health`)).status, 200);

    // Signed out: any page leads to sign-in.
    await page.goto(`${base}/vendors`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    t.match(page.url(), /\/login\?next=%2Fvendors$/, 'a signed-out visitor is sent to sign-in, coming back afterwards');
    t.same(await a11yViolations(page), [], 'sign-in: no serious accessibility violation');
    await screenshot(page, 'login');

    // A wrong password shows the API's message.
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    t.pass('a failed sign-in shows "Invalid email or password"');

    // Register -> onboarding -> create the organization -> the (empty) vendor list.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Full name').fill('Ada Analyst');
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    t.equal(await page.getByLabel('Password').evaluate((el: HTMLInputElement) => el.validity.tooShort), true, 'the form checks the password length first');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Welcome, Ada Analyst' }).waitFor();
    t.match(page.url(), /\/onboarding$/, 'a new user without an organization lands on onboarding');
    t.same(await a11yViolations(page), [], 'onboarding: no serious accessibility violation');
    await screenshot(page, 'onboarding');
    await page.getByLabel('Organization name').fill('Example Bank AG');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor();
    await page.getByText('No vendors yet').waitFor();
    t.pass('the new organization shows an empty vendor list with a way forward');
    t.same(await a11yViolations(page), [], 'vendor list: no serious accessibility violation');

    // No token is kept by the page: the session is the HttpOnly cookies.
    const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
    t.notMatch(storage, /eyJ|accessToken|refreshToken/, 'no token in localStorage, sessionStorage or script-readable cookies');

    // The session survives a reload.
    await page.reload();
    await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor();
    t.pass('a reload keeps the user signed in');

    // An expired access token (the cookie is gone after 15 minutes) is renewed with the refresh cookie, invisibly.
    await browser.context.clearCookies({ name: 'accessToken' });
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/refresh') && r.status() === 200);
    await page.reload();
    await refreshed;
    await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor();
    t.ok(
      (await browser.context.cookies()).some((c) => c.name === 'accessToken'),
      'a 401 was answered by a refresh and a retry',
    );
    await page.getByRole('link', { name: /Ada Analyst/ }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await page.getByText('Your e-mail address is not verified yet').waitFor();

    // Verify the e-mail address with the mailed link.
    await page.goto(`${base}${await lastMailLink(server.ctx, email, '/verify-email?token=')}`);
    await page.getByText('E-mail address verified').waitFor();
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.getByRole('link', { name: /Ada Analyst/ }).click();
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    t.equal(await page.getByText('Your e-mail address is not verified yet').count(), 0, 'the account shows the address verified');

    // Sign out, then the forgotten password.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto(`${base}/vendors`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    t.pass('after sign-out the dashboard asks to sign in again');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await page.getByText('Check your inbox').waitFor();
    await page.goto(`${base}${await lastMailLink(server.ctx, email, '/reset-password?token=')}`);
    await page.getByLabel('New password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Password changed').waitFor();
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor();
    t.pass('the new password signs in');
    t.same(
      browser.problems.filter((p) => !/401|Failed to load resource/.test(p)),
      [],
      'no script error in the page',
    );
  });
