import path from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { NetworkGuard } from './ssrf.js';

/**
 * A thin wrapper over the MCP SDK client (docs/mcp-sources.md): connects over
 * Streamable HTTP (through the network guard) or stdio (a child process, only when the
 * stdio policy allows the command), and exposes what a sync needs: server info,
 * resources (all pages), reading one resource, tools.
 */

export type McpConnectionSpec =
  | { transport: 'http'; url: string; headers: Record<string, string> }
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string> };

export interface StdioPolicy {
  /** MCP_STDIO_ENABLED: stdio sources may be registered and run at all. */
  enabled: boolean;
  /** MCP_STDIO_COMMANDS: when non-empty, the only commands (exact strings) allowed. */
  allowedCommands: string[];
  /** Working directory of the child processes. */
  cwd: string;
}

export interface McpClientOptions {
  guard: NetworkGuard;
  stdio: StdioPolicy;
  /** Per request (connect, list, read) timeout. */
  timeoutMs: number;
  /** Most bytes of one stdio message (the SDK's read buffer). */
  maxMessageBytes: number;
}

export interface McpServerInfo {
  name: string;
  version: string;
  title?: string;
  protocolVersion?: string;
  instructions?: string;
  capabilities: { resources: boolean; tools: boolean; prompts: boolean };
}

export interface McpResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  /** `annotations.lastModified` when the server gives it (used as the resource version). */
  lastModified?: string;
}

export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
}

export interface McpResourceContent {
  uri: string;
  mimeType?: string;
  /** Text contents, or the decoded bytes of a blob. */
  text?: string;
  bytes?: Buffer;
}

/** A failure to reach or talk to an MCP server, with a message safe to show (no secrets). */
export class McpError extends Error {
  constructor(
    message: string,
    public readonly code: 'MCP_CONNECTION_FAILED' | 'MCP_PROTOCOL_ERROR' | 'MCP_TIMEOUT' | 'MCP_NOT_ALLOWED' | 'MCP_RESPONSE_TOO_LARGE',
  ) {
    super(message);
    this.name = 'McpError';
  }
}

export interface McpSession {
  readonly server: McpServerInfo;
  listResources(max: number): Promise<{ resources: McpResourceInfo[]; truncated: boolean }>;
  readResource(uri: string): Promise<McpResourceContent[]>;
  listTools(max: number): Promise<McpToolInfo[]>;
  close(): Promise<void>;
}

/** Refuses a stdio command the policy does not allow; returns a reason or null. */
export function stdioRefusal(policy: StdioPolicy, command: string): string | null {
  if (!policy.enabled) return 'stdio MCP sources are disabled on this server (MCP_STDIO_ENABLED=false)';
  if (policy.allowedCommands.length && !policy.allowedCommands.includes(command)) {
    return `command ${command} is not in the allowed stdio commands (MCP_STDIO_COMMANDS)`;
  }
  return null;
}

function describe(err: unknown, spec: McpConnectionSpec): string {
  const raw = err instanceof Error ? err.message : String(err);
  // Never echo header or environment values back (they are secrets).
  let msg = raw;
  const secrets = spec.transport === 'http' ? Object.values(spec.headers) : Object.values(spec.env);
  for (const s of secrets) if (s.length >= 4) msg = msg.split(s).join('***');
  return msg.length > 500 ? `${msg.slice(0, 500)}...` : msg;
}

function classify(err: unknown): McpError['code'] {
  const msg = err instanceof Error ? err.message : String(err);
  if (/timed? ?out|RequestTimeout|-32001/i.test(msg)) return 'MCP_TIMEOUT';
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ENOENT|EACCES|fetch failed|socket|spawn|closed|Connection/i.test(msg)) return 'MCP_CONNECTION_FAILED';
  return 'MCP_PROTOCOL_ERROR';
}

