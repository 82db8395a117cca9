/**
 * The logger a service, store or job is given: the subset of pino's logger (Fastify's
 * `app.log`) that the code uses. `info` and `debug` are optional so that a test can pass
 * a logger that only records errors and warnings. Imports nothing.
 */
export interface Log {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  info?(obj: unknown, msg?: string): void;
  debug?(obj: unknown, msg?: string): void;
}
