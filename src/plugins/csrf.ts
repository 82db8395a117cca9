import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Refuses a cross-site write that a browser could make with the user's cookies (docs/auth.md, "CSRF"). */
    checkCsrf(request: FastifyRequest): void;
  }
}

export interface CsrfOptions {
  /** Origins allowed besides the service's own: CORS_ORIGINS and PUBLIC_URL. */
  trustedOrigins: string[];
}

/** The header a cookie-authenticated write must carry (any non-empty value). */
export const CSRF_HEADER = 'x-requested-with';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SESSION_COOKIES = ['accessToken', 'refreshToken'];

function originOf(value: string): string | null {
  try {
    const u = new URL(value);
    return u.origin === 'null' ? null : u.origin;
  } catch {
    return null;
  }
}

/**
 * CSRF protection of the cookie session, on top of `SameSite=Strict` cookies:
 *
 * 1. A write (POST, PUT, PATCH, DELETE) whose `Origin` header names another origin than the
 *    service's own, `PUBLIC_URL` or one of `CORS_ORIGINS` (or `Origin: null`) is refused,
 *    whatever its credentials: such a page could not read the answer anyway, and this stops
 *    cross-site form posts (login CSRF included) even from a same-site sibling host.
 * 2. A write that carries a session cookie must also carry `X-Requested-With`. A page of
 *    another origin can only add that header after a CORS preflight, which only the
 *    configured origins pass; HTML forms and `no-cors` requests cannot send it at all.
 *
 * Clients that authenticate with `Authorization: Bearer` and send no cookie are not affected.
 * A refusal is 403 `CSRF_REJECTED`.
 */
export default fp<CsrfOptions>(
  async function csrfPlugin(app: FastifyInstance, opts) {
    const trusted = new Set(opts.trustedOrigins.map(originOf).filter((o): o is string => !!o));
    const refuse = (why: string) => forbidden(`Cross-site request refused: ${why}`, 'CSRF_REJECTED');

    app.decorate('checkCsrf', (request: FastifyRequest) => {
      if (SAFE_METHODS.has(request.method)) return;
      const origin = request.headers.origin;
      if (origin !== undefined) {
        const o = originOf(origin);
        const own = originOf(`${request.protocol}://${request.host}`);
        if (!o || (o !== own && !trusted.has(o))) throw refuse(`origin ${origin} is not allowed`);
      }
      const cookies = request.cookies ?? {};
      if (SESSION_COOKIES.some((c) => cookies[c]) && !request.headers[CSRF_HEADER]) {
        throw refuse('a request authenticated by the session cookie must send the X-Requested-With header');
      }
    });
  },
  { name: 'csrf' },
);