function toError(err: unknown, spec: McpConnectionSpec, what: string): McpError {
  if (err instanceof McpError) return err;
  const cause = (err as { cause?: unknown })?.cause;
  const detail =
    describe(err, spec) + (cause instanceof Error && cause.message && !describe(err, spec).includes(cause.message) ? ` (${describe(cause, spec)})` : '');
  return new McpError(`${what}: ${detail}`, classify(`${detail}`));
}

/** A dropped connection (e.g. a keep-alive socket the server closed meanwhile) is worth one more try of an idempotent request. */
const TRANSIENT = /ECONNRESET|EPIPE|socket hang up|other side closed|UND_ERR_SOCKET/i;

async function retryOnce<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const text = `${(e as Error)?.message ?? ''} ${(e as { cause?: Error })?.cause?.message ?? ''} ${(e as { cause?: { code?: string } })?.cause?.code ?? ''}`;
    if (!TRANSIENT.test(text)) throw e;
    await new Promise((r) => setTimeout(r, 100));
    return fn();
  }
}

export interface McpClient {
  connect(spec: McpConnectionSpec): Promise<McpSession>;
}

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export const responseTooLarge = (maxBytes: number) => new McpError(`the MCP server's response is larger than ${maxBytes} bytes`, 'MCP_RESPONSE_TOO_LARGE');

/**
 * A fetch whose response bodies are limited to `maxBytes` (the SDK reads a JSON response
 * whole): a declared Content-Length above it is refused before reading, and a body that
 * grows past it (chunked, or a server-sent event stream) is cut off. `onTooLarge` hears
 * of it, so that the request waiting for that body fails at once rather than at its
 * timeout (the SDK only reports a broken event stream to `onerror`).
 */
