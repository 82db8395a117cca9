import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { fileTooLarge } from '../ingest/errors.js';
import { AppError, badRequest } from '../lib/errors.js';
import { badStringProblem } from '../lib/hygiene.js';

/** One uploaded file, read whole (within the size limit). */
export interface UploadedFile {
  filename: string;
  /** Content type the client declared (informational: the content is sniffed). */
  declaredType: string | null;
  content: Buffer;
}

export interface MultipartLimits {
  maxFileBytes: number;
  maxFiles: number;
}

/** Text fields a route accepts, with their maximum length (after trimming); others are ignored. `repeated` fields are collected in `lists`. */
export type FieldRules = Record<string, { maxLength: number; repeated?: boolean }>;

/**
 * Reads a `multipart/form-data` upload: every file part (any field name) and the text
 * fields named in `fields`. The one reader of every upload route (data sources,
 * assessments), so that they share limits and error codes (docs/api-conventions.md):
 * a file over the size limit 413 `PAYLOAD_TOO_LARGE` naming it; too many files or parts,
 * a malformed or truncated body, a field too long, NUL or unpaired surrogates in a field
 * or file name: 400 `VALIDATION_ERROR` naming the field.
 */
export async function readMultipart(
  request: FastifyRequest,
  limits: MultipartLimits,
  fields: FieldRules,
  what = 'upload',
): Promise<{ files: UploadedFile[]; fields: Record<string, string | undefined>; lists: Record<string, string[] | undefined> }> {
  const files: UploadedFile[] = [];
  const values: Record<string, string | undefined> = {};
  const lists: Record<string, string[] | undefined> = {};
  const names = Object.keys(fields);
  // Repeated fields may name up to one entry per file.
  const maxFields = names.length + 10 + (names.some((n) => fields[n]!.repeated) ? limits.maxFiles * 10 : 0);
  try {
    for await (const part of request.parts({
      limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: maxFields, fieldSize: 10_000, parts: limits.maxFiles + maxFields },
    })) {
      if (part.type === 'file') {
        const filename = part.filename || `file-${files.length + 1}`;
        const problem = badStringProblem(filename);
        if (problem) {
          part.file.resume();
          throw badRequest(`files.${files.length}.filename: ${problem}`, [`files.${files.length}.filename: ${problem}`]);
        }
        let content: Buffer;
        try {
          content = await part.toBuffer();
        } catch (err) {
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(filename, limits.maxFileBytes);
          throw err;
        }
        files.push({ filename, declaredType: part.mimetype || null, content });
      } else if (names.includes(part.fieldname)) {
        const value = String(part.value ?? '');
        const problem = badStringProblem(value);
        if (problem) throw badRequest(`${part.fieldname}: ${problem}`, [`${part.fieldname}: ${problem}`]);
        if (fields[part.fieldname]!.repeated) (lists[part.fieldname] ??= []).push(value.trim());
        else values[part.fieldname] = value.trim();
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(files.length ? `#${files.length + 1}` : 'the file', limits.maxFileBytes);
    if (code === 'FST_FILES_LIMIT') throw badRequest(`at most ${limits.maxFiles} files per ${what}`, [`files: at most ${limits.maxFiles}`]);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badRequest('too many form fields', ['body: too many parts']);
    // Anything else while reading the body (no boundary, truncated, closed early) is the client's.
    const reason = ((err as Error)?.message ?? 'unreadable').slice(0, 200);
    throw badRequest(`malformed multipart body (${reason})`, [`body: malformed multipart/form-data (${reason})`]);
  }
  for (const [name, rule] of Object.entries(fields)) {
    for (const v of [values[name], ...(lists[name] ?? [])]) {
      if (v !== undefined && v.length > rule.maxLength) {
        throw badRequest(`${name} must have at most ${rule.maxLength} characters`, [`${name}: must NOT have more than ${rule.maxLength} characters`]);
      }
    }
  }
  return { files, fields: values, lists };
}

/** Registers the multipart parser once for the whole API; routes read uploads with `readMultipart`. */
export default fp<MultipartLimits>(
  async function multipartPlugin(app: FastifyInstance, limits) {
    await app.register(multipart, { limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles }, throwFileSizeLimit: true });
  },
  { name: 'multipart' },
);
