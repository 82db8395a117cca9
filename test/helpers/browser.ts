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
 * They run on whichever database the run uses. `TEST_BROWSER=0` turns them off: `.ci/run` sets
 * it for its PGlite run, so that the browser tests run once, in the PostgreSQL run beside it
 * (the dashboard talks to the same API on both databases, and the API tests cover both).
 */
export function browserSkipReason(): string | null {
  if (process.env.TEST_BROWSER === '0') return 'browser tests are off in this run (TEST_BROWSER=0)';
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
export async function launchBrowser(opts: { viewport?: { width: number; height: number }; locale?: string } = {}): Promise<BrowserSession> {
  const profile = mkdtempSync(path.join(tmpdir(), 'dora-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: opts.viewport ?? { width: 1360, height: 860 },
    ...(opts.locale ? { locale: opts.locale } : {}),
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
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** The two sizes every screen is checked at (docs/dashboard.md, "Every size"): a phone and a laptop. */
export const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1366, height: 900 },
] as const;
export type Size = (typeof SIZES)[number];

/** How far the page is wider than the window (0 when nothing scrolls sideways at page level). */
export function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** The elements that reach past the window's right edge (innermost first), to say what overflows. */
export function overflowCulprits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const r = el.getBoundingClientRect();
      if (r.right <= w + 0.5 || r.width === 0) continue;
      // Inside something that scrolls or clips sideways: not the page's overflow (an absolutely
      // positioned element escapes the clipping of ancestors that are not its containing block).
      let p = el.parentElement;
      let clipped = false;
      const escapes = getComputedStyle(el).position === 'absolute' || getComputedStyle(el).position === 'fixed';
      while (!escapes && p && p !== document.body) {
        const o = getComputedStyle(p).overflowX;
        if (o !== 'visible' && p.getBoundingClientRect().right <= w + 0.5) {
          clipped = true;
          break;
        }
        p = p.parentElement;
      }
      if (clipped) continue;
      if ([...el.children].some((c) => c.getBoundingClientRect().right > w + 0.5)) continue;
      out.push(
        `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''} right=${Math.round(r.right)} "${(el.textContent ?? '').trim().slice(0, 40)}"`,
      );
      if (out.length >= 5) break;
    }
    return out;
  });
}

/**
 * The screen at each size: the window resized, `ready` awaited (what must be on screen), the
 * page-level overflow measured and a screenshot written to SCREENSHOT_DIR/sizes/<name>-<width>.png
 * (not committed). Returns the overflow at each size, e.g. `{ phone: 0, laptop: 0 }`.
 */
export async function atEachSize(page: Page, name: string, ready?: (size: Size) => Promise<unknown>): Promise<Record<Size['name'], number>> {
  const out = {} as Record<Size['name'], number>;
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    if (ready) await ready(size);
    // Layout settles on the next frame after a resize (media queries, measured heights).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    out[size.name] = await pageOverflow(page);
    if (out[size.name] > 0) console.error(`# ${name} at ${size.width} px overflows by ${out[size.name]} px: ${(await overflowCulprits(page)).join(' | ')}`);
    await screenshot(page, `sizes/${name}-${size.width}`);
  }
  return out;
}

/**
 * The newest recorded e-mail to `to` (the recording mail transport) and the first dashboard link in
 * it. The page's confirmation answers the request; the mail may leave a moment later (it goes through
 * the job queue), so it is waited for, up to 10 s.
 */
export async function lastMailLink(ctx: TestContext, to: string, pathPrefix: string): Promise<string> {
  const find = () => [...ctx.mailer.sent].reverse().find((m) => m.to === to && m.text.includes(pathPrefix));
  for (let i = 0; i < 100 && !find(); i++) await new Promise((r) => setTimeout(r, 100));
  const mail = find();
  if (!mail) throw new Error(`no mail to ${to} with a ${pathPrefix} link`);
  const m = new RegExp(`https?://[^\\s]*${pathPrefix.replace(/[/?]/g, '\\$&')}[^\\s)]*`).exec(mail.text);
  if (!m) throw new Error(`no ${pathPrefix} link in the mail to ${to}`);
  const u = new URL(m[0]);
  return u.pathname + u.search;
}
