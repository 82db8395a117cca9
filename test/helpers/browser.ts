import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { Config } from '../../src/config.js';
import { ensureWebBuild } from '../../scripts/build-web.mjs';
import { buildTestApp, type TestContext } from './app.js';

/**
 * The harness of the browser tests (test/web/, docs/dashboard.md "Browser tests"): the real
 * server on a fresh PGlite database listening on 127.0.0.1, the current dashboard build, and
 * Debian's Chromium driven by playwright-core, with no network besides 127.0.0.1.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where the tests write their screenshots (the best are copied to docs/screenshots/). */
export const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR || path.join(root, '.data', 'screenshots');

/**
 * Why the browser tests cannot run here, or null when they can. Without Chromium a developer
 * sees a skip with the reason; under CI=true a missing Chromium is a failure (.ci/run installs it).
 * They run in the PGlite run of the suite only: the dashboard talks to the same API on both
 * databases, and the API tests cover PostgreSQL.
 */
export function browserSkipReason(): string | null {
  if (process.env.DATABASE_URL) return 'browser tests run in the PGlite run only (DATABASE_URL is set)';
  if (!existsSync(CHROMIUM)) {
    if (process.env.CI === 'true') return null; // let the launch fail loudly in CI
    return `Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`;
  }
  return null;
}

export interface DashboardServer {
  ctx: TestContext;
  /** Origin of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

/** Builds the dashboard if stale, then starts the real app on a fresh database on a free port. */
export async function startDashboardServer(overrides: Partial<Config> = {}): Promise<DashboardServer> {
  ensureWebBuild({ log: () => {} });
  const ctx = await buildTestApp({ jobsPollIntervalSec: 0.5, ...overrides });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (ctx.app.server.address() as AddressInfo).port;
  return { ctx, url: `http://127.0.0.1:${port}`, close: () => ctx.close() };
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Console errors and failed requests seen by the page (a test asserts there are none). */
  problems: string[];
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile; every request to a host other than 127.0.0.1 is aborted. */
export async function launchBrowser(opts: { viewport?: { width: number; height: number } } = {}): Promise<BrowserSession> {
  const profile = mkdtempSync(path.join(tmpdir(), 'dora-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: opts.viewport ?? { width: 1360, height: 860 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.hostname === '127.0.0.1' || u.protocol === 'blob:' || u.protocol === 'data:') return route.continue();
    return route.abort('blockedbyclient');
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  const watch = (p: Page) => {
    p.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  };
  watch(page);
  context.on('page', watch);
  return {
    context,
    page,
    problems,
    close: async () => {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Serious and critical axe-core violations on the current page, as readable lines. */
export async function a11yViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')})`,
    );
}

/** Writes a full-page screenshot to SCREENSHOT_DIR/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** The newest recorded e-mail to `to` (the recording mail transport) and the first dashboard link in it. */
export function lastMailLink(ctx: TestContext, to: string, pathPrefix: string): string {
  const mail = [...ctx.mailer.sent].reverse().find((m) => m.to === to && m.text.includes(pathPrefix));
  if (!mail) throw new Error(`no mail to ${to} with a ${pathPrefix} link`);
  const m = new RegExp(`https?://[^\\s]*${pathPrefix.replace(/[/?]/g, '\\$&')}[^\\s)]*`).exec(mail.text);
  if (!m) throw new Error(`no ${pathPrefix} link in the mail to ${to}`);
  const u = new URL(m[0]);
  return u.pathname + u.search;
}
