import { parentPort } from 'node:worker_threads';
import { AppError } from '../lib/errors.js';
import { parseFile } from './parse.js';
import type { ParseLimits } from './types.js';

/**
 * The parse worker (a worker thread of the parse pool, src/ingest/parsePool.ts). It is
 * the only place the parsers are loaded: pdfjs, mammoth and exceljs never enter the main
 * thread. One file at a time: `{ id, content, filename, declaredType, limits }` in,
 * `{ id, ok: true, parsed }` or `{ id, ok: false, error }` out.
 */
export interface ParseTask {
  id: number;
  content: Uint8Array;
  filename: string;
  declaredType: string | null;
  limits: ParseLimits;
  /** Answer without the blocks (see ParseInput.summary). */
  summary?: boolean;
}

export type ParseReply =
  | { id: number; ok: true; parsed: Awaited<ReturnType<typeof parseFile>> }
  | { id: number; ok: false; error: { statusCode?: number; code?: string; message: string; details?: string[] } };

const port = parentPort;
if (!port) throw new Error('parseWorker.ts runs as a worker thread of the parse pool');

port.on('message', async (task: ParseTask) => {
  let reply: ParseReply;
  try {
    const buf = Buffer.from(task.content.buffer, task.content.byteOffset, task.content.byteLength);
    const parsed = await parseFile(buf, task.filename, task.declaredType, task.limits);
    if (task.summary) parsed.doc = { ...parsed.doc, blocks: [] };
    reply = { id: task.id, ok: true, parsed };
  } catch (err) {
    reply =
      err instanceof AppError
        ? { id: task.id, ok: false, error: { statusCode: err.statusCode, code: err.code, message: err.message, details: err.details } }
        : { id: task.id, ok: false, error: { message: (err as Error)?.message ?? String(err) } };
  }
  port.postMessage(reply);
});
