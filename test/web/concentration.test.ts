import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { registerUser, type Session } from '../helpers/app.js';
import { a11yViolations, atEachSize, browserSkipReason, launchBrowser, screenshot, startDashboardServer } from '../helpers/browser.js';
import { createTextSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace, createWorkspace, wsHeaders } from '../helpers/workspaces.js';

// Concentration risk in the dashboard (docs/concentration.md): "which critical functions depend on
// AWS, directly or through a chain?" answered in one view, each edge opening the passage it came
// from in the document viewer, highlighted; an onboarding vendor's page says what signing would add.
const skip = browserSkipReason();
const API = '/api/v1';
const SUBPROCESSORS = `# PayCo Subprocessors

These subprocessors are all located in the United States:

* [Amazon Web Services, Inc.](https://example.com/aws). Cloud hosting provider.
* [Snowflake Computing](https://example.com/snowflake). Data warehouse.
`;

async function must(app: FastifyInstance, who: Session, method: string, url: string, payload?: unknown, status = 200) {
  const res = await app.inject({
    method: method as 'GET',
    url: `${API}${url}`,
    headers: who.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}
const fn = (name: string) => ({
  name,
  licensedActivity: 'eba_TA:x162',
  criticality: 'yes',
  lastAssessmentDate: '2025-06-30',
  rtoHours: 4,
  rpoHours: 1,
  impact: 'high',
});
const contract = (reference: string, functionIds: string[], startDate = '2024-01-01') => ({ reference, startDate, functionIds });

if (skip) t.plan(0, skip);
else
  t.test('the concentration page and the would-add panel', async (t) => {
    const server = await startDashboardServer();
    const browser = await launchBrowser({ viewport: { width: 1366, height: 900 } });
    t.teardown(async () => {
      await browser.close();
      await server.close();
    });
    const { app } = server.ctx;
    const { page } = browser;
    const admin = await registerUser(app, { name: 'Ada Admin' });
    const payco = await createOrgAndWorkspace(app, admin, 'PayCo');
    const payments = (await must(app, admin, 'POST', '/register/functions', fn('Payments processing'), 201)).data.function;
    const lending = (await must(app, admin, 'POST', '/register/functions', fn('Lending'), 201)).data.function;
    const trading = (await must(app, admin, 'POST', '/register/functions', fn('Trading'), 201)).data.function;

    await createTextSource(app, wsHeaders(admin, payco.workspaceId), [{ title: 'PayCo Subprocessors', content: SUBPROCESSORS, format: 'markdown' }]);
    const queued = (await must(app, admin, 'POST', `/workspaces/${payco.workspaceId}/profile-drafts`, undefined, 202)).data.draft;
    for (let i = 0; ; i++) {
      const d = (await must(app, admin, 'GET', `/workspaces/${payco.workspaceId}/profile-drafts/${queued.id}`)).data.draft;
      if (d.status === 'completed') break;
      if (d.status === 'failed' || i > 1200) throw new Error(`draft ${d.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await must(app, admin, 'POST', `/workspaces/${payco.workspaceId}/profile-drafts/${queued.id}/decisions`, {
      decisions: [{ field: 'subcontractors', action: 'accept' }],
    });
    await must(app, admin, 'PATCH', `/workspaces/${payco.workspaceId}`, {
      vendorProfile: { legalName: 'PayCo SAS', country: 'FR', contracts: [contract('C-PAY', [payments.id])] },
    });
    await createWorkspace(app, admin, 'LendTech', {
      vendorProfile: {
        legalName: 'LendTech GmbH',
        country: 'DE',
        contracts: [contract('C-LEND', [lending.id])],
        subcontractors: [{ name: 'AWS', country: 'DE' }],
      },
    });
    const trade = await createWorkspace(app, admin, 'TradeCloud', {
      vendorProfile: {
        legalName: 'TradeCloud Ltd',
        country: 'GB',
        contracts: [contract('C-TRADE', [trading.id], '2099-01-01')],
        subcontractors: [{ name: 'Amazon Web Services EMEA SARL', country: 'LU' }],
      },
    });

    await browser.context.addCookies(Object.entries(admin.cookies).map(([name, value]) => ({ name, value, url: server.url })));

    // --- The analytics page's exit figures open the concentration page at its exits.
    await page.goto(`${server.url}/analytics`);
    const exitKpi = page.getByRole('link', { name: /Critical vendors without a tested exit plan/ });
    await exitKpi.waitFor();
    t.match(await exitKpi.textContent(), /^\s*3\D/, 'the three critical vendors have no tested exit plan');
    await exitKpi.click();
    await page.waitForURL(/\/concentration#conc-exits$/);
    await page.getByRole('heading', { name: /Substitutability and exit/ }).waitFor();

    // --- The portfolio page: the figures, then AWS by name.
    await page.goto(`${server.url}/concentration`);
    await page.getByRole('heading', { name: 'Concentration', level: 1 }).waitFor();
    await page.getByTestId('kpi-vendors').waitFor();
    t.equal(await page.getByTestId('kpi-vendors').textContent(), '3');
    t.match(await page.getByTestId('kpi-top-provider').textContent(), /^Amazon Web Services/, 'the provider most depended on');
    t.same(await a11yViolations(page), [], 'the portfolio page: no serious accessibility violation');

    // From the table: the provider's dependencies open below it.
    await page.getByRole('button', { name: 'Dependencies on Amazon Web Services' }).click();
    await page.getByTestId('dependencies').getByRole('heading', { name: 'What depends on Amazon Web Services' }).waitFor();
    t.equal(await page.getByRole('button', { name: 'Dependencies on Amazon Web Services' }).getAttribute('aria-expanded'), 'true');

    // By name: "AWS".
    await page.getByRole('textbox', { name: 'Provider', exact: true }).fill('AWS');
    await page.getByRole('button', { name: 'Show what depends on it' }).click();
    const deps = page.getByTestId('dependencies');
    await deps.getByRole('heading', { name: 'What depends on Amazon Web Services' }).waitFor();
    const fns = await deps.getByTestId('dependent-functions').locator('li strong').allInnerTexts();
    t.same(
      fns.map((s) => s.replace(/^F\d+ /, '')).sort(),
      ['Lending', 'Payments processing', 'Trading'],
      'the critical functions depending on AWS in one view',
    );
    t.same((await deps.locator('[data-vendor]').evaluateAll((els) => els.map((e) => e.getAttribute('data-vendor')))).sort(), [
      'LendTech',
      'PayCo',
      'TradeCloud',
    ]);
    const lend = deps.locator('[data-vendor="LendTech"]');
    t.match(await lend.textContent(), /entered by hand/, 'a link without a passage says so');
    await screenshot(page, 'concentration-aws-1366');

    // --- Each edge opens its passage.
    await deps
      .locator('[data-vendor="PayCo"]')
      .getByRole('button', { name: /Passage naming Amazon Web Services, Inc\./ })
      .click();
    const viewer = page.getByRole('dialog', { name: 'PayCo Subprocessors' });
    await viewer.locator('mark[data-hit]').first().waitFor();
    t.match((await viewer.locator('mark').allInnerTexts()).join(' '), /Amazon Web Services, Inc\./, 'the passage, highlighted');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });

    const overflow = await atEachSize(page, 'concentration', () => deps.waitFor());
    t.same(overflow, { phone: 0, laptop: 0 }, 'nothing scrolls sideways at page level');
    await page.setViewportSize({ width: 1366, height: 900 });

    // --- Provider names: TradeCloud's "Amazon Web Services EMEA SARL" split off AWS, then undone.
    await page.getByRole('button', { name: 'All providers' }).click();
    const names = page.getByRole('region', { name: 'Provider names' });
    await names.getByTestId('no-overrides').waitFor();
    const awsRow = page.getByTestId('providers').locator('tbody tr', { hasText: 'Amazon Web Services' }).first();
    t.match(await awsRow.textContent(), /3 \(100%\)/, 'before: three vendors on AWS');
    const splitForm = names.getByRole('form', { name: 'Split a provider name off' });
    await splitForm.getByLabel('Name').fill('Amazon Web Services EMEA SARL');
    await splitForm.getByRole('button', { name: 'Split off' }).click();
    const row = names.locator('tr[data-name="Amazon Web Services EMEA SARL"]');
    await row.waitFor();
    t.match(await row.textContent(), /its own provider \(split off where the alias table grouped it\)/, 'the split is listed');
    await page.waitForFunction(() => /2 \(67%\)/.test(document.querySelector('[data-testid="providers"] tbody tr')?.textContent ?? ''));
    t.pass('after the split: two vendors on AWS, the figures read again');
    t.same(await a11yViolations(page), [], 'provider names: no serious accessibility violation');
    await row.getByRole('button', { name: 'Undo for Amazon Web Services EMEA SARL' }).click();
    await names.getByTestId('no-overrides').waitFor();
    await page.waitForFunction(() => /3 \(100%\)/.test(document.querySelector('[data-testid="providers"] tbody tr')?.textContent ?? ''));
    t.pass('undone: three vendors on AWS again');

    // --- The onboarding vendor: what signing would add.
    await page.goto(`${server.url}/vendors/${trade.slug}/profile`);
    const panel = page.getByTestId('would-add');
    await panel.getByRole('heading', { name: 'What signing would add to concentration' }).waitFor();
    t.match(await panel.getByTestId('would-add-summary').textContent(), /1 of its 2 providers are already depended on by other vendors/);
    t.match(await panel.getByTestId('would-add-summary').textContent(), new RegExp(`Newly concentrated: ${trading.code} Trading \\(on Amazon Web Services\\)`));
    t.match(await panel.locator('[data-provider="amazon web services"]').textContent(), /2 → 3/);
    t.same(await a11yViolations(page), [], 'the profile with the panel: no serious accessibility violation');
    t.same(browser.problems, [], 'no console error or failed request');
  });
