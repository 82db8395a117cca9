import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/documents');
export const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

export interface UploadPart {
  filename: string;
  content: Buffer | string;
  /** Content type the client declares (default application/octet-stream). */
  contentType?: string;
  /** Form field name (default `files`). */
  field?: string;
}

/** A multipart/form-data body, built by hand so that tests control every byte. */
export function multipartBody(files: UploadPart[], fields: Record<string, string> = {}) {
  const boundary = `----dora-test-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'files'}"; filename="${f.filename}"\r\nContent-Type: ${f.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    parts.push(Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POST /data-sources as a multipart upload. */
export function upload(
  app: FastifyInstance,
  headers: Record<string, string>,
  files: UploadPart[],
  fields: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const { payload, contentType } = multipartBody(files, fields);
  return app.inject({ method: 'POST', url: '/api/v1/data-sources', headers: { ...headers, 'content-type': contentType }, payload });
}

/**
 * Polls GET /data-sources/:id until the ingestion settles (`ready` or `failed`), or
 * throws after `timeoutMs`. Returns the data source.
 */
export async function waitForDataSource(
  app: FastifyInstance,
  headers: Record<string, string>,
  id: string,
  opts: { timeoutMs?: number; until?: string[] } = {},
) {
  const until = opts.until ?? ['ready', 'failed'];
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/api/v1/data-sources/${id}`, headers });
    if (res.statusCode !== 200) throw new Error(`GET data source ${id}: ${res.statusCode} ${res.body}`);
    const ds = res.json().data.dataSource;
    if (until.includes(ds.status)) return ds;
    if (Date.now() > deadline) throw new Error(`data source ${id} still ${ds.status} after ${opts.timeoutMs ?? 60_000} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Creates a data source from text documents (JSON body) and waits until it is ready. */
export async function createTextSource(
  app: FastifyInstance,
  headers: Record<string, string>,
  documents: { content: string; title?: string; format?: string; date?: string; url?: string; filename?: string }[],
  name = 'Test documents',
) {
  const res = await app.inject({ method: 'POST', url: '/api/v1/data-sources', headers, payload: { name, documents } });
  if (res.statusCode !== 201) throw new Error(`create data source failed: ${res.statusCode} ${res.body}`);
  return waitForDataSource(app, headers, res.json().data.dataSource.id);
}
