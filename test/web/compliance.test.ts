import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { cookiesOf, registerUser, testConfig } from '../helpers/app.js';
import { VENDOR_DOCS } from '../helpers/assessments.js';
import { a11yViolations, atEachSize, browserSkipReason, lastMailLink, launchBrowser, screenshot, startDashboardServer } from '../helpers/browser.js';
import { waitForDataSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace, makeLei } from '../helpers/workspaces.js';

// The compliance screens of the dashboard in a real browser (docs/dashboard.md): the vendor
// profile filled until the register's pre-flight has no blocking issue, both register
// downloads (the workbook read back with ExcelJS), an assessment of a real vendor document
// with its evidence and Word report, a questionnaire created, pre-filled, sent and answered
// through the mailed link on a phone, its score, the analytics charts, and the
// administration screens. One server and one browser for the whole file.
const skip = browserSkipReason();
const ENTITY_LEI = makeLei('5299000DORABANK001');
const VENDOR_LEI = makeLei('5493001GITHUB00001');

if (skip) t.plan(0, skip);
else
  t.test('compliance screens', async (t) => {
    const server = await startDashboardServer({
      roi: { ...testConfig().roi, entityLei: ENTITY_LEI, entityCountry: 'DE' },
      rag: { ...testConfig().rag, generator: 'extractive' },
    });
    const browser = await launchBrowser();
    t.teardown(async () => {
      await browser.close();
      await server.close();
    });
    const { app } = server.ctx;
    const base = server.url;
    const { page } = browser;

    // An analyst with an organization, the GitHub vendor and one of its real documents, indexed;
    // three questions asked over it (the analytics have data). The session goes to the browser as cookies.
    const owner = await registerUser(app, { name: 'Ada Analyst', email: 'ada@bank.example' });
    const ws = await createOrgAndWorkspace(app, owner, 'GitHub', 'Example Bank AG');
    const dpa = 'github-data-protection-agreement.md';
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/data-sources',
      headers: ws.headers,
      payload: { name: 'GitHub DPA', documents: [{ filename: dpa, format: 'markdown', content: readFileSync(path.join(VENDOR_DOCS, 'github', dpa), 'utf8') }] },
    });
    t.equal(created.statusCode, 201, created.body);
    const ready = await waitForDataSource(app, ws.headers, created.json().data.dataSource.id, { timeoutMs: 120_000 });
    t.equal(ready.status, 'ready');
    for (const question of [
      'How quickly does GitHub notify a security incident?',
      'Which subprocessors does GitHub use?',
      'What audit rights does the customer have?',
    ]) {
      const r = await app.inject({ method: 'POST', url: '/api/v1/rag', headers: ws.headers, payload: { question } });
      t.equal(r.statusCode, 200, r.body);
    }
    await browser.context.addCookies(
      Object.entries(
        cookiesOf(await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: owner.email, password: 'correct horse battery' } })),
      ).map(([name, value]) => ({ name, value, url: base })),
    );
    const a11y = async (what: string) => t.same(await a11yViolations(page), [], `${what}: no serious accessibility violation`);
    const toast = (text: string | RegExp) => page.locator('.toast').filter({ hasText: text }).first().waitFor();
    // Screenshots for docs/: toasts cleared, from the top of the page (or a given scroll position).
    const shot = async (name: string, y = 0, p = page) => {
      const hide = (v: string) => p.evaluate((vis) => document.querySelectorAll<HTMLElement>('.toasts').forEach((e) => (e.style.visibility = vis)), v);
      await hide('hidden');
      await p.evaluate((top) => window.scrollTo(0, top), y);
      await screenshot(p, name);
      await hide('');
    };

    t.test('vendor profile from the register to-do list; the workbook', async (t) => {
      // The register first: the vendor has no contract yet, so it is left out of the package.
      // (The whole way to a ready package, on the demo seed, is test/web/register.test.ts.)
      await page.goto(`${base}/vendors`);
      await page.getByRole('link', { name: 'Register', exact: true }).click();
      await page.getByRole('heading', { name: 'Register of Information', level: 1 }).waitFor();
      await page.getByText(/^Left out of the package ·/).waitFor();
      // The settings arrive with their own request: their origin is shown once they have.
      await page.locator('[data-setting="lei"]').getByText('From the service configuration (ROI_ENTITY_LEI)').waitFor();
      t.equal(await page.getByLabel('LEI of the entity').inputValue(), ENTITY_LEI, 'the entity settings in force, from the configuration');
      await a11y('register');
      // Its to-do item links to the contracts of the profile.
      await page.getByRole('link', { name: /Fix in the profile: GitHub, GitHub has no contract recorded/ }).click();
      await page.getByRole('heading', { name: 'Vendor profile' }).waitFor();
      await page.waitForFunction(() => document.activeElement?.textContent === 'Add a contract');
      t.pass('the to-do link lands on the contracts, focused');
      // A contract with an end date before its start: the API's message appears at that field.
      await page.getByRole('button', { name: 'Add a contract' }).click();
      const form = page.getByRole('form', { name: 'New contract' });
      await form.getByLabel('Contract reference number').fill('CTR-2024-001');
      await form.getByLabel('Start date').fill('2024-01-01');
      await form.getByLabel('End date').fill('2023-06-30');
      await form.getByLabel('Governing law (country)').selectOption('IE');
      await form.getByRole('button', { name: 'Add the contract' }).click();
      await form.locator('[data-field="contracts.0.endDate"]').getByText('must not be before startDate').waitFor();
      t.pass('the API validation message is shown inline at the contract end date');
      await form.getByLabel('End date').fill('2026-12-31');
      await form.getByRole('button', { name: 'Add the contract' }).click();
      await toast('Contract CTR-2024-001 added');

      // Now in the package, with blocking issues: no identification code, no type of ICT services, …
      await page.getByRole('link', { name: 'Register', exact: true }).click();
      await page.getByText(/Not ready to file: \d+ blocking issues/).waitFor();
      const errors = Number(await page.getByTestId('count-errors').textContent());
      t.ok(errors >= 2, `${errors} blocking issues`);
      const todo = page.locator('section[aria-labelledby="todo-title"]');
      t.equal(await todo.getByText('Blocking', { exact: true }).count(), errors, 'the count matches the blocking items of the list');
      t.equal(
        Number(await page.getByTestId('count-warnings').textContent()),
        await todo.getByText('Missing', { exact: true }).count(),
        'and the missing values',
      );
      t.equal(await page.getByRole('button', { name: 'Download the xBRL-CSV package' }).isDisabled(), true, 'the package waits for the blocking issues');
      await page.getByRole('link', { name: "Fix in the profile: GitHub, Enter GitHub's identification code (its LEI) on the vendor profile" }).first().click();
      await page.waitForFunction(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-field') === 'identifier.type');
      t.pass('the to-do link lands on the identification code, focused');
      await page.getByLabel('Legal name').fill('GitHub, Inc.');
      await page.getByLabel('Type of identification code').selectOption('LEI');
      const lei = page.getByLabel('LEI', { exact: true });
      await lei.fill(`${VENDOR_LEI.slice(0, 19)}${(Number(VENDOR_LEI[19]) + 1) % 10}`);
      await page.getByText('The check digits do not match').waitFor();
      t.equal(await lei.getAttribute('aria-invalid'), 'true', 'a wrong check digit is flagged while typing');
      await lei.fill(VENDOR_LEI.toLowerCase());
      await page.getByText('Valid LEI check digits').waitFor();
      t.equal(await lei.inputValue(), VENDOR_LEI, 'typed upper case');
      await page.getByLabel('Country of headquarters').selectOption('US');
      await page.getByLabel('Criticality tier').selectOption('high');
      await page.getByLabel('Supports a critical or important function').selectOption('yes');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await toast('Vendor profile saved');
      await a11y('vendor profile');

      // A contract field the list asks for opens that contract, focused on the field.
      await page.getByRole('link', { name: 'Register', exact: true }).click();
      await page.getByText(/Not ready to file/).waitFor();
      await page.getByRole('link', { name: 'Fix in the profile: GitHub, Choose the type of ICT services of contract CTR-2024-001 of GitHub' }).click();
      await page.waitForFunction(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-field') === 'contracts.0.ictServiceType');
      await page.locator('[data-field="contracts.0.ictServiceType"] select').selectOption('S19');
      await page.getByRole('button', { name: 'Save the contract' }).click();
      await toast('Contract CTR-2024-001 saved');
      await shot('vendor-profile', 0);

      // A change made elsewhere while a form is open (a drafted value accepted in another panel,
      // a colleague's save) is not overwritten by saving the form: it sends only what was changed in it.
      const contractsUrl = `/api/v1/workspaces/${ws.workspaceId}/contracts`;
      const contractId = (await app.inject({ method: 'GET', url: contractsUrl, headers: ws.headers })).json().data.contracts[0].id as string;
      await page.getByRole('button', { name: 'Edit contract CTR-2024-001' }).click();
      const open = page.getByRole('form', { name: 'Contract CTR-2024-001' });
      await open.getByLabel('Annual cost').fill('48000');
      const elsewhere = await app.inject({
        method: 'PATCH',
        url: `${contractsUrl}/${contractId}`,
        headers: ws.headers,
        payload: { storesData: true, dataStorageLocations: ['IE'] },
      });
      t.equal(elsewhere.statusCode, 200, elsewhere.body);
      // The save's own response, not the toast of the previous save that may still be on screen.
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes(`/contracts/${contractId}`)),
        open.getByRole('button', { name: 'Save the contract' }).click(),
      ]);
      await toast('Contract CTR-2024-001 saved');
      const after = (await app.inject({ method: 'GET', url: contractsUrl, headers: ws.headers })).json().data.contracts[0];
      t.same(
        [after.annualCost?.amount, after.storesData, after.dataStorageLocations],
        [48000, true, ['IE']],
        'the form saved its field and kept the other change',
      );
      await page.getByLabel('Description of the services').fill('Source code hosting and collaboration');
      const profileElsewhere = await app.inject({
        method: 'PATCH',
        url: `/api/v1/workspaces/${ws.workspaceId}`,
        headers: ws.headers,
        payload: { vendorProfile: { website: 'https://github.com' } },
      });
      t.equal(profileElsewhere.statusCode, 200, profileElsewhere.body);
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'PATCH' && /\/api\/v1\/workspaces\/[^/]+$/.test(new URL(r.url()).pathname)),
        page.getByRole('button', { name: 'Save profile' }).click(),
      ]);
      await toast('Vendor profile saved');
      const profile = (await app.inject({ method: 'GET', url: `/api/v1/workspaces/${ws.workspaceId}`, headers: ws.headers })).json().data.workspace
        .vendorProfile;
      t.same(
        [profile.description, profile.website, profile.legalName],
        ['Source code hosting and collaboration', 'https://github.com', 'GitHub, Inc.'],
        'the profile form too',
      );

      // The workbook is always available, read back with ExcelJS: the vendor's row, and the EBA templates as sheets.
      await page.getByRole('link', { name: 'Register', exact: true }).click();
      await page.getByTestId('count-errors').waitFor();
      const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the workbook (XLSX)' }).click()]);
      t.match(xlsx.suggestedFilename(), /^DORA_Register_of_Information_\d{4}-\d{2}-\d{2}\.xlsx$/);
      const ExcelJS = (await import('exceljs')).default;
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile((await xlsx.path())!);
      const sheet = wb.getWorksheet('RT.02.01 ICT Providers')!;
      const rows = sheet
        .getSheetValues()
        .filter(Boolean)
        .map((r) => (r as unknown[]).slice(1));
      const row = rows.find((r) => r[0] === 'GitHub');
      t.ok(row, 'the workbook has a GitHub row');
      t.same(row!.slice(0, 6), ['GitHub', ws.workspaceSlug, 'GitHub, Inc.', 'LEI', VENDOR_LEI, 'US'], 'name, workspace, legal name and LEI as entered');
      t.ok(row!.includes('2024-01-01'), 'the contract start date');
      t.ok(wb.getWorksheet('B_05.01'), 'the EBA templates follow the summary sheets');
    });

    t.test('an assessment of a vendor document, its evidence and its report', async (t) => {
      await page.goto(`${base}/vendors/github/assessments`);
      await page.getByRole('button', { name: 'Run the first assessment' }).click();
      await page.getByRole('checkbox', { name: new RegExp(dpa.replace('.', '\\.')) }).check();
      await page.getByRole('button', { name: 'Assess 1 document' }).click();
      await page.getByTestId('assessment-score').waitFor({ timeout: 90_000 });
      const score = Number((await page.getByTestId('assessment-score').textContent())!.replace('/100', ''));
      t.ok(score > 0 && score <= 100, `score ${score}`);
      await page.getByRole('heading', { name: 'Article 28' }).waitFor();
      t.ok(
        await page
          .getByText(/(Low|Medium|High|Critical) risk/)
          .first()
          .isVisible(),
        'the risk rating in words',
      );
      // An evidence quote opens its document at the passage.
      const quote = page.locator('tr[data-obligation="A28.6"] button').first();
      await quote.click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('mark[data-hit]').waitFor();
      t.match((await dialog.locator('mark').allTextContents()).join(' '), /audit/i, 'the quoted passage is highlighted in the document');
      await page.waitForFunction(() => {
        const m = document.querySelector('dialog mark[data-hit]')?.getBoundingClientRect();
        const box = document.querySelector('dialog [role="document"]')?.getBoundingClientRect();
        return !!m && !!box && m.top >= box.top && m.top < box.bottom;
      });
      t.pass('the document opens scrolled to it');
      await dialog.getByRole('button', { name: /Open the original file/ }).waitFor();
      t.pass('its original (the vendor document it was taken from) is one click away');
      await a11y('assessment with the document open');
      await page.keyboard.press('Escape');
      await shot('assessment', 0);
      await a11y('assessment');
      const [docx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the Word report' }).click()]);
      t.match(docx.suggestedFilename(), /^DORA_Gap_Assessment_GitHub_\d{4}-\d{2}-\d{2}\.docx$/);
      const bytes = readFileSync((await docx.path())!);
      t.ok(bytes.length > 5000 && bytes.subarray(0, 2).toString() === 'PK', 'a Word (zip) document');

      // The analyst's own verdict on the audit right, a comment, then the sign-off: read-only.
      const row = page.locator('tr[data-obligation="A28.6"]');
      await row.getByRole('button', { name: 'Set verdict for Article 28(6)' }).click();
      const verdict = page.getByRole('dialog', { name: 'Your verdict on Article 28(6)' });
      await verdict.getByRole('radio', { name: 'Missing' }).check();
      await verdict.getByLabel('Reason').fill('Audits are satisfied by SOC reports only; no on-site right for the entity.');
      await verdict.getByRole('button', { name: 'Save verdict' }).click();
      await toast('Verdict set');
      await row
        .getByTestId('analyst-verdict')
        .getByText(/Analyst's verdict: Missing \(the engine said \w+\)/)
        .waitFor();
      await page
        .getByTestId('engine-score')
        .getByText(/1 verdict is the analyst's; the engine alone gave \d+/)
        .waitFor();
      const after = Number((await page.getByTestId('assessment-score').textContent())!.replace('/100', ''));
      t.ok(after < score, `the score follows the analyst's verdict: ${score} -> ${after}`);
      await row.getByRole('button', { name: 'Comment on Article 28(6)' }).click();
      await page.getByRole('dialog', { name: 'Comment on Article 28(6)' }).getByLabel('Comment').fill('Asked for the enterprise audit addendum.');
      await page.getByRole('button', { name: 'Add comment' }).click();
      await row.getByText('Asked for the enterprise audit addendum.').waitFor();
      t.equal(await page.locator('.page-header').getByRole('button', { name: 'Delete', exact: true }).count(), 1, 'deletable before the sign-off');
      await page.getByRole('button', { name: 'Sign off' }).click();
      const sign = page.getByRole('dialog', { name: 'Sign the assessment off' });
      await sign.getByLabel('Sign-off note').fill('Reviewed with the DPA; audit right followed up.');
      await a11y('sign-off dialog');
      await sign.getByRole('button', { name: 'Sign off' }).click();
      await page
        .getByTestId('signed-off')
        .getByText(/Signed off by Ada Analyst/)
        .waitFor();
      t.equal(await row.getByRole('button', { name: /Set verdict|Change verdict/ }).count(), 0, 'no verdict button once signed off');
      t.equal(await page.locator('.page-header').getByRole('button', { name: 'Delete', exact: true }).count(), 0, 'a signed-off assessment cannot be deleted');
    });

    t.test('a questionnaire: created, pre-filled, sent, answered on a phone, scored', async (t) => {
      const email = 'security@github.example';
      await page.goto(`${base}/vendors/github/questionnaires`);
      await page.getByRole('button', { name: 'Create the first questionnaire' }).click();
      await page.getByLabel('Only my own questions').check();
      await page
        .getByLabel('Your questions')
        .fill('Do you notify personal data breaches and security incidents without undue delay?\nDo you allow the customer to audit your compliance?');
      await page.getByLabel('Title').fill('Quick DORA check');
      await page.getByLabel('Vendor contact e-mail').fill(email);
      await page.getByLabel(/Show the proposed answers to the vendor/).check();
      await page.getByRole('button', { name: 'Create questionnaire' }).click();
      await page.getByRole('heading', { name: 'Quick DORA check' }).waitFor({ timeout: 60_000 });
      await page.getByText("Pre-filled from the vendor's documents").first().waitFor();
      t.ok(
        await page
          .getByRole('list', { name: 'Sources of the proposed answer' })
          .first()
          .getByText(/Data Protection/i)
          .first()
          .isVisible(),
        'the pre-fill names its source document',
      );
      await a11y('questionnaire (analyst)');
      // A pre-filled answer's source opens its document at the passage.
      await page.getByRole('list', { name: 'Sources of the proposed answer' }).first().getByRole('button').first().click();
      await page.getByRole('dialog').locator('mark[data-hit]').waitFor();
      t.pass('a pre-fill source opens its document at the passage, highlighted');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Send to the vendor' }).click();
      await toast(`Link sent to ${email}`);

      // The vendor, on a phone, through the mailed link (no account).
      await browser.context.clearCookies();
      const vp = await browser.context.newPage();
      await vp.setViewportSize({ width: 390, height: 844 });
      const link = await lastMailLink(server.ctx, email, '/vendor-questionnaire?token=');
      await vp.goto(`${base}${link}`);
      await vp.getByRole('heading', { name: 'Quick DORA check' }).waitFor();
      await vp.getByText('Example Bank AG asks').waitFor();
      const q1 = vp.locator('[data-question="Q-1"]');
      await q1.getByText('Proposed from your published documents').waitFor();
      await q1.getByRole('button', { name: 'Use this answer' }).click();
      await vp.locator('[data-question="Q-2"]').getByText('No', { exact: true }).click();
      await vp.getByRole('button', { name: 'Save draft' }).click();
      await vp.getByText('Answers saved.').waitFor();
      await vp.reload();
      await vp.getByText('2 of 2 answered').waitFor();
      t.pass('the draft survives a reload');
      const scrollWidth = await vp.evaluate(() => document.documentElement.scrollWidth);
      t.ok(scrollWidth <= 390, `no horizontal scrolling on a phone (${scrollWidth}px)`);
      t.same(await a11yViolations(vp), [], 'vendor page on a phone: no serious accessibility violation');
      await shot('vendor-questionnaire-phone', 0, vp);
      await vp.getByRole('button', { name: 'Submit answers' }).click();
      await vp.getByText(/^Submitted on/).waitFor();
      t.equal(await vp.getByRole('button', { name: 'Submit answers' }).count(), 0, 'read-only after submitting');
      await vp.close();

      // Back to the analyst: the answers, then completed with its score.
      await browser.context.addCookies(
        Object.entries(
          cookiesOf(await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: owner.email, password: 'correct horse battery' } })),
        ).map(([name, value]) => ({ name, value, url: base })),
      );
      await page.reload();
      await page.getByText('Submitted: to review').first().waitFor();
      await page.getByRole('button', { name: 'Accept and complete' }).click();
      // It asks first: the score is frozen.
      const confirm = page.getByRole('dialog', { name: 'Accept the answers and complete?' });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      t.equal(await page.getByText('Final score').count(), 0, 'cancelled: nothing changed');
      await page.getByRole('button', { name: 'Accept and complete' }).click();
      await confirm.getByRole('button', { name: 'Complete' }).click();
      await page.getByText('Final score').waitFor();
      const q1Answer = await page.locator('[data-question="Q-1"]').getByText('Same as the pre-filled answer.').count();
      t.equal(q1Answer, 1, 'the answer taken from the pre-fill is marked as such');
      const total = (await page.getByTestId('questionnaire-score').textContent())!.replace('/100', '');
      t.ok(['50', '75', '100', '0', '25'].includes(total), `score ${total}`);
      t.not(total, '—');
      await shot('questionnaire', 0);
    });

    t.test('analytics charts with data', async (t) => {
      await page.getByRole('link', { name: 'Analytics', exact: true }).click();
      await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
      await page.getByTestId('kpi-questions').filter({ hasText: '3' }).waitFor();
      await page.locator('canvas').nth(4).waitFor();
      const painted = await page.$$eval('canvas', (cs) =>
        cs.map((c) => {
          const ctx = (c as HTMLCanvasElement).getContext('2d')!;
          const { data } = ctx.getImageData(0, 0, (c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height);
          let n = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
          return n;
        }),
      );
      t.equal(painted.length, 5, 'portfolio (2), questions per day, answer time, most-used documents');
      t.ok(
        painted.every((n) => n > 500),
        `every chart is drawn (${painted.join(', ')} painted pixels)`,
      );
      t.ok(await page.getByRole('img', { name: /Vendors by risk rating: Critical \d+, High \d+/ }).isVisible(), 'charts carry their figures in words');
      await a11y('analytics');
      await shot('analytics', 0);
    });

    t.test('administration: invitations, members, vendor settings', async (t) => {
      await page.getByRole('link', { name: 'Organization', exact: true }).click();
      await page.getByLabel('E-mail address').fill('bob@bank.example');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await toast('Invitation sent to bob@bank.example');
      await page.getByRole('button', { name: 'Resend the invitation to bob@bank.example' }).click();
      await toast('Invitation sent to bob@bank.example');
      // The toast answers the request; the mail may leave a moment later (the job queue on PostgreSQL).
      const toBob = () => server.ctx.mailer.sent.filter((m) => m.to === 'bob@bank.example').length;
      for (let i = 0; i < 50 && toBob() < 2; i++) await new Promise((r) => setTimeout(r, 100));
      t.equal(toBob(), 2, 'sent and resent');
      await a11y('organization');
      await shot('organization', 0);
      await page.getByRole('button', { name: 'Revoke the invitation to bob@bank.example' }).click();
      await page.getByText('No pending invitation.').waitFor();

      await page.goto(`${base}/vendors/github/settings`);
      await page.getByRole('heading', { name: 'Members and permissions' }).waitFor();
      await page.getByLabel('Sync on a schedule').check();
      await page.getByLabel('Every (hours)').fill('12');
      await page.getByRole('button', { name: 'Save the schedule' }).click();
      await toast('Sync schedule saved');
      const w = (await app.inject({ method: 'GET', url: `/api/v1/workspaces/${ws.workspaceId}`, headers: owner.headers })).json().data.workspace;
      t.same(w.syncSchedule, { enabled: true, intervalHours: 12 });
      await a11y('vendor settings');
      await shot('vendor-settings', 0);
      t.same(
        browser.problems.filter((p) => !/401|Failed to load resource/.test(p)),
        [],
        'no script error in the page',
      );
    });

    t.test('the compliance screens at 390 and 1366 px: nothing wider than the window', async (t) => {
      const get = async (url: string) => (await app.inject({ method: 'GET', url: `/api/v1${url}`, headers: ws.headers })).json().data;
      const assessment = (await get('/assessments')).assessments[0].id as string;
      const questionnaire = (await get('/questionnaires')).questionnaires[0].id as string;
      for (const [path, ready] of [
        ['/vendors/github/profile', () => page.getByRole('heading', { name: 'Vendor profile' }).waitFor()],
        ['/vendors/github/assessments', () => page.getByRole('table', { name: /^Assessments of/ }).waitFor()],
        [`/vendors/github/assessments/${assessment}`, () => page.getByTestId('assessment-score').waitFor()],
        ['/vendors/github/questionnaires', () => page.getByRole('link', { name: 'Quick DORA check' }).waitFor()],
        [`/vendors/github/questionnaires/${questionnaire}`, () => page.getByTestId('questionnaire-score').waitFor()],
        ['/register-of-information', () => page.getByRole('heading', { name: 'Register of Information', level: 1 }).waitFor()],
        ['/analytics', () => page.locator('canvas').nth(4).waitFor()],
        ['/organization', () => page.getByRole('heading', { name: 'Organization', level: 1 }).waitFor()],
        ['/vendors/github/settings', () => page.getByRole('heading', { name: 'Members and permissions' }).waitFor()],
      ] as const) {
        await page.goto(`${base}${path}`);
        await ready();
        const name = `compliance${path.replace(assessment, 'assessment').replace(questionnaire, 'questionnaire').replace(/\//g, '-')}`;
        t.same(await atEachSize(page, name), { phone: 0, laptop: 0 }, `${path}: nothing wider than the window`);
      }
      // The evidence viewer on a phone takes the screen.
      await page.goto(`${base}/vendors/github/assessments/${assessment}`);
      await page.locator('tr[data-obligation="A28.6"] button').first().click();
      await page.getByRole('dialog').locator('mark[data-hit]').waitFor();
      t.same(await atEachSize(page, 'compliance-evidence-viewer'), { phone: 0, laptop: 0 }, 'the evidence viewer');
      await page.keyboard.press('Escape');
      // The vendor's page (no account), at the laptop size too.
      const vp = await browser.context.newPage();
      await vp.goto(`${base}${await lastMailLink(server.ctx, 'security@github.example', '/vendor-questionnaire?token=')}`);
      await vp.getByRole('heading', { name: 'Quick DORA check' }).waitFor();
      t.same(await atEachSize(vp, 'compliance-vendor-questionnaire'), { phone: 0, laptop: 0 }, 'the vendor questionnaire page');
      await vp.close();
    });
  });
