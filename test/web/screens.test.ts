import { readFileSync } from 'node:fs';
import t from 'tap';
import { cookiesOf, registerUser, testConfig } from '../helpers/app.js';
import { atEachSize, browserSkipReason, launchBrowser, pageOverflow, screenshot, startDashboardServer } from '../helpers/browser.js';
import { ingest, vendorDoc } from '../helpers/rag.js';
import { createOrgAndWorkspace, createWorkspace } from '../helpers/workspaces.js';

// The dashboard on every screen and every size (issue 32, docs/dashboard.md "Every size"), in a
// real browser with a European locale (en-GB): signed-out pages without a console error, the
// onboarding's country by name, every signed-in screen at 390x844 and 1366x900 without
// page-level overflow (screenshots in .data/screenshots/sizes/), the menu button below 900 px,
// the Ask thread in a long conversation (the new answer beside its sources, streamed sentence by
// sentence), the one document viewer at the passage, the exports as evidence, an upload refused
// before it is sent, dates day first. The compliance screens are walked in compliance.test.ts.
const skip = browserSkipReason();

if (skip) t.plan(0, skip);
else
  t.test('every screen at every size', async (t) => {
    const base0 = testConfig();
    const server = await startDashboardServer({
      rag: { ...base0.rag, generator: 'extractive', extractiveStreamIntervalMs: 80 },
      // A small upload limit: a 3 MB file is over it, and the dashboard must know it from the service.
      ingest: { ...base0.ingest, maxFileBytes: 2 * 1024 * 1024 },
    });
    const browser = await launchBrowser({ locale: 'en-GB', viewport: { width: 1366, height: 900 } });
    t.teardown(async () => {
      await browser.close();
      await server.close();
    });
    const { app } = server.ctx;
    const base = server.url;
    const { page } = browser;
    const noOverflow = (sizes: Record<string, number>, what: string) =>
      t.same(sizes, { phone: 0, laptop: 0 }, `${what}: nothing wider than the window at 390 and 1366 px`);

    await t.test('signed out: no console error, no overflow; onboarding takes a country by name', async (t) => {
      for (const [path, heading] of [
        ['/login', 'Sign in'],
        ['/register', 'Create your account'],
        ['/forgot-password', 'Reset your password'],
        ['/vendors', 'Sign in'],
      ] as const) {
        const before = browser.problems.length;
        await page.goto(`${base}${path}`);
        await page.getByRole('heading', { name: heading }).waitFor();
        // The session check has answered (a signed-out visitor is told so without a 401).
        await page.waitForLoadState('networkidle');
        noOverflow(await atEachSize(page, `signed-out${path.replace(/\//g, '-')}`), path);
        t.same(browser.problems.slice(before), [], `${path}: no console error, no failed request`);
      }

      // Register in the browser; the onboarding's country box takes "Germany" and stores DE (not GE, Georgia).
      await page.goto(`${base}/register`);
      await page.getByLabel('Full name').fill('Grete Analyst');
      await page.getByLabel('Work e-mail').fill('grete@bank.example');
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Welcome, Grete Analyst' }).waitFor();
      noOverflow(await atEachSize(page, 'onboarding'), 'onboarding');
      await page.getByLabel('Organization name').fill('Bundesbank Kunde AG');
      const country = page.getByRole('combobox', { name: 'Country (optional)' });
      await country.fill('Germ');
      const listbox = page.getByRole('listbox');
      t.equal(await listbox.getByRole('option').first().innerText(), 'Germany (DE)', 'type-ahead by name: Germany first');
      await country.fill('Germany');
      await page.getByRole('button', { name: 'Create organization' }).click();
      await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor();
      const grete = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'grete@bank.example', password: 'correct horse battery' },
      });
      const org = await app.inject({ method: 'GET', url: '/api/v1/organizations/me', cookies: cookiesOf(grete) });
      t.equal(org.json().data.organization.country, 'DE', '"Germany" typed is stored as DE');
      await page.context().clearCookies();
    });

    // The analyst of the rest of the file: two vendors with real documents, DORA Article 28, a long conversation.
    const owner = await registerUser(app, { name: 'Ada Analyst', email: 'ada@bank.example' });
    const gh = await createOrgAndWorkspace(app, owner, 'GitHub', 'Example Bank AG');
    const bc = await createWorkspace(app, owner, 'Basecamp');
    await app.services.dataSources.indexCorpus({ articles: [28] });
    await ingest(app, gh.headers, 'GitHub contract set', [
      { title: 'GitHub Enterprise Service Level Agreement', content: vendorDoc('github/github-enterprise-service-level-agreement.md') },
      { title: 'GitHub SIRT description (RFC 2350)', content: vendorDoc('github/github-sirt-description-rfc-2350.md') },
    ]);
    await ingest(app, { ...owner.headers, 'x-workspace-id': bc.id }, 'Basecamp DPA', [
      { title: '37signals Data Processing Addendum', content: vendorDoc('basecamp/data-processing-addendum.txt'), format: 'text' },
    ]);
    const questions = [
      'What uptime does GitHub commit to in its SLA?',
      'How are service credits calculated?',
      'How does GitHub report security incidents?',
      'Who can contact the GitHub SIRT?',
      'What is excluded from the uptime calculation?',
      'How does a customer claim service credits?',
      'What does the SIRT do with reported vulnerabilities?',
      'Which events does the SIRT handle?',
      'What does DORA Article 28 require of financial entities?',
      'How long does a customer have to claim service credits?',
    ];
    let conversationId = '';
    for (const question of questions) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/v1/rag',
        headers: gh.headers,
        payload: { question, ...(conversationId ? { conversationId } : {}) },
      });
      t.equal(r.statusCode, 200, `asked: ${question}`);
      conversationId = r.json().data.conversationId;
    }
    await app.inject({ method: 'PATCH', url: `/api/v1/conversations/${conversationId}`, headers: gh.headers, payload: { title: 'GitHub SLA and SIRT' } });
    await browser.context.addCookies(
      Object.entries(
        cookiesOf(await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: owner.email, password: 'correct horse battery' } })),
      ).map(([name, value]) => ({ name, value, url: base })),
    );

    await t.test('the frame: a menu button below 900 px; the bell panel inside the window', async (t) => {
      await page.goto(`${base}/vendors`);
      await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor();
      noOverflow(await atEachSize(page, 'vendors'), 'vendors');
      const menu = page.getByRole('button', { name: 'Menu', exact: true });
      const nav = page.getByRole('navigation', { name: 'Main' });
      await page.setViewportSize({ width: 390, height: 844 });
      t.equal(await nav.isVisible(), false, 'the navigation is folded on a phone');
      await menu.click();
      await nav.getByRole('link', { name: 'Analytics' }).waitFor();
      t.equal(await menu.getAttribute('aria-expanded'), 'true');
      await screenshot(page, 'sizes/menu-open-390');
      await nav.getByRole('link', { name: 'Analytics' }).click();
      await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
      t.equal(await nav.isVisible(), false, 'following a link closes the menu');
      await page.setViewportSize({ width: 1366, height: 900 });
      t.equal(await menu.isVisible(), false, 'no menu button on a laptop');
      t.equal(await nav.isVisible(), true, 'the navigation is always there');

      // The bell's panel stays in the window at both sizes.
      for (const size of [
        { width: 1366, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(size);
        await page.getByRole('button', { name: /^Notifications/ }).click();
        const panel = page.getByRole('region', { name: 'Latest notifications' });
        await panel
          .getByText(/finished|No notifications yet/)
          .first()
          .waitFor();
        const box = (await panel.boundingBox())!;
        t.ok(
          box.x >= 0 && box.x + box.width <= size.width,
          `the notification panel is inside the window at ${size.width} px (${Math.round(box.x)}-${Math.round(box.x + box.width)})`,
        );
        await screenshot(page, `sizes/notifications-panel-${size.width}`);
        await page.keyboard.press('Escape');
      }
    });

    await t.test('documents: at both sizes; a file over the limit is refused before it is sent', async (t) => {
      await page.goto(`${base}/vendors/github/documents`);
      await page.getByRole('table', { name: 'Documents' }).waitFor();
      noOverflow(await atEachSize(page, 'documents'), 'documents');
      const posts: string[] = [];
      const onRequest = (r: { method(): string; url(): string }) => {
        if (r.method() === 'POST' && r.url().endsWith('/api/v1/data-sources')) posts.push(r.url());
      };
      page.on('request', onRequest);
      await page.getByText(/up to 2\.0 MB each/).waitFor();
      await page
        .getByLabel('Files to upload')
        .setInputFiles({ name: 'big-contract.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(3 * 1024 * 1024, 32) });
      const refusal = page.getByRole('alert').filter({ hasText: 'big-contract.pdf' });
      await refusal.waitFor();
      t.match(await refusal.innerText(), /3\.0 MB: files up to 2\.0 MB are accepted\. It was not sent\./, 'the limit is the service’s, said before sending');
      await page
        .getByLabel('Files to upload')
        .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('89504e470d0a1a0a0000000d4948445200', 'hex') });
      await page.getByRole('alert').filter({ hasText: 'photo.png: this type of file is not supported' }).waitFor();
      page.off('request', onRequest);
      t.same(posts, [], 'nothing was uploaded');
      noOverflow(await atEachSize(page, 'documents-refused'), 'documents with refused uploads');
    });

    await t.test('Ask: the new answer beside its sources in a long conversation', async (t) => {
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`${base}/vendors/github/ask`);
      await page.getByRole('heading', { name: 'Ask about GitHub' }).waitFor();
      noOverflow(await atEachSize(page, 'ask-empty'), 'Ask, no conversation');

      await page.goto(`${base}/vendors/github/ask/${conversationId}`);
      const thread = page.getByRole('log', { name: 'Messages' });
      const answers = thread.getByRole('article', { name: 'Answer' });
      await answers.nth(questions.length - 1).waitFor();
      const threadBox = async () => (await thread.boundingBox())!;
      const inThread = async (loc: ReturnType<typeof answers.nth>) => {
        // When a streamed answer ends, the stored message takes its place: wait until it is laid out.
        await loc.waitFor({ state: 'visible' });
        let box = await loc.boundingBox();
        for (let i = 0; i < 20 && !box; i++) {
          await page.waitForTimeout(100);
          box = await loc.boundingBox();
        }
        const a = box!;
        const th = await threadBox();
        return a.y < th.y + th.height && a.y + a.height > th.y;
      };
      t.ok(await inThread(answers.last()), 'a conversation opens at its newest answer');
      t.ok((await threadBox()).height >= 440, `the thread gets the height at 1366x900 (${Math.round((await threadBox()).height)} px)`);

      // Ask in the long conversation: the thread follows, the answer streams sentence by sentence.
      await page.evaluate(() => {
        const steps: number[] = [];
        (window as unknown as { steps: number[] }).steps = steps;
        new MutationObserver(() => {
          const last = [...document.querySelectorAll('article[aria-label="Answer"]')].at(-1);
          const n = last?.querySelector('.md')?.textContent?.length ?? 0;
          if (n && steps.at(-1) !== n) steps.push(n);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await page.getByLabel('Your question').fill('What happens if GitHub does not meet the SLA?');
      await page.getByLabel('Your question').press('Enter');
      await page
        .getByText(/^(High|Medium|Low) confidence/)
        .nth(questions.length)
        .waitFor();
      await page.getByRole('button', { name: 'Ask' }).waitFor();
      const steps = await page.evaluate(() => (window as unknown as { steps: number[] }).steps);
      t.ok(steps.length >= 2, `the answer arrived in ${steps.length} steps (sentence by sentence)`);
      const newest = answers.last();
      t.ok(await inThread(newest), 'the new answer is in view');
      const sources = page.getByRole('complementary', { name: /Sources/ });
      await sources.getByText('of the newest answer').waitFor();
      const stored = (await app.inject({ method: 'GET', url: `/api/v1/conversations/${conversationId}?messageLimit=500`, headers: gh.headers })).json().data
        .messages as { role: string; metadata?: { sources: { title: string }[] } }[];
      const titlesOf = (m: (typeof stored)[number]) => m.metadata!.sources.map((s) => s.title);
      const newestTitles = titlesOf(stored.at(-1)!);
      const shown = async () => sources.locator('li').evaluateAll((lis) => lis.map((li) => li.querySelector('[class*="sourceTitle"]')?.textContent ?? ''));
      t.same(await shown(), newestTitles, 'the Sources panel beside it lists its sources');
      noOverflow(await atEachSize(page, 'ask-long'), 'Ask, a long conversation');
      // The edges of the range, and the middle layout (conversations folded, sources beside).
      for (const size of [
        { width: 360, height: 740 },
        { width: 1024, height: 768 },
        { width: 1920, height: 1080 },
      ]) {
        await page.setViewportSize(size);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        t.equal(await pageOverflow(page), 0, `Ask at ${size.width} px: nothing wider than the window`);
        await screenshot(page, `sizes/ask-long-${size.width}`);
      }

      // Scrolled up to the first answer: the panel follows the answer in view; the thread stays there.
      await page.setViewportSize({ width: 1366, height: 900 });
      await answers.first().scrollIntoViewIfNeeded();
      await sources.getByText('of the answer in view').waitFor();
      t.same(await shown(), titlesOf(stored.find((m) => m.role === 'assistant')!), 'the panel shows the sources of the answer in view');
      await page.getByRole('button', { name: 'Newest message' }).click();
      await sources.getByText('of the newest answer').waitFor();
      t.ok(await inThread(answers.last()), '"Newest message" goes back down');

      // On a phone: thread then sources, the question bubble readable, the Ask button inside the window.
      await page.setViewportSize({ width: 390, height: 844 });
      const bubble = (await thread.locator('[class*="question"]').last().boundingBox())!;
      t.ok(bubble.width > 150, `the question bubble is ${Math.round(bubble.width)} px wide`);
      const askBox = (await page.getByRole('button', { name: 'Ask' }).boundingBox())!;
      t.ok(askBox.x + askBox.width <= 390, 'the Ask button is inside the window');
      await page.setViewportSize({ width: 1366, height: 900 });

      // Every "open" of a passage lands on it, highlighted; the original is one click away.
      const cited = answers
        .last()
        .getByRole('link', { name: /^Source \d+$/ })
        .first();
      await cited.click();
      const card = sources.locator('li[aria-current="true"]');
      await card.locator('blockquote').waitFor();
      await screenshot(page, 'ask');
      await card.getByRole('button', { name: /Open at the passage/ }).click();
      const viewer = page.getByRole('dialog');
      const mark = viewer.locator('mark[data-hit]');
      await mark.waitFor();
      const text = viewer.getByRole('document');
      await page.waitForFunction(() => {
        const m = document.querySelector('dialog mark[data-hit]')?.getBoundingClientRect();
        const box = document.querySelector('dialog [role="document"]')?.getBoundingClientRect();
        return !!m && !!box && m.top >= box.top && m.top < box.bottom;
      });
      t.pass('the document opens scrolled to the highlighted passage');
      await screenshot(page, 'viewer');
      t.notMatch(await text.innerText(), /^---$|\*\*|<br/m, 'rendered as text: no front matter, Markdown syntax or HTML');
      await viewer.getByRole('button', { name: /Open the original file/ }).waitFor();
      noOverflow(await atEachSize(page, 'viewer'), 'the document viewer');
      await page.keyboard.press('Escape');

      // Dates in the reader's locale (en-GB: day first); the exports keep ISO 8601.
      t.match(await answers.last().locator('footer time').innerText(), /^\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2}$/, 'dates day first for en-GB');
    });

    await t.test('exports: each cited passage quoted, absolute links that open the passage, confidence in words', async (t) => {
      const [md] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as Markdown' }).click()]);
      const text = readFileSync((await md.path())!, 'utf8');
      t.match(text, /^Confidence: (High|Medium|Low) \(\d{1,3}%\)$/m, 'confidence in words and per cent');
      t.match(text, /^Created: \d{4}-\d{2}-\d{2}T/m, 'dates stay ISO in the export');
      const link = /^- \[Source \d+: [^\]]+\]\((http:\/\/localhost:3000\/vendors\/github\/documents\/[^)]+\?chunk=[^)]+)\)$/m.exec(text)?.[1];
      t.ok(link, 'absolute links built from PUBLIC_URL');
      t.match(text, /^ {2}Cited in the answer.*\n\n {2}> \S/m, 'a cited passage quoted under its source');
      const [js] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as JSON' }).click()]);
      const data = JSON.parse(readFileSync((await js.path())!, 'utf8'));
      t.match(data.messages.at(-1).evidence.confidence, /^(High|Medium|Low) \(\d{1,3}%\)$/);
      // The link, followed by a signed-in reader, opens the document at that passage.
      await page.goto(link!.replace('http://localhost:3000', base));
      const mark = page.getByRole('dialog').locator('mark[data-hit]');
      await mark.waitFor();
      t.ok((await mark.innerText()).length > 20, 'the exported link lands on the passage, highlighted');
      await page.keyboard.press('Escape');
      await page.waitForURL(/\/vendors\/github\/documents$/);
    });

    await t.test('quotes of a hard-wrapped text reflow', async (t) => {
      const bcHeaders = { ...owner.headers, 'x-workspace-id': bc.id };
      await page.goto(`${base}/vendors/basecamp/ask`);
      await page.getByLabel('Your question').fill('Within how many business days can the customer object to a new Subprocessor?');
      await page.getByLabel('Your question').press('Enter');
      await page.getByText(/^(High|Medium|Low) confidence/).waitFor();
      await page.waitForURL(/\/ask\/[0-9a-f-]{36}$/);
      const convo = page.url().split('/').pop()!;
      const msg = (await app.inject({ method: 'GET', url: `/api/v1/conversations/${convo}`, headers: bcHeaders })).json().data.messages.at(-1);
      const cited: number[] = msg.metadata.citedSources.map((c: { sourceNumber: number }) => c.sourceNumber);
      t.ok(cited.length > 0, 'the answer cites the DPA');
      const source = msg.metadata.sources.find((s: { sourceNumber: number }) => s.sourceNumber === cited[0]);
      const rawLines = source.content.split('\n').filter(Boolean).length;
      t.ok(rawLines >= 5, `the stored passage keeps the file's ${rawLines} hard lines`);
      await page
        .getByRole('article', { name: 'Answer' })
        .last()
        .getByRole('link', { name: `Source ${cited[0]}`, exact: true })
        .first()
        .click();
      const quote = page.locator('li[aria-current="true"] blockquote');
      const shown = await quote.innerText();
      // Every line of the file that breaks a sentence ("… a written" / "agreement with …") reads as one line.
      const lines: string[] = source.content.split('\n');
      const joins = lines.flatMap((l, i) => {
        const next = lines[i + 1];
        return next && /[a-z,]$/.test(l) && /^[a-z]/.test(next) ? [`${l.split(' ').at(-1)} ${next.split(' ')[0]}`] : [];
      });
      t.ok(joins.length >= 3, `${joins.length} sentences broken across lines in the file`);
      t.same(
        joins.filter((j) => !shown.includes(j)),
        [],
        'the quote joins them',
      );
      const shownLines = shown.split('\n').filter(Boolean).length;
      t.ok(shownLines < rawLines, `${shownLines} lines shown for the file's ${rawLines}`);
      noOverflow(await atEachSize(page, 'ask-basecamp'), 'Ask, Basecamp');
      // The viewer reflows the document the same way, and finds the passage in it.
      await page
        .locator('li[aria-current="true"]')
        .getByRole('button', { name: /Open at the passage/ })
        .click();
      await page.getByRole('dialog').locator('mark[data-hit]').waitFor();
      await screenshot(page, 'sizes/viewer-basecamp-390');
      await page.keyboard.press('Escape');
    });

    await t.test('the other screens at both sizes', async (t) => {
      for (const [path, ready] of [
        ['/vendors/github/settings', () => page.getByRole('heading', { name: 'Members and permissions' }).waitFor()],
        ['/vendors/github/profile', () => page.getByRole('heading', { name: 'Vendor profile' }).waitFor()],
        ['/vendors/github/assessments', () => page.getByRole('button', { name: 'Run the first assessment' }).waitFor()],
        ['/vendors/github/questionnaires', () => page.getByRole('button', { name: 'Create the first questionnaire' }).waitFor()],
        ['/register-of-information', () => page.getByRole('heading', { name: 'Register of Information', level: 1 }).waitFor()],
        ['/concentration', () => page.getByRole('heading', { name: 'Providers, most depended on first' }).waitFor()],
        ['/analytics', () => page.getByTestId('kpi-questions').waitFor()],
        ['/organization', () => page.getByRole('heading', { name: 'Organization', level: 1 }).waitFor()],
        ['/account', () => page.getByRole('heading', { name: 'Account', level: 1 }).waitFor()],
        ['/notifications', () => page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor()],
      ] as const) {
        await page.goto(`${base}${path}`);
        await ready();
        noOverflow(await atEachSize(page, path.slice(1).replace(/\//g, '-')), path);
      }
      // Analytics: one definition of answered; no axis label cut.
      await page.goto(`${base}/analytics`);
      await page.getByTestId('kpi-questions').waitFor();
      await page.getByLabel('Vendor', { exact: true }).selectOption({ label: 'GitHub' });
      await page
        .waitForFunction((n) => document.querySelector('[data-testid="kpi-questions"]')?.textContent === n, String(questions.length + 1), { timeout: 10_000 })
        .catch(() => undefined);
      t.equal(await page.getByTestId('kpi-questions').innerText(), String(questions.length + 1), 'every question of GitHub is counted');
      const unanswered = Number(await page.getByTestId('kpi-unanswered').innerText());
      const answered = Number(await page.getByTestId('kpi-answered').innerText());
      t.equal(answered + unanswered, questions.length + 1, 'answered from the documents + unanswered = questions');
      const listed = await page
        .getByText(/^Unanswered questions/)
        .locator('span')
        .innerText()
        .catch(() => '(0)');
      t.equal(listed, `(${unanswered})`, 'the unanswered list counts what the figure says');
      for (const size of [
        { width: 1366, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(size);
        await page.waitForFunction(() => document.querySelector('canvas[aria-label^="Most-used documents"]')?.getAttribute('data-labels-cut') !== null);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const cut = await page.$$eval('canvas', (cs) => cs.map((c) => `${c.getAttribute('aria-label')?.split(':')[0]}: ${c.getAttribute('data-labels-cut')}`));
        t.same(
          cut.filter((c) => !c.endsWith(': 0')),
          [],
          `no axis label cut at ${size.width} px (${cut.join('; ')})`,
        );
      }
      t.same(
        browser.problems.filter((p) => !/Failed to load resource/.test(p)),
        [],
        'no script error in the page',
      );
    });
  });