export function cappedFetch(inner: FetchLike, maxBytes: number, onTooLarge: (err: McpError) => void): FetchLike {
  return async (url, init) => {
    const res = await inner(url, init);
    const declared = Number(res.headers.get('content-length') ?? '');
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body?.cancel().catch(() => {});
      const err = responseTooLarge(maxBytes);
      onTooLarge(err);
      throw err;
    }
    if (!res.body) return res;
    let seen = 0;
    const limited = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctl) {
          seen += chunk.byteLength;
          if (seen <= maxBytes) return ctl.enqueue(chunk);
          const err = responseTooLarge(maxBytes);
          onTooLarge(err);
          ctl.error(err);
        },
      }),
    );
    return new Response(limited, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** The SDK's client and transports, loaded with the first connection (not at start). */
const sdk = {
  client: () => import('@modelcontextprotocol/sdk/client/index.js'),
  http: () => import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  stdio: () => import('@modelcontextprotocol/sdk/client/stdio.js'),
};

export function createMcpClient(opts: McpClientOptions): McpClient {
  const { guard, stdio, timeoutMs } = opts;
  const requestOpts = { timeout: timeoutMs };

  async function makeTransport(spec: McpConnectionSpec, onTooLarge: (err: McpError) => void): Promise<Transport> {
    if (spec.transport === 'http') {
      let url: URL;
      try {
        url = await guard.checkUrl(spec.url);
      } catch (e) {
        throw new McpError(`url ${(e as Error).message}`, 'MCP_NOT_ALLOWED');
      }
      const { StreamableHTTPClientTransport } = await sdk.http();
      return new StreamableHTTPClientTransport(url, {
        requestInit: { headers: spec.headers },
        fetch: cappedFetch(guard.fetch, opts.maxMessageBytes, onTooLarge),
        reconnectionOptions: { maxReconnectionDelay: 1000, initialReconnectionDelay: 200, reconnectionDelayGrowFactor: 1.5, maxRetries: 0 },
      });
    }
    const refusal = stdioRefusal(stdio, spec.command);
    if (refusal) throw new McpError(refusal, 'MCP_NOT_ALLOWED');
    const { getDefaultEnvironment, StdioClientTransport } = await sdk.stdio();
    return new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      // Only the SDK's safe defaults (PATH, HOME...) plus the source's own variables:
      // the service's environment (database URL, keys) never reaches the child.
      env: { ...getDefaultEnvironment(), ...spec.env },
      cwd: path.resolve(stdio.cwd),
      stderr: 'ignore',
      maxBufferSize: opts.maxMessageBytes,
    });
  }

  return {
    async connect(spec) {
      // One request at a time per session: an oversized response aborts the request under
      // way. A signal of its own per request (the SDK leaves its listener on the signal).
      let current = new AbortController();
      const transport = await makeTransport(spec, (err) => current.abort(err));
      const reqOpts = () => {
        current = new AbortController();
        return { ...requestOpts, signal: current.signal };
      };
      const { Client } = await sdk.client();
      const client = new Client({ name: 'dora-vendor-service', version: '1.0.0' }, { capabilities: {} });
      try {
        await client.connect(transport, reqOpts());
      } catch (e) {
        await client.close().catch(() => {});
        throw toError(e, spec, 'could not connect to the MCP server');
      }
      const version = client.getServerVersion();
      const caps = client.getServerCapabilities() ?? {};
      const server: McpServerInfo = {
        name: version?.name ?? 'unknown',
        version: version?.version ?? 'unknown',
        ...(version?.title ? { title: version.title } : {}),
        ...((transport as { protocolVersion?: string }).protocolVersion
          ? { protocolVersion: (transport as { protocolVersion?: string }).protocolVersion }
          : {}),
        ...(client.getInstructions() ? { instructions: client.getInstructions()!.slice(0, 2000) } : {}),
        capabilities: { resources: !!caps.resources, tools: !!caps.tools, prompts: !!caps.prompts },
      };
      return {
        server,
        async listResources(max) {
          if (!server.capabilities.resources) return { resources: [], truncated: false };
          const out: McpResourceInfo[] = [];
          let cursor: string | undefined;
          const seen = new Set<string>();
          try {
            do {
              const page = await retryOnce(() => client.listResources(cursor ? { cursor } : {}, reqOpts()));
              for (const r of page.resources) {
                if (seen.has(r.uri)) continue;
                seen.add(r.uri);
                if (out.length >= max) return { resources: out, truncated: true };
                const lastModified = (r.annotations as { lastModified?: unknown } | undefined)?.lastModified;
                out.push({
                  uri: r.uri,
                  name: r.name,
                  ...(r.title ? { title: r.title } : {}),
                  ...(r.description ? { description: r.description } : {}),
                  ...(r.mimeType ? { mimeType: r.mimeType } : {}),
                  ...(typeof r.size === 'number' ? { size: r.size } : {}),
                  ...(typeof lastModified === 'string' ? { lastModified } : {}),
                });
              }
              cursor = page.nextCursor;
            } while (cursor);
          } catch (e) {
            throw toError(e, spec, 'listing resources failed');
          }
          return { resources: out, truncated: false };
        },
        async readResource(uri) {
          try {
            const res = await retryOnce(() => client.readResource({ uri }, reqOpts()));
            return res.contents.map((c) => {
              const base = { uri: c.uri, ...(c.mimeType ? { mimeType: c.mimeType } : {}) };
              if ('text' in c && typeof c.text === 'string') return { ...base, text: c.text };
              if ('blob' in c && typeof c.blob === 'string') return { ...base, bytes: Buffer.from(c.blob, 'base64') };
              return base;
            });
          } catch (e) {
            throw toError(e, spec, `reading ${uri} failed`);
          }
        },
        async listTools(max) {
          if (!server.capabilities.tools) return [];
          const out: McpToolInfo[] = [];
          let cursor: string | undefined;
          try {
            do {
              const page = await retryOnce(() => client.listTools(cursor ? { cursor } : {}, reqOpts()));
              for (const t of page.tools) {
                if (out.length >= max) return out;
                out.push({ name: t.name, ...(t.title ? { title: t.title } : {}), ...(t.description ? { description: t.description.slice(0, 1000) } : {}) });
              }
              cursor = page.nextCursor;
            } while (cursor);
          } catch (e) {
            throw toError(e, spec, 'listing tools failed');
          }
          return out;
        },
        async close() {
          await client.close().catch(() => {});
        },
      };
    },
  };
}
