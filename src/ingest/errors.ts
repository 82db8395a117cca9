import { AppError } from '../lib/errors.js';

/**
 * Rejections of uploaded files. All are 4xx with their own code so that a client can
 * tell a file it must fix (encrypted, corrupt, empty) from one it must not send.
 */
export const fileTooLarge = (name: string, limit: number) =>
  new AppError(413, 'PAYLOAD_TOO_LARGE', `File ${name} exceeds the upload limit of ${formatBytes(limit)}`);
export const unsupportedType = (name: string, detail: string) =>
  new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `Unsupported file type: ${name} (${detail})`, [detail]);
export const encryptedFile = (name: string) =>
  new AppError(422, 'ENCRYPTED_FILE', `File ${name} is encrypted or password-protected; upload an unprotected copy`);
export const corruptFile = (name: string, reason: string) => new AppError(422, 'CORRUPT_FILE', `File ${name} could not be read: ${reason}`, [reason]);
export const archiveBomb = (name: string, reason: string) => new AppError(422, 'ARCHIVE_LIMIT_EXCEEDED', `File ${name} was rejected: ${reason}`, [reason]);
export const emptyDocument = (name: string) => new AppError(422, 'EMPTY_DOCUMENT', `File ${name} contains no extractable text`);

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MB`;
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}
export const documentTooLarge = (name: string, reason: string) => new AppError(422, 'DOCUMENT_TOO_LARGE', `File ${name} was rejected: ${reason}`, [reason]);
