import t from 'tap';
import { DORA_TEMPLATE } from '../../src/compliance/questionnaire-template.js';
import { registerUser } from '../helpers/app.js';
import { a11yViolations, browserSkipReason, launchBrowser, screenshot, startDashboardServer } from '../helpers/browser.js';
import { tokenFromMail } from '../helpers/questionnaires.js';
import { ingest, vendorDoc } from '../helpers/rag.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

// Vendor claims checked against the documents, in the browser (docs/questionnaires.md): the
// analyst sends the questionnaire and copies the vendor link; GitHub answers "yes" to everything;
// the review shows the flagged answers' count, the DPA's SOC-report limitation beside the "yes"
// to full audit rights, a "flagged only" filter; completing takes a reviewer note.
const skip = browserSkipReason();
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

function yesToEverything() {
  return DORA_TEMPLATE.questions.map((q) => {
    if (q.type === 'yes_no') return { questionId: q.id, value: 'yes' };
    if (q.type === 'number') return { questionId: q.id, value: q.max !== undefined && q.max <= 100 ? q.max : (q.min ?? 0) + 1 };
    if (q.type === 'date') return { questionId: q.id, value: daysAgo(30) };
    if (q.type === 'choice') return { questionId: q.id, value: q.multiple ? [q.options![0]!.value] : q.options![0]!.value };
    return { questionId: q.id, value: `Answer to ${q.id}` };
  });
}

if (skip) t.plan(0, skip);
else
  t.test('flagged answers, the flagged-only filter, the reviewer note and the copied link', async (t) => {
    const server = await startDashboardServer();
    const browser = await launchBrowser();
    t.teardown(async () => {
      await browser.close();
      await server.close();
    });
    const { page, context } = browser;
    const { app } = server.ctx;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const user = await registerUser(app, { name: 'Ada Analyst', email: 'ada@example.com' });
    const ws = await createOrgAndWorkspace(app, user, 'GitHub', 'Example Bank AG');
    await app.services.dataSources.indexCorpus();
    await ingest(app, ws.headers, 'GitHub contract', [
      { title: 'GitHub Corporate Terms of Service', content: vendorDoc('github/github-corporate-terms-of-service.md') },
      { title: 'GitHub Data Protection Agreement', content: vendorDoc('github/github-data-protection-agreement.md') },
    ]);
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/questionnaires',
      headers: ws.headers,
      payload: { template: 'dora-ict-tpp', vendorContact: { email: 'security@github.example' } },
    });
    t.equal(created.statusCode, 201, created.body);
    const id = created.json().data.questionnaire.id;

    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill('ada@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor();
    await page.goto(`${server.url}/vendors/${ws.workspaceSlug}/questionnaires/${id}`);

    // Send, then copy the link the send shows.
    await page.getByRole('button', { name: 'Send to the vendor' }).click();
    const shown = page.getByTestId('vendor-link');
    await shown.waitFor();
    const token = tokenFromMail(app, 'security@github.example');
    const link = (await shown.textContent())!;
    t.equal(new URL(link).searchParams.get('token'), token, 'the link shown is the one mailed to the vendor');
    await page.getByRole('button', { name: 'Copy the link' }).click();
    await page.getByText('Link copied').waitFor();
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), link, 'the copy button puts the link on the clipboard');

    // The vendor answers "yes" to everything and submits.
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/v1/vendor-questionnaires/${token}/answers`,
      payload: { answers: yesToEverything(), submit: true },
    });
    t.equal(saved.statusCode, 200, saved.body);
    const api = (await app.inject({ method: 'GET', url: `/api/v1/questionnaires/${id}`, headers: ws.headers })).json().data.questionnaire;
    const flagged: number = api.claims.flagged;
    t.ok(flagged > 0, `answers are flagged (${flagged})`);

    await page.reload();
    const count = page.getByTestId('flagged-count');
    await count.waitFor();
    t.match(await count.textContent(), new RegExp(`^\\s*${flagged} flagged answers?`), 'the review shows the count');
    const audit = page.locator('li[data-question="CIF-06"]');
    const flag = audit.getByTestId('claim-flag');
    await flag.waitFor();
    const text = (await flag.textContent()) ?? '';
    t.match(text, /Flagged: The documents/, 'the "yes" to full audit rights is flagged');
    t.match(text, /satisfied by these compliance reports/, "the DPA's SOC-report passage is beside it");
    t.match(text, /GitHub Data Protection Agreement/, 'with the document');
    t.match(text, /reports\) instead|report/i, 'and the limitation in words');
    const all = await page.locator('li[data-question]').count();
    t.equal(all, DORA_TEMPLATE.questions.length, 'every question is listed');
    await audit.scrollIntoViewIfNeeded();
    await screenshot(page, 'questionnaire-claims');
    t.same(await a11yViolations(page), [], 'no serious accessibility violation');

    // Flagged only.
    await page.getByLabel('Flagged only').check();
    await page.waitForFunction((n) => document.querySelectorAll('li[data-question]').length === n, flagged);
    t.equal(await page.locator('li[data-question]').count(), flagged, 'the filter keeps the flagged answers');
    t.equal(await page.locator('li[data-question]:not(:has([data-testid="claim-flag"]))').count(), 0, 'and only them');
    await page.getByLabel('Flagged only').uncheck();
    await page.waitForFunction((n) => document.querySelectorAll('li[data-question]').length === n, all);

    // Completing takes a reviewer note.
    await page.getByRole('button', { name: 'Accept and complete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Accept the answers and complete?' });
    await dialog.waitFor();
    t.ok(await dialog.getByRole('button', { name: 'Complete' }).isDisabled(), 'no note, no completing');
    const note = 'Audit rights are limited to SOC reports: addendum requested.';
    await dialog.getByLabel(/Reviewer note/).fill(note);
    await dialog.getByRole('button', { name: 'Complete' }).click();
    await page.getByRole('region', { name: 'Reviewer note' }).getByText(note).waitFor();
    const done = (await app.inject({ method: 'GET', url: `/api/v1/questionnaires/${id}`, headers: ws.headers })).json().data.questionnaire;
    t.equal(done.status, 'complete');
    t.equal(done.reviewerNotes, note, 'the note is stored');
  });
