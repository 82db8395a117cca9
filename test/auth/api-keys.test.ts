import { eq } from 'drizzle-orm';
import t from 'tap';
import { apiKeys, queryLog } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/lib/ids.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { createTextSource } from '../helpers/dataSources.js';
import { addOrgMember, createOrg, createWorkspace } from '../helpers/workspaces.js';

/** Organization API keys for systems (docs/api-keys.md), on both databases. */
t.test('organization API keys', async (t) => {
  const lines: string[] = [];
  const ctx = await buildTestApp({ logLevel: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
  t.teardown(ctx.close);
  const { app, database } = ctx;
  const admin = await registerUser(app, { name: 'Org Admin' });
  const orgId = await createOrg(app, admin, 'Key Bank');
  const analyst = await addOrgMember(app, admin, orgId, 'analyst', { name: 'Analyst' });
  const ws = await createWorkspace(app, admin, 'Okta');
  const other = await createWorkspace(app, admin, 'Slack');
  const url = `/api/v1/organizations/${orgId}/api-keys`;
  const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const create = (who: { headers: Record<string, string> }, payload: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url,
      headers: who.headers,
      payload: { name: 'GRC nightly', expiresAt, workspaces: [ws.id], permissions: { canQuery: true }, ...payload },
    });

  let key = '';
  let keyId = '';
  t.test('an org_admin creates a key, shown once and stored hashed', async (t) => {
    const res = await create(admin, { permissions: { canQuery: true, canViewSources: true, canManageSync: true } });
    t.equal(res.statusCode, 201, res.body);
    const data = res.json().data;
    key = data.key;
    keyId = data.apiKey.id;
    t.match(key, /^dora_sk_[A-Za-z0-9_-]{43}$/, 'a recognisable prefix and 32 random bytes');
    t.equal(data.apiKey.prefix, key.slice(0, 14));
    t.same(
      data.apiKey.workspaces.map((w: { id: string }) => w.id),
      [ws.id],
    );
    t.match(data.apiKey, { status: 'active', lastUsedAt: null, permissions: { canQuery: true, canManageSync: true, canInvite: false } });
    const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    t.equal(row.keyHash, sha256(key), 'SHA-256 of the key');
    t.notOk(JSON.stringify(row).includes(key.slice(8)), 'the secret itself is not stored');
    const list = await app.inject({ method: 'GET', url, headers: admin.headers });
    t.equal(list.statusCode, 200);
    t.notOk(list.body.includes(key.slice(14)), 'the list never shows the key again');
    t.equal(list.json().data.pagination.total, 1);
  });

  t.test('only an org_admin, never more than the admin holds, only the key flags', async (t) => {
    const byAnalyst = await create(analyst, {});
    t.equal(byAnalyst.statusCode, 403);
    t.equal((await app.inject({ method: 'GET', url, headers: analyst.headers })).statusCode, 403);
    const stranger = await registerUser(app);
    await createOrg(app, stranger, 'Other Bank');
    const foreign = await create(stranger, {});
    t.equal(foreign.statusCode, 404, 'another organization is not found');
    const theirs = await createWorkspace(app, stranger, 'Theirs');
    const notMine = await create(admin, { workspaces: [theirs.id] });
    t.equal(notMine.statusCode, 400, 'a workspace of another organization');
    t.match(notMine.json().error.details, [/^workspaces\.0:/]);
    const invite = await create(admin, { permissions: { canInvite: true } });
    t.equal(invite.statusCode, 400);
    t.match(invite.json().error.details, [/^permissions\.canInvite: an API key may hold only/, /^permissions: at least one/]);
    const past = await create(admin, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    t.equal(past.statusCode, 400);
    const far = await create(admin, { expiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString() });
    t.equal(far.statusCode, 400);
    t.match(far.json().error.details, [/^expiresAt: must be within 366 days/]);
  });

  t.test('a key works in its workspace, is refused elsewhere and on non-workspace routes', async (t) => {
    const bearer = { authorization: `Bearer ${key}` };
    await createTextSource(app, { ...admin.headers, 'x-workspace-id': ws.id }, [{ title: 'Policy', content: 'Incidents are reported within 24 hours.' }]);
    const asked = await app.inject({
      method: 'POST',
      url: '/api/v1/rag',
      headers: { ...bearer, 'x-workspace-id': ws.id },
      payload: { question: 'Incident reporting by key?' },
    });
    t.equal(asked.statusCode, 200, asked.body);
    const elsewhere = await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: { ...bearer, 'x-workspace-id': other.id } });
    t.equal(elsewhere.statusCode, 403);
    t.equal(elsewhere.json().error.code, 'WORKSPACE_ACCESS_DENIED');
    for (const [method, path] of [
      ['GET', '/api/v1/auth/me'],
      ['GET', '/api/v1/workspaces'],
      ['GET', '/api/v1/organizations/me'],
      ['GET', url],
      ['POST', '/api/v1/workspaces'],
    ] as const) {
      const res = await app.inject({ method, url: path, headers: bearer, ...(method === 'POST' ? { payload: { workspaceName: 'By key' } } : {}) });
      t.equal(res.statusCode, 403, `${method} ${path}`);
      t.equal(res.json().error.code, 'API_KEY_NOT_ALLOWED');
    }
    const rename = await app.inject({ method: 'PATCH', url: `/api/v1/workspaces/${ws.id}`, headers: bearer, payload: { workspaceName: 'Renamed' } });
    t.equal(rename.statusCode, 403, 'a key never changes the workspace itself');

    // Attributed to the key: the query log and every log line of its requests.
    await app.services.analytics.settled();
    const [row] = await database.db.select().from(queryLog).where(eq(queryLog.question, 'Incident reporting by key?'));
    t.equal(row.apiKeyId, keyId);
    t.equal(row.userId, admin.id, 'acting for the admin who created it');
    const listed = await app.inject({ method: 'GET', url: '/api/v1/analytics/queries', headers: { ...admin.headers, 'x-workspace-id': ws.id } });
    t.equal(listed.json().data.queries.find((q: { question: string }) => q.question === 'Incident reporting by key?')?.apiKeyId, keyId);
    const completed = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed' && l.apiKeyId === keyId);
    t.ok(completed.length >= 3, `the key's requests are logged with apiKeyId (${completed.length})`);
    t.notOk(
      lines.some((l) => l.includes(key)),
      'the key itself is never logged',
    );
    await app.services.apiKeys.settled();
    const after = await app.inject({ method: 'GET', url, headers: admin.headers });
    t.ok(after.json().data.apiKeys[0].lastUsedAt, 'the list shows the last use');
  });

  t.test('a key has rate limits of its own', async (t) => {
    const base = testConfig();
    const limited = await buildTestApp({ rateLimits: { ...base.rateLimits, enabled: true, general: { max: 8, windowMs: 60_000 } } }, { seed: false });
    t.teardown(limited.close);
    const a = await registerUser(limited.app);
    const org = await createOrg(limited.app, a, 'Limited Bank');
    const w = await createWorkspace(limited.app, a, 'Okta');
    const made = await limited.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${org}/api-keys`,
      headers: a.headers,
      payload: { name: 'SIEM', expiresAt, workspaces: [w.id], permissions: { canQuery: true } },
    });
    const fresh = made.json().data.key as string;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push(
        (await limited.app.inject({ method: 'GET', url: '/api/v1/conversations', headers: { authorization: `Bearer ${fresh}`, 'x-workspace-id': w.id } }))
          .statusCode,
      );
    t.same(statuses, [200, 200, 200, 200, 200, 200, 200, 200, 429, 429], 'the general limit (8 a minute here) counted for the key');
    const mine = await limited.app.inject({ method: 'GET', url: '/api/v1/conversations', headers: { ...a.headers, 'x-workspace-id': w.id } });
    t.equal(mine.statusCode, 200, "the admin's own budget is untouched by the key");
  });

  t.test('a revoked key is refused at once; an expired key too', async (t) => {
    const res = await app.inject({ method: 'DELETE', url: `${url}/${keyId}`, headers: admin.headers });
    t.equal(res.statusCode, 200);
    const refused = await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: { authorization: `Bearer ${key}`, 'x-workspace-id': ws.id } });
    t.equal(refused.statusCode, 401);
    t.equal((await app.inject({ method: 'DELETE', url: `${url}/00000000-0000-4000-8000-000000000000`, headers: admin.headers })).statusCode, 404);
    const listed = (await app.inject({ method: 'GET', url, headers: admin.headers })).json().data.apiKeys;
    t.equal(listed.find((k: { id: string }) => k.id === keyId).status, 'revoked');
    const soon = (await create(admin, {})).json().data;
    await database.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, soon.apiKey.id));
    const expired = await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: { authorization: `Bearer ${soon.key}`, 'x-workspace-id': ws.id } });
    t.equal(expired.statusCode, 401);
    const forged = await app.inject({
      method: 'GET',
      url: '/api/v1/data-sources',
      headers: { authorization: `Bearer dora_sk_${'A'.repeat(43)}`, 'x-workspace-id': ws.id },
    });
    t.equal(forged.statusCode, 401);
  });
});
