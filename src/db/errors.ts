import { AppError } from '../lib/errors.js';

/**
 * Errors that mean "the database cannot be reached right now" rather than "this query
 * is wrong": the connection was closed or refused, the server is shutting down or
 * starting, or it has no connection slot left. Requests that meet one answer 503
 * `DATABASE_UNAVAILABLE` (docs/reliability.md), so that clients retry instead of
 * logging the user out or reporting a bug.
 */
const DRIVER_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// SQLSTATE: class 08 (connection exception), 57P01-57P03 (shutdown, crash, starting up), 53300 (too many connections).
const SQLSTATES = /^(08\w{3}|57P0[123]|53300)$/;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (DRIVER_CODES.has(code) || SOCKET_CODES.has(code) || SQLSTATES.test(code))) return true;
  }
  return false;
}

export const databaseUnavailable = () => new AppError(503, 'DATABASE_UNAVAILABLE', 'The database is unavailable; retry in a few seconds');
