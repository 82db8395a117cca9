import t from 'tap';
import { addDays } from '../../src/domain/inventory.js';
import { registerUser } from '../helpers/app.js';
import { a11yViolations, browserSkipReason, launchBrowser, pageOverflow, screenshot, startDashboardServer } from '../helpers/browser.js';
import { ingest } from '../helpers/rag.js';
import { createOrg, createWorkspace } from '../helpers/workspaces.js';

// The vendor inventory in a real browser (docs/inventory.md, issue 31): a link with filters
// opens the filtered, sorted list; a column header sorts; the search narrows by name; a filter
// set by a KPI link shows as a removable chip; clearing brings every vendor back.
const skip = browserSkipReason();

if (skip) t.plan(0, skip);
else
  t.test('the vendor inventory', async (t) => {
    const server = await startDashboardServer({ syncSchedulerIntervalSec: 0 });
    const browser = await launchBrowser();
    t.teardown(async () => {
      await browser.close();
      await server.close();
    });
    const { page, problems } = browser;
    const { app } = server.ctx;
    const user = await registerUser(app, { name: 'Ada Analyst', email: 'ada@example.com' });
    await createOrg(app, user, 'Example Bank AG');
    const today = new Date().toISOString().slice(0, 10);
    const vendor = (name: string, tier: string, reviewIn: number, contractEndIn: number | null, extra: Record<string, unknown> = {}) =>
      createWorkspace(app, user, name, {
        vendorProfile: {
          criticalityTier: tier,
          ...(tier === 'critical' ? { supportsCriticalFunction: true } : {}),
          nextReviewDate: addDays(today, reviewIn),
          ...(contractEndIn === null ? {} : { contracts: [{ reference: `${name}-1`, startDate: '2024-01-01', endDate: addDays(today, contractEndIn) }] }),
          ...extra,
        },
      });
    const github = await vendor('GitHub', 'critical', 12, 300);
    await vendor('Basecamp', 'critical', -4, 45, { exitPlan: { exists: true } });
    await vendor('Cloudflare', 'critical', 90, 20);
    await vendor('Slack', 'high', 5, 10);
    await vendor('Zoom', 'low', 400, null);

    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill('ada@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor();

    const names = async () => (await page.locator('tbody tr td:first-child a').allInnerTexts()).map((s) => s.trim());
    const waitNames = async (expected: string[]) => {
      await page.waitForFunction(
        (want) => JSON.stringify([...document.querySelectorAll('tbody tr td:first-child a')].map((a) => a.textContent?.trim())) === JSON.stringify(want),
        expected,
        { timeout: 10_000 },
      );
      return names();
    };

    // "Critical, review due in 30 days, by contract end" as a link.
    await page.goto(`${server.url}/vendors?tier=critical&dueWithinDays=30&sort=contractEnd`);
    t.same(await waitNames(['Basecamp', 'GitHub']), ['Basecamp', 'GitHub'], 'filtered and sorted by contract end');
    t.equal(await page.getByLabel('Tier').inputValue(), 'critical');
    t.equal(await page.getByLabel('Review due').inputValue(), '30');
    t.equal(await page.getByRole('columnheader', { name: 'Contract end' }).getAttribute('aria-sort'), 'ascending');
    t.ok(await page.locator('tbody tr').filter({ hasText: 'Basecamp' }).getByText('Overdue').isVisible(), 'an overdue review is flagged');

    // A header sorts; a second click reverses.
    await page.getByRole('button', { name: 'Contract end' }).click();
    t.same(await waitNames(['GitHub', 'Basecamp']), ['GitHub', 'Basecamp'], 'descending');
    t.match(page.url(), /sort=-contractEnd/, 'the sort is in the address');

    // The filter controls.
    await page.getByLabel('Review due').selectOption('');
    t.same(await waitNames(['GitHub', 'Basecamp', 'Cloudflare']), ['GitHub', 'Basecamp', 'Cloudflare'], 'every critical vendor, latest contract end first');
    await page.getByLabel('Tier').selectOption('');
    await page.getByLabel('Review due').selectOption('overdue');
    t.same(await waitNames(['Basecamp']), ['Basecamp'], 'overdue reviews');
    await page.getByLabel('Review due').selectOption('');
    await page.getByLabel('Search').fill('LAC');
    t.same(await waitNames(['Slack']), ['Slack'], 'search by name, any case');
    await page.getByLabel('Search').fill('');

    // A KPI's filter with no control of its own: a chip that can be removed.
    await page.goto(`${server.url}/vendors?tier=critical&exitPlan=missing&sort=workspaceName`);
    t.same(await waitNames(['Cloudflare', 'GitHub']), ['Cloudflare', 'GitHub'], 'critical vendors without an exit plan');
    await page.getByRole('button', { name: 'Remove the filter: No exit plan' }).click();
    t.same(await waitNames(['Basecamp', 'Cloudflare', 'GitHub']), ['Basecamp', 'Cloudflare', 'GitHub']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    t.same(await waitNames(['Basecamp', 'Cloudflare', 'GitHub', 'Slack', 'Zoom']), ['Basecamp', 'Cloudflare', 'GitHub', 'Slack', 'Zoom'], 'all vendors again');

    // Sort by tier, critical first; missing values last.
    await page.getByRole('button', { name: 'Tier' }).click();
    await page.getByRole('button', { name: 'Tier' }).click();
    const byTier = await waitNames(['GitHub', 'Basecamp', 'Cloudflare', 'Slack', 'Zoom']);
    t.same(byTier.slice(3), ['Slack', 'Zoom'], 'critical first, then high, then low');

    t.same(await a11yViolations(page), [], 'inventory: no serious accessibility violation');

    // The vendor owner and lifecycle are set in the vendor's settings and shown in the list.
    await page.goto(`${server.url}/vendors/github/settings`);
    await page.getByRole('heading', { name: 'Vendor management' }).waitFor();
    await page.getByLabel('Vendor owner').selectOption({ label: 'Ada Analyst (ada@example.com)' });
    await page.getByLabel('Lifecycle').selectOption('exiting');
    await page.getByRole('region', { name: 'Vendor management' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Vendor owner and lifecycle saved').waitFor();
    await page.goto(`${server.url}/vendors?lifecycle=exiting`);
    t.same(await waitNames(['GitHub']), ['GitHub'], 'filtered by lifecycle');
    t.match(await page.locator('tbody tr').first().innerText(), /Owner: Ada Analyst/, 'the owner is shown');

    // The analytics page's KPIs open the filtered inventory.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    const kpi = page.getByRole('link', { name: /Critical vendors without an exit strategy/ });
    await kpi.waitFor();
    t.match(await kpi.innerText(), /^\s*2\s/, 'two critical vendors have no exit plan');
    t.match(await page.getByRole('link', { name: /Reviews overdue/ }).innerText(), /^\s*1\s/);
    t.match(await page.getByRole('link', { name: /Contracts expiring within 90 days/ }).innerText(), /^\s*3\s/, 'Slack, Cloudflare, Basecamp');
    t.same(await a11yViolations(page), [], 'analytics KPIs: no serious accessibility violation');
    await kpi.click();
    await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor();
    t.same(await waitNames(['Cloudflare', 'GitHub']), ['Cloudflare', 'GitHub'], 'the KPI opens the vendors it counts');
    await page.getByText('No exit plan').waitFor();
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('link', { name: /Reviews overdue/ }).click();
    t.same(await waitNames(['Basecamp']), ['Basecamp']);
    t.equal(await page.getByLabel('Review due').inputValue(), 'overdue');
    await page.setViewportSize({ width: 390, height: 844 });
    t.equal(await pageOverflow(page), 0, 'no sideways scroll on a phone');
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'inventory');

    // Document details on the Documents tab: proposed from the text, filtered, edited.
    await ingest(app, github.headers, 'GitHub reports', [
      { title: 'GitHub SOC 2 Type II Report', content: '# GitHub SOC 2 Type II Report\n\nVersion 2.1\n\nThis report is valid until 31 March 2020.\n' },
      { title: 'GitHub Data Protection Agreement', content: '# GitHub Data Protection Agreement\n\nEffective date: March 1, 2025\n' },
    ]);
    await page.goto(`${server.url}/vendors/github/documents`);
    const details = page.getByRole('table', { name: 'Document details' });
    const socRow = details.locator('tbody tr').filter({ hasText: 'GitHub SOC 2 Type II Report' });
    await socRow.getByText('SOC report').waitFor({ timeout: 15_000 });
    t.match(await socRow.innerText(), /Expired/, 'a lapsed SOC report is flagged');
    await page.getByLabel('Expiry', { exact: true }).selectOption('expired');
    await details.locator('tbody tr').filter({ hasText: 'Data Protection' }).waitFor({ state: 'detached' });
    t.equal(await details.locator('tbody tr').count(), 1, 'the expired filter');
    await socRow.getByRole('button', { name: /Edit the details/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Version').fill('2.2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Document details saved').waitFor();
    await socRow.getByText('2.2').waitFor();
    t.same(await a11yViolations(page), [], 'document details: no serious accessibility violation');
    await page.goto(`${server.url}/analytics`);
    const expiredKpi = page.getByRole('link', { name: /Vendors with expired documents/ });
    await expiredKpi.waitFor();
    t.match(await expiredKpi.innerText(), /^\s*1\s/, 'the KPI counts it');
    t.same(problems, [], 'no console errors or failed requests');
  });
