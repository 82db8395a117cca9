import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { badRequest } from '../../lib/errors.js';
import { Envelope, MessageEnvelope, errorResponses, ok, okMessage } from '../../lib/envelope.js';
import { publicUser, type AuthService, type IssuedSession } from './service.js';

const Email = Type.String({ format: 'email', maxLength: 254 });
const Name = Type.String({ minLength: 2, maxLength: 100 });
const UserBrief = Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() });
const UserCreated = Type.Object({ id: Type.String(), email: Type.String(), name: Type.String(), createdAt: Type.String() });
export const UserFull = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Type.String(),
  status: Type.String(),
  emailVerified: Type.Boolean(),
  createdAt: Type.String(),
  lastLoginAt: Type.Union([Type.String(), Type.Null()]),
});
const Token = Type.String({ minLength: 10, maxLength: 200 });

export interface AuthRouteOptions {
  service: AuthService;
  cookieSecure: boolean;
  accessTokenTtlSec: number;
  refreshTokenTtlSec: number;
}

const REFRESH_PATH = '/api/v1/auth';

const routes: FastifyPluginAsyncTypebox<AuthRouteOptions> = async (app, opts) => {
  const { service } = opts;
  const base = { httpOnly: true, secure: opts.cookieSecure, sameSite: 'strict' as const };

  function setSessionCookies(reply: FastifyReply, s: IssuedSession) {
    reply.setCookie('accessToken', s.accessToken, { ...base, path: '/', maxAge: opts.accessTokenTtlSec });
    reply.setCookie('refreshToken', s.refreshToken, { ...base, path: REFRESH_PATH, maxAge: opts.refreshTokenTtlSec });
  }
  function clearSessionCookies(reply: FastifyReply) {
    reply.clearCookie('accessToken', { ...base, path: '/' });
    reply.clearCookie('refreshToken', { ...base, path: REFRESH_PATH });
  }
  const sessionData = (s: IssuedSession) => ({ accessToken: s.accessToken, expiresIn: opts.accessTokenTtlSec });

  app.post('/auth/register', {
    config: { public: true, rateLimitScope: 'register' },
    schema: {
      tags: ['auth'],
      summary: 'Create an account; sets the accessToken and refreshToken cookies',
      body: Type.Object({ email: Email, password: Type.String({ minLength: 8, maxLength: 128 }), name: Name, invitationToken: Type.Optional(Token) }, { additionalProperties: false }),
      response: { 201: Envelope(Type.Object({ user: UserCreated, accessToken: Type.String(), expiresIn: Type.Number() })), ...errorResponses },
    },
  }, async (request, reply) => {
    const session = await service.register(request.body);
    setSessionCookies(reply, session);
    const u = session.user;
    return reply.status(201).send(ok({ user: { id: u.id, email: u.email, name: u.name, createdAt: u.createdAt.toISOString() }, ...sessionData(session) }, 'Registration successful'));
  });

  app.post('/auth/login', {
    config: { public: true, rateLimitScope: 'login' },
    schema: {
      tags: ['auth'],
      summary: 'Log in; sets the accessToken and refreshToken cookies',
      body: Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 1024 }) }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ user: UserBrief, accessToken: Type.String(), expiresIn: Type.Number() })), ...errorResponses },
    },
  }, async (request, reply) => {
    const session = await service.login(request.body.email, request.body.password);
    setSessionCookies(reply, session);
    const u = session.user;
    return ok({ user: { id: u.id, email: u.email, name: u.name }, ...sessionData(session) }, 'Login successful');
  });

  app.post('/auth/logout', {
    config: { public: true },
    schema: { tags: ['auth'], summary: 'Log out; revokes the refresh token family and clears both cookies', response: { 200: MessageEnvelope } },
  }, async (request, reply) => {
    await service.logout(request.cookies.refreshToken);
    clearSessionCookies(reply);
    return okMessage('Logout successful');
  });

  app.post('/auth/refresh', {
    config: { public: true, rateLimitScope: 'refresh' },
    schema: {
      tags: ['auth'],
      summary: 'Exchange the refresh token (cookie, or body field) for a new access token; the refresh token is rotated',
      body: Type.Object({ refreshToken: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ accessToken: Type.String(), expiresIn: Type.Number() })), ...errorResponses },
    },
  }, async (request, reply) => {
    const presented = request.cookies.refreshToken ?? request.body.refreshToken;
    try {
      const session = await service.refresh(presented);
      setSessionCookies(reply, session);
      return ok(sessionData(session), 'Token refreshed');
    } catch (err) {
      clearSessionCookies(reply);
      throw err;
    }
  });

  app.get('/auth/me', {
    schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: Envelope(Type.Object({ user: UserFull })), ...errorResponses } },
  }, async (request) => {
    const user = await service.getUser(request.auth!.id);
    return ok({ user: publicUser(user) });
  });

  app.patch('/auth/me', {
    schema: {
      tags: ['auth'],
      summary: 'Update name and/or e-mail (a new e-mail must be verified again)',
      body: Type.Object({ name: Type.Optional(Name), email: Type.Optional(Email) }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(Type.Object({ user: UserBrief })), ...errorResponses },
    },
  }, async (request) => {
    const u = await service.updateProfile(request.auth!.id, request.body);
    return ok({ user: { id: u.id, email: u.email, name: u.name } }, 'Profile updated');
  });

  app.post('/auth/change-password', {
    config: { rateLimitScope: 'auth' },
    schema: {
      tags: ['auth'],
      summary: 'Change the password; other sessions are signed out',
      body: Type.Object({ currentPassword: Type.String({ minLength: 1, maxLength: 1024 }), newPassword: Type.String({ minLength: 8, maxLength: 128 }) }, { additionalProperties: false }),
      response: { 200: MessageEnvelope, ...errorResponses },
    },
  }, async (request) => {
    const keep = await service.familyOf(request.cookies.refreshToken);
    await service.changePassword(request.auth!.id, request.body.currentPassword, request.body.newPassword, keep);
    return okMessage('Password changed successfully');
  });

  app.post('/auth/forgot-password', {
    config: { public: true, rateLimitScope: 'auth' },
    schema: {
      tags: ['auth'],
      summary: 'Send a password-reset e-mail (the answer is the same whether or not the account exists)',
      body: Type.Object({ email: Email }, { additionalProperties: false }),
      response: { 200: MessageEnvelope, ...errorResponses },
    },
  }, async (request) => {
    await service.forgotPassword(request.body.email);
    return okMessage('If an account exists for that e-mail address, a password reset link has been sent');
  });

  app.post('/auth/reset-password', {
    config: { public: true, rateLimitScope: 'auth' },
    schema: {
      tags: ['auth'],
      summary: 'Set a new password with the single-use token from the reset e-mail',
      body: Type.Object({ token: Token, newPassword: Type.String({ minLength: 8, maxLength: 128 }) }, { additionalProperties: false }),
      response: { 200: MessageEnvelope, ...errorResponses },
    },
  }, async (request) => {
    await service.resetPassword(request.body.token, request.body.newPassword);
    return okMessage('Password has been reset; please log in with the new password');
  });

  app.post('/auth/verify-email', {
    config: { public: true, rateLimitScope: 'auth' },
    schema: {
      tags: ['auth'],
      summary: 'Verify an e-mail address with the single-use token from the verification e-mail',
      body: Type.Object({ token: Token }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ user: UserFull })), ...errorResponses },
    },
  }, async (request) => {
    const user = await service.verifyEmail(request.body.token);
    return ok({ user: publicUser(user) }, 'Email verified');
  });

  app.post('/auth/resend-verification', {
    config: { public: true, rateLimitScope: 'auth' },
    schema: {
      tags: ['auth'],
      summary: 'Resend the verification link (to the signed-in user, or to the given e-mail address)',
      body: Type.Object({ email: Type.Optional(Email) }, { additionalProperties: false }),
      response: { 200: MessageEnvelope, ...errorResponses },
    },
  }, async (request) => {
    const email = request.body.email;
    if (!email && !request.tokenUserId) {
      throw badRequest('email is required when not signed in', ['email: is required when not signed in']);
    }
    await service.resendVerification(email ? { email } : { userId: request.tokenUserId! });
    return okMessage('If the account exists and is not yet verified, a verification link has been sent');
  });
};

export default routes;
