/**
 * The dashboard's first load on loopback and the size of its production JavaScript
 * (docs/dashboard.md, "Measured"). Run on a quiet machine:
 *
 *   heavy -x node --import=tsx bench/dashboard.ts [runs]
 *
 * - Bundle: the gzip size of every JavaScript file of web/dist/assets, split into what the
 *   first page load fetches (the entry and its modulepreloads, named in index.html) and the
 *   chunks loaded on demand (routes behind sign-in).
 * - First load, cold (a fresh browser context with the HTTP cache disabled, every run):
 *   `/login` until the sign-in form is interactive (the Sign in button is rendered and enabled),
 *   and, signed in, `/vendors` until the vendor table is on screen (session check, organization,
 *   the list, the lazy route chunk). Times are from navigation start (performance.now() in the page).
 * The server is the real app on an in-memory PGlite database, on 127.0.0.1.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ensureWebBuild } from '../scripts/build-web.mjs';
import { registerUser } from '../test/helpers/app.js';
import { CHROMIUM, startDashboardServer } from '../test/helpers/browser.js';
import { createOrg, createWorkspace } from '../test/helpers/workspaces.js';

const runs = Number(process.argv[2] ?? 15);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'web', 'dist');

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

ensureWebBuild({ force: true, log: () => {} });
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = new Set([...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!));
let initialRaw = 0;
let initialGz = 0;
let lazyRaw = 0;
let lazyGz = 0;
const lines: string[] = [];
for (const f of readdirSync(path.join(dist, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .sort()) {
  const buf = readFileSync(path.join(dist, 'assets', f));
  const gz = gzipSync(buf, { level: 9 }).length;
  if (initial.has(f)) {
    initialRaw += buf.length;
    initialGz += gz;
  } else {
    lazyRaw += buf.length;
    lazyGz += gz;
  }
  lines.push(`  ${initial.has(f) ? 'first load' : 'on demand '}  ${f.padEnd(40)} ${kb(buf.length).padStart(10)}  gzip ${kb(gz).padStart(9)}`);
}
const css = readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.css'));
const cssGz = css.reduce((n, f) => n + gzipSync(readFileSync(path.join(dist, 'assets', f)), { level: 9 }).length, 0);
console.log('Production bundle (web/dist/assets):');
for (const l of lines) console.log(l);
console.log(
  `JavaScript of the first load: ${kb(initialRaw)}, gzip ${kb(initialGz)}; on demand: ${kb(lazyRaw)}, gzip ${kb(lazyGz)}; all: gzip ${kb(initialGz + lazyGz)}`,
);
console.log(`CSS: gzip ${kb(cssGz)}`);

const server = await startDashboardServer();
const { app } = server.ctx;
const user = await registerUser(app, { email: 'bench@example.com', password: 'correct horse battery' });
await createOrg(app, user, 'Bench Bank');
for (const name of ['GitHub', 'Basecamp', 'Atlassian', 'Microsoft', 'Amazon Web Services']) await createWorkspace(app, user, name);

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const login: number[] = [];
const vendors: number[] = [];
for (let i = 0; i < runs + 1; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.goto(`${server.url}/login`, { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':enabled')).waitFor();
  const tLogin = await page.evaluate(() => performance.now());
  await page.getByLabel('E-mail').fill('bench@example.com');
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor();
  // A fresh load of a signed-in page: the session cookie is there, nothing is cached.
  await page.goto(`${server.url}/vendors`, { waitUntil: 'commit' });
  await page.getByRole('link', { name: 'Amazon Web Services' }).waitFor();
  const tVendors = await page.evaluate(() => performance.now());
  if (i > 0) {
    // the first run warms the server (JIT, prepared statements) and is not counted
    login.push(tLogin);
    vendors.push(tVendors);
  }
  await context.close();
}
await browser.close();
await server.close();

const fmt = (xs: number[]) => `median ${pct(xs, 50).toFixed(0)} ms, p95 ${pct(xs, 95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
console.log(`\nFirst load on loopback, cache disabled, ${runs} runs:`);
console.log(`  /login until the sign-in form is interactive: ${fmt(login)}`);
console.log(`  /vendors signed in, until the vendor table is shown: ${fmt(vendors)}`);
console.log(
  `load average: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
