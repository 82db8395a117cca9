import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from '../lib/errors.js';
import { type ApiKeyIdentity, apiKeyNotAllowed, isApiKey } from '../lib/requestAccess.js';

export interface AuthUser {
  id: string;
  email: string;
  name: string;
  role: string;
  status: string;
}

export interface AccessTokenPayload {
  sub: string;
  typ: 'access';
  iat?: number;
  exp?: number;
}

/** Clock difference tolerated between the instance that signed a token and the one that reads it (s). */
export const TOKEN_CLOCK_SKEW_SEC = 60;

/**
 * An access token's lifetime is the service's, whatever the token says: issued (`iat`)
 * no more than `ttlSec` ago and not in the future, expiring (`exp`) no later than
 * `ttlSec` after issue. A token signed with the secret but with a 10-year `exp`, or
 * without `iat`, is refused (docs/auth.md).
 */
export function lifetimeAcceptable(payload: { iat?: unknown; exp?: unknown }, ttlSec: number, nowSec = Date.now() / 1000): boolean {
  const { iat, exp } = payload;
  if (typeof iat !== 'number' || typeof exp !== 'number' || !Number.isFinite(iat) || !Number.isFinite(exp)) return false;
  if (iat > nowSec + TOKEN_CLOCK_SKEW_SEC) return false;
  if (nowSec - iat > ttlSec + TOKEN_CLOCK_SKEW_SEC) return false;
  if (exp - iat > ttlSec) return false;
  return exp <= nowSec + ttlSec + TOKEN_CLOCK_SKEW_SEC;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** User id from a verified access token (set before rate limiting; no database read). */
    tokenUserId: string | null;
    /** Expiry of that access token (ms since the epoch), for long-lived responses (SSE). */
    tokenExpiresAt: number | null;
    /** The authenticated, active user (set on routes that require authentication); with an API key, the admin who created it. */
    auth: AuthUser | null;
    /** The organization API key the request came with (docs/api-keys.md), else null. */
    apiKey: ApiKeyIdentity | null;
  }
  interface FastifyInstance {
    identify(request: FastifyRequest): Promise<void>;
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    issueAccessToken(userId: string): string;
  }
}

export interface AuthPluginOptions {
  secret: string;
  accessTokenTtlSec: number;
  /** Loads an active user by id, or null. */
  loadUser(id: string): Promise<AuthUser | null>;
  /** Loads a valid (unrevoked, unexpired) organization API key by its secret, or null. */
  loadApiKey?(secret: string): Promise<ApiKeyIdentity | null>;
}

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(h);
  return m ? m[1].trim() : undefined;
}

/**
 * Authentication: the access token (HS256 JWT, `exp` required) comes from the
 * `Authorization: Bearer` header or the `accessToken` cookie; the first that verifies wins.
 */
export default fp<AuthPluginOptions>(
  async function authPlugin(app: FastifyInstance, opts) {
    await app.register(cookie);
    await app.register(jwt, {
      secret: opts.secret,
      sign: { algorithm: 'HS256', expiresIn: opts.accessTokenTtlSec },
      // A token without an expiry or an issue time is refused: none is ever issued, and one would never die.
      verify: { algorithms: ['HS256'], requiredClaims: ['exp', 'iat', 'sub'] },
    });
    app.decorateRequest('tokenUserId', null);
    app.decorateRequest('tokenExpiresAt', null);
    app.decorateRequest('auth', null);
    app.decorateRequest('apiKey', null);

    app.decorate('issueAccessToken', (userId: string) => app.jwt.sign({ sub: userId, typ: 'access' } satisfies AccessTokenPayload));

    // The first token that verifies identifies the caller: the Bearer header (explicit, per
    // request), then the cookie; a stale cookie beside a valid Bearer token does not matter.
    app.decorate('identify', async (request: FastifyRequest) => {
      const given = bearer(request);
      if (given && isApiKey(given)) {
        // An organization API key: looked up on every request (a revoked key is refused at
        // once); it identifies its creator, within the key's own workspaces and flags. A
        // database error here is a 503, not a verdict on the key.
        const key = opts.loadApiKey ? await opts.loadApiKey(given) : null;
        if (key) {
          request.apiKey = key;
          request.tokenUserId = key.userId;
          // Every log line of the request names the key (docs/api-keys.md).
          request.log = request.log.child({ apiKeyId: key.id });
        }
        return;
      }
      for (const token of [given, request.cookies?.accessToken]) {
        if (!token) continue;
        try {
          const payload = app.jwt.verify<AccessTokenPayload>(token);
          if (
            payload.typ === 'access' &&
            typeof payload.sub === 'string' &&
            typeof payload.exp === 'number' &&
            lifetimeAcceptable(payload, opts.accessTokenTtlSec)
          ) {
            request.tokenUserId = payload.sub;
            request.tokenExpiresAt = payload.exp * 1000;
            return;
          }
        } catch {
          // An invalid or expired token identifies nobody; protected routes answer 401.
        }
      }
    });

    app.decorate('authenticate', async (request: FastifyRequest) => {
      if (!request.tokenUserId) throw unauthorized();
      const user = await opts.loadUser(request.tokenUserId);
      if (!user || user.status !== 'active') throw unauthorized();
      // A key calls the workspace endpoints it was made for, nothing about people or organizations.
      const cfg = request.routeOptions.config as { workspace?: boolean; permission?: string } | undefined;
      if (request.apiKey && !cfg?.workspace && !cfg?.permission) throw apiKeyNotAllowed();
      request.auth = user;
    });
  },
  { name: 'auth' },
);
