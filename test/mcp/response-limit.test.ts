import t from 'tap';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { DEFAULT_RESOURCES, startHttpMcpServer } from '../helpers/mcpServer.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * An MCP server's HTTP responses are limited to twice MCP_MAX_RESOURCE_BYTES (at least
 * 1 MB; docs/mcp-sources.md), whether it declares a Content-Length (JSON) or streams
 * (server-sent events): an oversized resource fails alone and at once, the rest of the
 * sync goes on.
 */
const API = '/api/v1';
const LIMIT = 1024 * 1024;
const base = testConfig();
// maxResourceBytes 1000: the response limit is its floor, 1 MB. With the long request
// timeout, a read that hung until it would fail with a timeout message instead. WORKERS=0:
// the test runs the queued sync itself.
const ctx = await buildTestApp({ workers: 0, mcp: { ...base.mcp, allowPrivateNetworks: true, maxResourceBytes: 1000, timeoutMs: 600_000 } }, { seed: false });
t.teardown(ctx.close);
const { app } = ctx;
const owner = await registerUser(app);
const ws = await createOrgAndWorkspace(app, owner, 'Big Vendor');

const big = {
  uri: 'docs://acme-cloud/huge-export.txt',
  name: 'huge-export',
  title: 'Huge export',
  mimeType: 'text/plain',
  text: 'Lorem ipsum dolor sit amet. '.repeat(Math.ceil((1.5 * LIMIT) / 28)),
};

for (const sse of [false, true]) {
  t.test(`${sse ? 'an event stream' : 'a JSON response'} over the limit fails that resource only`, async (t) => {
    const fixture = await startHttpMcpServer({ resources: [...DEFAULT_RESOURCES, big], sse });
    t.teardown(fixture.close);
    const res = await app.inject({
      method: 'POST',
      url: `${API}/mcp-sources`,
      headers: ws.headers,
      payload: { name: `Docs ${sse ? 'sse' : 'json'}`, transport: 'http', url: fixture.url, sync: false },
    });
    t.equal(res.statusCode, 201, res.body);
    const sourceId = res.json().data.mcpSource.id;
    const sync = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${sourceId}/sync`, headers: ws.headers });
    t.equal(sync.statusCode, 200, sync.body);
    await app.services.mcpSources.runSync(sync.json().data.sync.id);
    const run = (await app.inject({ method: 'GET', url: `${API}/mcp-sources/${sourceId}/syncs/${sync.json().data.sync.id}`, headers: ws.headers })).json().data
      .sync;
    t.equal(run.status, 'partial');
    t.match(run.resources, { listed: 3, added: 2, failed: 1 });
    t.equal(run.errors.length, 1);
    t.equal(run.errors[0].uri, big.uri);
    t.match(run.errors[0].message, `the MCP server's response is larger than ${LIMIT} bytes`);

    const stats = (await app.inject({ method: 'GET', url: `${API}/mcp-sources/${sourceId}/stats`, headers: ws.headers })).json().data.stats;
    t.match(stats.resources, { indexed: 2, failed: 1 });
  });
}
