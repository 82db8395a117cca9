import t from 'tap';
import { cookiesOf, registerUser, testConfig } from '../helpers/app.js';
import { a11yViolations, browserSkipReason, launchBrowser, screenshot, startDashboardServer } from '../helpers/browser.js';
import { DEFAULT_RESOURCES, startHttpMcpServer } from '../helpers/mcpServer.js';
import { addOrgMember, createOrg, createWorkspace } from '../helpers/workspaces.js';

// The administration screens in a real browser (docs/dashboard.md), through the real server:
// organization roles and removals (and a removal the API refuses, shown in its words), a
// vendor member's permission withdrawn, and an MCP source over Streamable HTTP added through
// the dialog after a connection test, synced (its documents appear without a reload),
// disabled, enabled and removed. One server, one browser, one MCP server for the whole file.
const skip = browserSkipReason();

if (skip) t.plan(0, skip);
else
  t.test('administration screens', async (t) => {
    const base0 = testConfig();
    // The MCP fixture listens on 127.0.0.1: private networks are allowed explicitly (as in test/mcp/).
    const server = await startDashboardServer({ mcp: { ...base0.mcp, allowPrivateNetworks: true } });
    const mcp = await startHttpMcpServer();
    const browser = await launchBrowser();
    t.teardown(async () => {
      await browser.close();
      await mcp.close();
      await server.close();
    });
    const { app } = server.ctx;
    const base = server.url;
    const { page } = browser;
    page.on('dialog', (d) => void d.accept()); // the confirmations of Remove

    const owner = await registerUser(app, { name: 'Ada Admin', email: 'ada@bank.example' });
    const orgId = await createOrg(app, owner, 'Example Bank AG');
    const bob = await addOrgMember(app, owner, orgId, 'analyst', { name: 'Bob Builder', email: 'bob@bank.example' });
    const dan = await addOrgMember(app, owner, orgId, 'analyst', { name: 'Dan Doe', email: 'dan@bank.example' });
    const ws = await createWorkspace(app, owner, 'Acme Cloud');
    await createWorkspace(app, bob, 'Bob Vendor'); // Bob owns a vendor: the API refuses to remove him
    await browser.context.addCookies(
      Object.entries(
        cookiesOf(await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: owner.email, password: 'correct horse battery' } })),
      ).map(([name, value]) => ({ name, value, url: base })),
    );
    const api = async (url: string, headers = owner.headers) => {
      const r = await app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
      if (r.statusCode !== 200) throw new Error(`GET ${url}: ${r.statusCode} ${r.body}`);
      return r.json().data;
    };
    const orgMembers = async () =>
      new Map<string, string>(
        (await api(`/organizations/${orgId}/members`)).members.map((m: { user: { email: string }; role: string }) => [m.user.email, m.role]),
      );
    const a11y = async (what: string) => t.same(await a11yViolations(page), [], `${what}: no serious accessibility violation`);
    const toast = (text: string | RegExp) => page.locator('.toast').filter({ hasText: text }).first().waitFor();

    t.test('organization: a role changed, a member removed, a refusal in the API words', async (t) => {
      await page.goto(`${base}/organization`);
      await page.getByText('Example Bank AG · 3 members').waitFor();
      await page.getByLabel('Role of Dan Doe').selectOption('viewer');
      await toast('Role changed');
      t.equal((await orgMembers()).get(dan.email), 'viewer', 'the API has Dan as a viewer');
      await page.reload();
      t.equal(await page.getByLabel('Role of Dan Doe').inputValue(), 'viewer', 'and so does the page after a reload');

      const danRow = page.getByRole('row', { name: /Dan Doe/ });
      await danRow.getByRole('button', { name: 'Remove' }).click();
      await toast('Member removed');
      await danRow.waitFor({ state: 'detached' });
      await page.getByText('Example Bank AG · 2 members').waitFor();
      t.notOk((await orgMembers()).has(dan.email), 'the API no longer lists Dan');

      // Bob owns a vendor: the API refuses, the page says why, Bob stays.
      await page
        .getByRole('row', { name: /Bob Builder/ })
        .getByRole('button', { name: 'Remove' })
        .click();
      const alert = page.getByRole('alert').filter({ hasText: 'Not removed' });
      await alert.getByText('This member owns workspaces: transfer their ownership first').waitFor();
      t.match(await alert.textContent(), /Bob Vendor/, 'naming the vendor he owns');
      t.equal((await orgMembers()).get(bob.email), 'analyst', 'Bob is still a member');
      t.ok(await page.getByRole('row', { name: /Bob Builder/ }).isVisible(), 'and still listed');
      await a11y('organization with an error');
      // The next action clears the refusal (no stale error beside a success).
      await page.getByLabel('Role of Bob Builder').selectOption('viewer');
      await toast('Role changed');
      await alert.waitFor({ state: 'detached' });
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/members/${bob.id}`)),
        page.getByLabel('Role of Bob Builder').selectOption('analyst'),
      ]);
      t.equal((await orgMembers()).get(bob.email), 'analyst', 'Bob is an analyst again');
    });

    t.test('organization: an API key created (shown once), used, listed with its last use, revoked', async (t) => {
      await page.goto(`${base}/organization`);
      const section = page.getByRole('region', { name: 'API keys for systems' });
      await section.getByText('No API key yet.').waitFor();
      await section.getByLabel('Name').fill('GRC nightly');
      await section.getByLabel('Acme Cloud').check();
      await section.getByRole('button', { name: 'Create key' }).click();
      const shown = section.getByTestId('new-api-key');
      await shown.waitFor();
      const key = (await shown.textContent())?.trim() ?? '';
      t.match(key, /^dora_sk_/, 'the key is shown once');
      await a11y('organization with a new API key');
      const used = await app.inject({ method: 'GET', url: '/api/v1/conversations', headers: { authorization: `Bearer ${key}`, 'x-workspace-id': ws.id } });
      t.equal(used.statusCode, 200, 'a system can use it in its vendor');
      await server.ctx.app.services.apiKeys.settled();
      await section.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });
      await page.reload();
      const row = page.getByRole('row', { name: /GRC nightly/ });
      await row.waitFor();
      t.notOk((await page.content()).includes(key), 'the key is not shown again');
      t.notMatch(await row.textContent(), /never/, 'its last use is listed');
      await row.getByRole('button', { name: 'Revoke the API key GRC nightly' }).click();
      await toast('API key revoked');
      await row.getByText('revoked').waitFor();
      const refused = await app.inject({ method: 'GET', url: '/api/v1/conversations', headers: { authorization: `Bearer ${key}`, 'x-workspace-id': ws.id } });
      t.equal(refused.statusCode, 401, 'refused at once');
    });

    t.test('vendor settings: a permission withdrawn', async (t) => {
      await page.goto(`${base}/vendors/${ws.slug}/settings`);
      const ask = page.getByLabel('Ask: Bob Builder');
      t.ok(await ask.isChecked(), 'Bob may ask through his organization role');
      await ask.uncheck();
      await toast('Permission changed');
      const member = (await api(`/workspaces/${ws.id}`)).workspace.members.find((m: { user: { id: string } }) => m.user.id === bob.id);
      t.match(member, { permissions: { canQuery: false, canViewSources: true }, membership: 'explicit' }, 'the API withdrew canQuery only');
      await page.reload();
      await page.getByLabel('Ask: Bob Builder').waitFor();
      t.notOk(await page.getByLabel('Ask: Bob Builder').isChecked(), 'unchecked after a reload');
      t.ok(await page.getByLabel('See documents: Bob Builder').isChecked(), 'the other permissions kept');
    });

    t.test('MCP sources: tested, added, synced live, disabled, enabled, removed', async (t) => {
      const section = page.locator('section[aria-labelledby="mcp-title"]');
      await section.getByRole('button', { name: 'Add an MCP source' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add an MCP source' });
      await dialog.getByLabel('Name', { exact: true }).fill('Acme docs');
      // A server that does not speak MCP: the failure in the dialog, cleared when the URL is edited.
      await dialog.getByLabel('Server URL (Streamable HTTP)').fill(`${base}/not-mcp`);
      await dialog.getByRole('button', { name: 'Test the connection' }).click();
      const failed = dialog.getByRole('status').filter({ hasText: /^Connection failed: / });
      await failed.waitFor();
      await dialog.getByLabel('Server URL (Streamable HTTP)').fill(mcp.url);
      await failed.waitFor({ state: 'detached' });
      await dialog.getByRole('button', { name: 'Test the connection' }).click();
      const result = dialog.getByRole('status').filter({ hasText: /^Connected in \d+ ms to acme-docs-fixture 1\.2\.3: 2 resources, 1 tools\.$/ });
      await result.waitFor();
      t.pass('the connection test names the server and what it offers');
      await a11y('MCP dialog');
      await dialog.getByRole('button', { name: 'Add and sync' }).click();
      await toast('Acme docs added; the first sync is under way');
      const row = section.getByRole('row', { name: /Acme docs/ });
      const docs = row.getByRole('cell').nth(2);
      // The first sync ends while the page is open: its outcome appears without a reload.
      await row.getByText('succeeded').waitFor();
      await docs.getByText(`${DEFAULT_RESOURCES.length}`, { exact: true }).waitFor();
      t.match(await row.textContent(), /2 added, 0 updated, 0 failed/, 'the outcome of the first sync, live');
      const [created] = (await api('/mcp-sources', { ...owner.headers, 'x-workspace-id': ws.id })).mcpSources;
      t.match(created, { name: 'Acme docs', url: mcp.url, enabled: true, documentCount: 2 });

      // A third resource on the server; Sync now brings it in, again without a reload.
      mcp.resources = [
        ...DEFAULT_RESOURCES,
        {
          uri: 'docs://acme-cloud/exit-plan.md',
          name: 'exit-plan',
          title: 'Acme Cloud Exit Plan',
          mimeType: 'text/markdown',
          text: '# Exit plan\n\nCustomers receive a full export of their data within 30 days of termination.',
        },
      ];
      await row.getByRole('button', { name: 'Sync now: Acme docs' }).click();
      await toast('Sync of Acme docs started');
      await docs.getByText('3', { exact: true }).waitFor();
      await row.getByText(/1 added, 0 updated, 0 failed/).waitFor();
      t.pass('the new document is counted as soon as the sync ends');
      await a11y('vendor settings with an MCP source');
      // For docs/screenshots/: the section with its source, toasts hidden.
      await page.evaluate(() => document.querySelectorAll<HTMLElement>('.toasts').forEach((e) => (e.style.visibility = 'hidden')));
      await section.evaluate((e) => e.scrollIntoView({ block: 'center' }));
      await screenshot(page, 'mcp-sources');
      await page.evaluate(() => document.querySelectorAll<HTMLElement>('.toasts').forEach((e) => (e.style.visibility = '')));

      await row.getByRole('button', { name: 'Disable: Acme docs' }).click();
      await toast('Acme docs disabled');
      await row.getByText('Disabled', { exact: true }).waitFor();
      t.ok(await row.getByRole('button', { name: 'Sync now: Acme docs' }).isDisabled(), 'a disabled source cannot be synced');
      t.equal((await api(`/mcp-sources/${created.id}`, { ...owner.headers, 'x-workspace-id': ws.id })).mcpSource.enabled, false);
      await row.getByRole('button', { name: 'Enable: Acme docs' }).click();
      await toast('Acme docs enabled');
      await row.getByText('Disabled', { exact: true }).waitFor({ state: 'detached' });
      t.equal((await api(`/mcp-sources/${created.id}`, { ...owner.headers, 'x-workspace-id': ws.id })).mcpSource.enabled, true);

      await row.getByRole('button', { name: 'Remove: Acme docs' }).click();
      await toast('Acme docs removed');
      await section.getByText('No MCP source.').waitFor();
      t.same((await api('/mcp-sources', { ...owner.headers, 'x-workspace-id': ws.id })).mcpSources, [], 'the API lists none');
      t.same(
        browser.problems.filter((p) => !/401|Failed to load resource/.test(p)),
        [],
        'no script error in the page',
      );
    });
  });
