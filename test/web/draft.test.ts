import t from 'tap';
import { cookiesOf, registerUser, testConfig } from '../helpers/app.js';
import { a11yViolations, browserSkipReason, launchBrowser, screenshot, startDashboardServer } from '../helpers/browser.js';
import { createTextSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

// The register drafts itself (docs/register-drafting.md), in a real browser: on the vendor
// profile, "Draft from documents" runs the draft job; its values appear with their passages
// when the job's notification arrives; the analyst accepts one (the profile field shows it),
// edits one and rejects one.
const skip = browserSkipReason();
const TERMS = `# Acme Cloud Customer Terms

## Term and Termination

Either Party may terminate this Agreement, without cause, upon at least thirty (30) days' prior written notice.

## Hosting

Customer Data is stored on servers within the European Union.

## Governing Law

This Agreement will be governed by and construed in accordance with the laws of Ireland, without giving effect to the principles of conflict of law.

## Annex I

Data importer(s):
Name: Acme Cloud Ltd
Address: 1 Harbour Road, Dublin 2, D02 XY45, Ireland
`;

if (skip) t.plan(0, skip);
else
  t.test('draft from documents on the vendor profile: accept, edit, reject', async (t) => {
    const server = await startDashboardServer({ rag: { ...testConfig().rag, generator: 'extractive' } });
    const browser = await launchBrowser();
    t.teardown(async () => {
      await browser.close();
      await server.close();
    });
    const { app } = server.ctx;
    const { page } = browser;
    const owner = await registerUser(app, { name: 'Ada Analyst', email: 'ada@bank.example' });
    const ws = await createOrgAndWorkspace(app, owner, 'Acme Cloud', 'Example Bank AG');
    await createTextSource(app, ws.headers, [{ title: 'Acme Cloud Customer Terms', content: TERMS, format: 'markdown' }]);
    const contract = await app.inject({
      method: 'PATCH',
      url: `/api/v1/workspaces/${ws.workspaceId}`,
      headers: owner.headers,
      payload: { vendorProfile: { contracts: [{ reference: 'ACME-1', startDate: '2025-01-01' }] } },
    });
    t.equal(contract.statusCode, 200);
    await browser.context.addCookies(
      Object.entries(
        cookiesOf(await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: owner.email, password: 'correct horse battery' } })),
      ).map(([name, value]) => ({ name, value, url: server.url })),
    );

    await page.goto(`${server.url}/vendors/${ws.workspaceSlug}/profile`);
    await page.getByRole('heading', { name: 'Draft from documents' }).waitFor();
    await page.getByRole('button', { name: 'Draft from documents' }).click();
    await page.getByText(/^Draft of .*proposed/).waitFor({ timeout: 30_000 });
    t.pass('the draft appears when its job ends (notification on the push channel)');
    const law = page.getByRole('listitem', { name: 'Governing law (country)' });
    t.match(await law.textContent(), /Ireland/);
    t.match(await law.locator('blockquote').textContent(), /governed by and construed in accordance with the laws of Ireland/, 'the passage is quoted');
    // The passage opens in its document, highlighted.
    await law.getByRole('button', { name: 'Acme Cloud Customer Terms' }).first().click();
    const viewer = page.getByRole('dialog', { name: 'Acme Cloud Customer Terms' });
    await viewer.locator('mark[data-hit]').waitFor();
    t.match((await viewer.locator('mark').allInnerTexts()).join(' '), /laws of Ireland/, 'the evidence opens its document at the passage, highlighted');
    await page.keyboard.press('Escape');
    t.match(await page.getByText(/^Not found in the documents:/).textContent(), /Contract start date/, 'fields not found are listed');
    // A field the documents address but leave open says why, with the passage read.
    const left = page.getByRole('list', { name: 'Left open by the documents' }).getByRole('listitem', { name: 'Countries where data is stored' });
    t.match(await left.textContent(), /only a region is named \(European Union\)/, 'the reason is shown');
    t.match(await left.locator('blockquote').textContent(), /stored on servers within the European Union/, 'with the passage it was read from');
    t.notMatch(
      await page.getByText(/^Not found in the documents:/).textContent(),
      /Countries where data is stored/,
      'an explained field is not in the bare list',
    );
    t.same(await a11yViolations(page), [], 'no serious accessibility violation');
    await screenshot(page, 'register-draft');

    await page.getByRole('button', { name: 'Accept Governing law (country)' }).click();
    await law.getByText('Accepted').waitFor();
    await page.locator('[data-contract="ACME-1"]').getByText('Ireland (IE)').waitFor();
    t.pass('the accepted value is in the contract');

    const notice = page.getByRole('listitem', { name: 'Termination notice period of the financial entity (days)' });
    await page.getByRole('button', { name: 'Edit Termination notice period of the financial entity (days)' }).click();
    await page.getByLabel('New value for Termination notice period of the financial entity (days)').fill('45');
    await notice.getByRole('button', { name: 'Save value' }).click();
    await notice.getByText('Edited: 45 days').waitFor();

    await page.getByRole('button', { name: 'Reject Legal name of the provider' }).click();
    await page.getByRole('listitem', { name: 'Legal name of the provider' }).getByText('Rejected').waitFor();

    const stored = (await app.inject({ method: 'GET', url: `/api/v1/workspaces/${ws.workspaceId}`, headers: owner.headers })).json().data.workspace;
    t.equal(stored.vendorProfile.contracts[0].governingLaw, 'IE');
    t.equal(stored.vendorProfile.contracts[0].noticePeriodDaysEntity, 45);
    t.equal(stored.vendorProfile.legalName, undefined);
    t.equal(stored.vendorProfileSources['contracts.0.governingLaw'].evidence[0].title, 'Acme Cloud Customer Terms');
    t.same(browser.problems, [], 'no console error or failed request');
  });
