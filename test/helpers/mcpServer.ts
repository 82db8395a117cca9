import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/**
 * Real MCP servers for tests, built with the SDK's McpServer: one over Streamable HTTP
 * on 127.0.0.1 (in this process), one over stdio (test/fixtures/mcp-stdio-server.ts,
 * spawned by the service under test with `node --import=tsx`).
 */

export interface FixtureResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  text: string;
  lastModified?: string;
}

export const DEFAULT_RESOURCES: FixtureResource[] = [
  {
    uri: 'docs://acme-cloud/incident-response.md',
    name: 'incident-response',
    title: 'Acme Cloud Incident Response Policy',
    mimeType: 'text/markdown',
    text: [
      '# Acme Cloud Incident Response Policy',
      '',
      '## Notification of customers',
      '',
      'Acme Cloud notifies affected customers of a major security incident within 6 hours of detection through the Zephyrine status channel.',
      'The incident commander on duty is reachable at the Quokka escalation desk around the clock.',
      '',
      '## Post-incident review',
      '',
      'Every major incident receives a written root-cause analysis within 10 business days.',
    ].join('\n'),
  },
  {
    uri: 'docs://acme-cloud/data-residency.txt',
    name: 'data-residency',
    title: 'Acme Cloud Data Residency Statement',
    mimeType: 'text/plain',
    text: 'Customer data of European customers is stored exclusively in the Frankfurt and Dublin regions. Backups are encrypted with AES-256 and retained for 35 days.',
  },
];

/** Builds an McpServer exposing `resources` (read at request time, so tests may change them) and one tool. */
export function buildMcpServer(resources: () => FixtureResource[], name = 'acme-docs-fixture'): McpServer {
  const server = new McpServer({ name, version: '1.2.3', title: 'Acme Docs (test fixture)' }, { capabilities: { resources: {}, tools: {} } });
  for (const r of resources()) {
    server.registerResource(
      r.name,
      r.uri,
      {
        ...(r.title ? { title: r.title } : {}),
        ...(r.description ? { description: r.description } : {}),
        ...(r.mimeType ? { mimeType: r.mimeType } : {}),
        ...(r.lastModified ? { annotations: { lastModified: r.lastModified } } : {}),
      },
      async (uri) => {
        const current = resources().find((x) => x.uri === uri.href);
        if (!current) throw new Error(`Resource not found: ${uri.href}`);
        return { contents: [{ uri: uri.href, ...(current.mimeType ? { mimeType: current.mimeType } : {}), text: current.text }] };
      },
    );
  }
  server.registerTool(
    'search_docs',
    { title: 'Search docs', description: 'Searches the Acme documents', inputSchema: { query: z.string() } },
    async ({ query }) => ({
      content: [{ type: 'text', text: `no results for ${query}` }],
    }),
  );
  return server;
}

export interface HttpMcpFixture {
  url: string;
  /** The current resources; replace or edit between syncs. */
  resources: FixtureResource[];
  /** Headers of every request received (lower-case names). */
  requests: Array<Record<string, string | string[] | undefined>>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/**
 * A stateless Streamable HTTP MCP server on 127.0.0.1:<random port> at `/mcp`. When
 * `requireBearer` is set, requests without `Authorization: Bearer <it>` get 401. Responses
 * are JSON (with a Content-Length), or server-sent event streams with `sse`.
 */
export async function startHttpMcpServer(opts: { resources?: FixtureResource[]; requireBearer?: string; sse?: boolean } = {}): Promise<HttpMcpFixture> {
  const fixture = {
    resources: structuredClone(opts.resources ?? DEFAULT_RESOURCES),
    requests: [] as HttpMcpFixture['requests'],
  };
  const http: Server = createServer(async (req, res) => {
    fixture.requests.push({ ...req.headers });
    try {
      if (!req.url?.startsWith('/mcp')) {
        res.writeHead(404).end();
        return;
      }
      if (opts.requireBearer && req.headers.authorization !== `Bearer ${opts.requireBearer}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
        return;
      }
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const body = await readBody(req);
      const server = buildMcpServer(() => fixture.resources);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !opts.sse });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get resources() {
      return fixture.resources;
    },
    set resources(v: FixtureResource[]) {
      fixture.resources = v;
    },
    requests: fixture.requests,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The stdio fixture script. */
export const STDIO_SERVER_SCRIPT = path.resolve(here, '../fixtures/mcp-stdio-server.ts');

/**
 * The command and arguments that spawn the stdio fixture server. It serves the
 * resources of the JSON file named by the env variable `MCP_FIXTURE_RESOURCES` (read
 * on every request, so a test can rewrite the file between syncs), else DEFAULT_RESOURCES.
 */
export function stdioServerCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--import=tsx', STDIO_SERVER_SCRIPT] };
}

/**
 * Polls GET /mcp-sources/:id until its latest sync (or the run `runId`) has finished
 * (`succeeded`, `partial` or `failed`); returns that run. Throws after `timeoutMs`.
 */
export async function waitForMcpSync(
  app: { inject: (opts: { method: 'GET'; url: string; headers: Record<string, string> }) => Promise<{ statusCode: number; body: string; json(): any }> },
  headers: Record<string, string>,
  sourceId: string,
  opts: { runId?: string; timeoutMs?: number } = {},
) {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/api/v1/mcp-sources/${sourceId}`, headers });
    if (res.statusCode !== 200) throw new Error(`GET mcp source ${sourceId}: ${res.statusCode} ${res.body}`);
    const last = res.json().data.mcpSource.lastSync;
    if (last && (!opts.runId || last.id === opts.runId) && ['succeeded', 'partial', 'failed'].includes(last.status)) return last;
    if (Date.now() > deadline) throw new Error(`sync of ${sourceId} not finished after ${opts.timeoutMs ?? 60_000} ms: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
