import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { readFileSync } from 'node:fs';
import { registerUser, testConfig } from '../helpers/app.js';
import { a11yViolations, browserSkipReason, launchBrowser, screenshot, startDashboardServer } from '../helpers/browser.js';
import { startFakeAnthropic, type CapturedRequest } from '../helpers/fakeAnthropic.js';
import { createOrg } from '../helpers/workspaces.js';

// An analyst's day in a real browser (docs/dashboard.md): create a vendor, upload its documents
// and watch them become ready live, open the original, delete one; see the notifications arrive;
// ask a question and read the answer streamed token by token with clickable citations, stop an
// answer, rename, export, archive and delete the conversation; no serious accessibility violation
// on the main screens. Answers come from the anthropic generator through a local fake Messages
// API (test/helpers/fakeAnthropic.ts), so that the pace of the stream is under the test's control.
const skip = browserSkipReason();
const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/vendor-docs/github');
const SLA = path.join(DOCS, 'github-enterprise-service-level-agreement.md');
const SIRT = path.join(DOCS, 'github-sirt-description-rfc-2350.md');

if (skip) t.plan(0, skip);
else
  t.test('vendors and their documents in the dashboard', async (t) => {
    const fake = await startFakeAnthropic();
    t.teardown(fake.close);
    const base = testConfig();
    // No job workers: ingestion runs when the test says so, so every status can be watched.
    const server = await startDashboardServer({
      workers: 0,
      rag: {
        ...base.rag,
        generator: 'anthropic',
        anthropic: { ...base.rag.anthropic, apiKey: fake.apiKey, baseUrl: fake.url, model: 'claude-fake-1', maxRetries: 0, timeoutMs: 20_000 },
      },
    });
    const browser = await launchBrowser();
    t.teardown(async () => {
      await browser.close();
      await server.close();
    });
    const { page } = browser;
    const { app } = server.ctx;
    const user = await registerUser(app, { name: 'Ada Analyst', email: 'ada@example.com' });
    await createOrg(app, user, 'Example Bank AG');

    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill('ada@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor();

    // Create a vendor from the list.
    await page.getByRole('button', { name: 'New vendor' }).click();
    const dialog = page.getByRole('dialog', { name: 'New vendor' });
    await dialog.getByLabel('Vendor name').fill('GitHub');
    await dialog.getByRole('button', { name: 'Create vendor' }).click();
    await page.getByRole('heading', { name: 'GitHub', level: 1 }).waitFor();
    t.match(page.url(), /\/vendors\/github\/documents$/, 'a new vendor opens on its documents');
    await page.getByText('No documents yet').waitFor();

    // Record every status the table shows (a MutationObserver in the page: nothing is missed between polls).
    await page.evaluate(() => {
      const log: string[] = [];
      (window as unknown as { statusLog: string[] }).statusLog = log;
      const seen = new Map<string, string>();
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('tr[data-source-id] [data-status]')) {
          const id = el.closest('tr')!.getAttribute('data-source-id')!;
          const s = el.getAttribute('data-status')!;
          if (seen.get(id) !== s) {
            seen.set(id, s);
            log.push(`${id}:${s}`);
          }
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
    });

    // Several files at once through the file chooser, one by drag and drop.
    await page.getByLabel('Files to upload').setInputFiles([SLA, SIRT]);
    await page.getByRole('progressbar', { name: /Upload of github-enterprise-service-level-agreement\.md/ }).waitFor();
    t.pass('each file shows its own upload progress bar');
    const dropped = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(
        new File(['# Exit plan\n\nGitHub customers can export repositories at any time with the migration API.'], 'exit-plan.md', { type: 'text/markdown' }),
      );
      return dt;
    });
    await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: dropped });
    const row = (name: RegExp) => page.locator('tbody tr').filter({ hasText: name });
    // Live status: the queued sources are ingested now; the table follows without a reload or a poll.
    for (const name of [/github-enterprise-service-level-agreement\.md/, /github-sirt-description/, /exit-plan\.md/]) {
      await row(name).locator('[data-status="pending"]').waitFor();
    }
    await page.getByText('Queued').first().waitFor();
    const listed = (await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: { ...user.headers, 'x-workspace-id': 'github' } })).json().data
      .dataSources as { id: string; name: string }[];
    t.equal(listed.length, 3);
    const job = { id: 'direct', retryCount: 0, retryLimit: 0, signal: new AbortController().signal };
    for (const d of listed) await app.services.dataSources.ingest({ dataSourceId: d.id, generation: 1, requestedBy: user.id }, job);
    for (const name of [/github-enterprise-service-level-agreement\.md/, /github-sirt-description/, /exit-plan\.md/]) {
      await row(name).locator('[data-status="ready"]').waitFor();
    }
    const log = await page.evaluate(() => (window as unknown as { statusLog: string[] }).statusLog);
    for (const d of listed) {
      const seq = log.filter((l) => l.startsWith(`${d.id}:`)).map((l) => l.split(':')[1]);
      // `processing` may be too short to be painted (events of one network read render once).
      t.same(
        seq.filter((x) => x !== 'processing'),
        ['pending', 'ready'],
        `${d.name}: queued -> ready, live (seen: ${seq.join(' -> ')})`,
      );
    }
    t.pass('dropped and chosen files are all indexed');
    await t.resolveMatch(
      row(/github-enterprise-service-level-agreement\.md/)
        .getByText('Ready')
        .count(),
      1,
      'the status is written out, not only coloured',
    );

    // A file of a type the service does not read is refused before it is sent; one the service
    // refuses after reading it (a ".pdf" holding text) shows the service's message in its row.
    await page
      .getByLabel('Files to upload')
      .setInputFiles({ name: 'scan.png', mimeType: 'image/png', buffer: Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex') });
    t.match(
      await page
        .getByRole('alert')
        .filter({ hasText: /scan\.png/ })
        .innerText(),
      /scan\.png: this type of file is not supported\. Upload PDF, Word/,
      'an image is refused before it is sent',
    );
    await page
      .getByLabel('Files to upload')
      .setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('just some text, not a PDF') });
    t.match(
      await page
        .getByRole('alert')
        .filter({ hasText: /notes\.pdf/ })
        .innerText(),
      /not a valid PDF/i,
      'the 415 message of the API is shown',
    );
    t.same(await a11yViolations(page), [], 'documents page: no serious accessibility violation');
    await screenshot(page, 'documents');

    // Open the original file: a new tab with its text.
    const [tab] = await Promise.all([
      browser.context.waitForEvent('page'),
      page.getByRole('button', { name: 'Open the original file github-enterprise-service-level-agreement.md' }).click(),
    ]);
    await tab!.waitForLoadState();
    await tab!
      .getByText(/99\.9% quarterly uptime commitment/)
      .first()
      .waitFor();
    t.pass('the original document opens in a new tab');
    await tab!.close();

    // Delete a source after confirming.
    await row(/exit-plan\.md/)
      .getByRole('button', { name: /Delete/ })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Delete this document?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await row(/exit-plan\.md/).waitFor({ state: 'detached' });
    t.pass('a deleted document leaves the list');

    // The vendor list shows documents, sync status and last sync.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vendors' }).click();
    const vendorRow = page.locator('tbody tr').filter({ hasText: 'GitHub' });
    await vendorRow.getByText('Up to date').waitFor();
    // The list may paint from the query cache first and then revalidate: wait (bounded) for the fresh count.
    const docCount = vendorRow.locator('td[data-label="Documents"] [data-count="documents"]');
    await docCount
      .filter({ hasText: /^\s*2\s*$/ })
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
    t.equal((await docCount.innerText()).trim(), '2', 'two indexed documents are counted');
    t.match(await vendorRow.locator('td[data-label="Documents"]').innerText(), /just now|minute/, 'the last sync is shown');
    t.same(await a11yViolations(page), [], 'vendor list: no serious accessibility violation');
    await screenshot(page, 'vendors');

    // Notifications: the uploads' outcomes arrived while the page was open.
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await page.getByRole('button', { name: 'Notifications, 3 unread' }).waitFor();
    t.pass('the bell shows 3 unread notifications without a reload');
    await bell.click();
    const panel = page.getByRole('region', { name: 'Latest notifications' });
    await panel.getByText('Sync of data source GitHub Enterprise Service Level Agreement finished').waitFor();
    t.same(await a11yViolations(page), [], 'notifications panel: no serious accessibility violation');
    await screenshot(page, 'notifications');
    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByRole('button', { name: 'Notifications, 0 unread' }).waitFor();
    t.pass('mark all read brings the badge to 0');
    await page.keyboard.press('Escape');

    // Ask: the answer streams token by token, with its sources and validation.
    await page.locator('tbody tr').filter({ hasText: 'GitHub' }).getByRole('link', { name: 'GitHub' }).click();
    await page.getByRole('link', { name: 'Ask' }).click();
    await page.getByRole('heading', { name: 'Ask about GitHub' }).waitFor();
    const sourceNumberOf = (req: CapturedRequest, needle: string) => {
      const all = JSON.stringify(req.body);
      for (const m of all.matchAll(/<<<SOURCE (\d+) ([0-9a-f]+)>>>([\s\S]*?)<<<END SOURCE/g)) if (m[3]!.includes(needle)) return Number(m[1]);
      return 1;
    };
    fake.reply((req) => {
      const n = sourceNumberOf(req, '99.9%');
      const text = `GitHub commits to maintain at least 99.9% Uptime for the applicable GitHub service in each calendar quarter [Source ${n}]. If GitHub does not meet the SLA, the customer is entitled to service credits [Source ${n}].`;
      return { chunks: text.split(/(?<= )/), chunkDelayMs: 25 };
    });
    const question = page.getByLabel('Your question');
    await question.fill('What uptime does GitHub commit to in its SLA?');
    await page.evaluate(() => {
      const lengths: number[] = [];
      (window as unknown as { answerLengths: number[] }).answerLengths = lengths;
      new MutationObserver(() => {
        const a = document.querySelector('article[aria-label="Answer"] .md');
        if (a && lengths.at(-1) !== a.textContent!.length) lengths.push(a.textContent!.length);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await question.press('Enter');
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    t.pass('a running answer can be stopped (the Stop button replaces Ask)');
    const grounded = page.getByText('Grounded in the cited sources');
    await grounded.waitFor();
    const lengths = await page.evaluate(() => (window as unknown as { answerLengths: number[] }).answerLengths);
    t.ok(lengths.length >= 10, `the answer grew in ${lengths.length} steps while it streamed`);
    await page.waitForURL(/\/vendors\/github\/ask\/[0-9a-f-]{36}$/);
    t.pass('the new conversation gets its own address');
    await page
      .getByText(/High confidence|Medium confidence/)
      .first()
      .waitFor();
    const citation = page
      .getByRole('article', { name: 'Answer' })
      .getByRole('link', { name: /^Source \d+$/ })
      .first();
    const n = Number((await citation.innerText()).match(/\d+/)![0]);
    // Keyboard: focus the citation and press Enter.
    await citation.focus();
    await page.keyboard.press('Enter');
    const card = page.locator(`li[aria-current="true"]`);
    await card.getByText('GitHub Enterprise Service Level Agreement', { exact: true }).waitFor();
    t.match(await card.locator('blockquote').innerText(), /99\.9%/, `[Source ${n}] highlights its passage beside the answer`);
    await card.getByText('cited in the answer').waitFor();
    t.same(await a11yViolations(page), [], 'chat: no serious accessibility violation');
    await screenshot(page, 'chat');
    // The cited source opens its document as text, at the passage, highlighted; the original is one click away.
    await card.getByRole('button', { name: /Open at the passage/ }).click();
    const viewer = page.getByRole('dialog', { name: 'GitHub Enterprise Service Level Agreement' });
    await viewer.locator('mark[data-hit]').waitFor();
    t.match((await viewer.locator('mark').allInnerTexts()).join(' '), /99\.9%/, 'the cited source opens at its passage, highlighted');
    const [doc] = await Promise.all([browser.context.waitForEvent('page'), viewer.getByRole('button', { name: /Open the original file/ }).click()]);
    await doc!
      .getByText(/99\.9% quarterly uptime commitment/)
      .first()
      .waitFor();
    t.pass('and its original file is one click away');
    await doc!.close();
    await page.keyboard.press('Escape');

    // Rename, then export as Markdown and JSON.
    await page.getByRole('button', { name: 'Rename' }).click();
    const renameDialog = page.getByRole('dialog', { name: 'Rename conversation' });
    await renameDialog.getByLabel('Title').fill('GitHub uptime');
    await renameDialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'GitHub uptime' }).waitFor();
    await page.getByRole('navigation', { name: 'Conversations' }).getByText('GitHub uptime').waitFor();
    t.pass('the conversation is renamed in the header and the side list');
    const [md] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as Markdown' }).click()]);
    const mdText = readFileSync((await md.path())!, 'utf8');
    t.match(mdText, /^# GitHub uptime\n/, 'the Markdown export has the new title');
    t.match(mdText, /## Assistant[\s\S]*99\.9%[\s\S]*\[Source \d+: GitHub Enterprise Service Level Agreement\]/);
    t.equal(md.suggestedFilename(), 'GitHub-uptime.md');
    const [js] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as JSON' }).click()]);
    const exported = JSON.parse(readFileSync((await js.path())!, 'utf8'));
    t.equal(exported.messages.length, 2, 'the JSON export holds the question and the answer');
    t.equal(exported.conversation.title, 'GitHub uptime');

    // Filters reach the request; Stop ends a running answer and nothing is stored.
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByRole('textbox', { name: 'Section' }).fill('Uptime Guarantee');
    fake.reply({
      text: 'The service credits are computed per quarter and depend on the measured uptime of each service feature. '.repeat(4),
      chunkDelayMs: 20,
      stallAfter: 4,
    });
    await question.fill('And how are service credits computed?');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/v1/rag/stream'));
    const aborted = fake.nextAbort();
    await page.getByRole('button', { name: 'Ask' }).click();
    t.match(JSON.parse((await sent).postData()!), {
      question: 'And how are service credits computed?',
      filters: { section: 'Uptime Guarantee' },
      conversationId: String,
    });
    await page
      .getByText(/service credits are computed/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Stopped. This answer was not saved.').waitFor();
    await aborted;
    t.pass('Stop closes the request and the service stops generating');
    const convId = page.url().split('/').pop()!;
    const stored = (
      await app.inject({ method: 'GET', url: `/api/v1/conversations/${convId}`, headers: { ...user.headers, 'x-workspace-id': 'github' } })
    ).json().data;
    t.equal(stored.messages.length, 2, 'the stopped exchange was not stored');

    // After a reload the stored answer's citation still shows the passage it quoted.
    await page.reload();
    const storedCitation = page
      .getByRole('article', { name: 'Answer' })
      .getByRole('link', { name: `Source ${n}`, exact: true })
      .first();
    await storedCitation.click();
    const storedCard = page.locator(`li[aria-current="true"]`);
    await storedCard.getByText('GitHub Enterprise Service Level Agreement', { exact: true }).waitFor();
    t.match(await storedCard.locator('blockquote').innerText(), /99\.9%/, 'after a reload, the stored citation highlights its passage');

    // Archive, find it under Archived, restore; then delete.
    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByText('This conversation is archived').waitFor();
    t.equal(await question.count(), 0, 'an archived conversation cannot be continued');
    await page.getByRole('button', { name: 'Archived' }).click();
    await page.getByRole('navigation', { name: 'Conversations' }).getByText('GitHub uptime').waitFor();
    await page.getByRole('button', { name: 'Restore to continue' }).click();
    await page.getByLabel('Your question').waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete this conversation?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Ask about GitHub' }).waitFor();
    await page.getByRole('button', { name: 'Active' }).click();
    await page.getByText('No conversations yet.').waitFor();
    t.pass('archive, restore and delete work from the conversation header');

    // A new notification arrives live while the user is elsewhere: re-index a document.
    await page.getByRole('link', { name: 'Documents' }).click();
    await row(/github-sirt-description/)
      .getByRole('button', { name: /Re-index/ })
      .click();
    await row(/github-sirt-description/)
      .locator('[data-status="pending"]')
      .waitFor();
    const sirt = listed.find((d) => /SIRT/.test(d.name))!;
    await app.services.dataSources.ingest({ dataSourceId: sirt.id, generation: 2, requestedBy: user.id }, job);
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
    await page.locator('.toast').filter({ hasText: 'Sync of data source GitHub SIRT description RFC 2350 finished' }).waitFor();
    t.pass('a notification arrives live: the badge rises and a toast says what happened');

    t.same(
      browser.problems.filter((p) => !/Failed to load resource/.test(p)),
      [],
      'no script error in the page',
    );
  });
