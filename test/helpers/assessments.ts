import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import yauzl from 'yauzl';
import { multipartBody, type UploadPart } from './dataSources.js';

/** The real vendor documents of data/vendor-docs/<vendor> (optionally only some files). */
export const VENDOR_DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/vendor-docs');
export function vendorDocs(vendor: 'github' | 'basecamp', only?: string[]): UploadPart[] {
  const dir = path.join(VENDOR_DOCS, vendor);
  return readdirSync(dir)
    .filter((f) => !only || only.includes(f))
    .sort()
    .map((f) => ({ filename: f, content: readFileSync(path.join(dir, f)), contentType: f.endsWith('.md') ? 'text/markdown' : 'text/plain' }));
}

/** POST /assessments as a multipart upload. */
export function createAssessment(
  app: FastifyInstance,
  headers: Record<string, string>,
  files: UploadPart[],
  fields: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const { payload, contentType } = multipartBody(files, fields);
  return app.inject({ method: 'POST', url: '/api/v1/assessments', headers: { ...headers, 'content-type': contentType }, payload });
}

/** Polls GET /assessments/:id until the analysis settles (`completed` or `failed`). */
export async function waitForAssessment(app: FastifyInstance, headers: Record<string, string>, id: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/api/v1/assessments/${id}`, headers });
    if (res.statusCode !== 200) throw new Error(`GET assessment ${id}: ${res.statusCode} ${res.body}`);
    const a = res.json().data.assessment;
    if (a.status === 'completed' || a.status === 'failed') return a;
    if (Date.now() > deadline) throw new Error(`assessment ${id} still ${a.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every entry of a zip archive (docx, xlsx, report package): path -> bytes. */
export function unzip(buf: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
          stream.on('error', reject);
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** Plain text of a .docx (the runs of word/document.xml, paragraphs on their own lines). */
export async function docxText(buf: Buffer): Promise<string> {
  const files = await unzip(buf);
  const xml = files.get('word/document.xml')?.toString('utf8');
  if (!xml) throw new Error('word/document.xml missing');
  return xml
    .replace(/<\/w:p>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'");
}
