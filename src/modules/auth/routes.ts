import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { badRequest } from '../../lib/errors.js';
import { ok, okMessage } from '../../lib/envelope.js';
import { publicUser, type AuthService, type IssuedSession } from './service.js';
import {
  register,
  login,
  logout,
  logoutAll,
  refresh,
  me,
  session,
  updateMe,
  changePassword,
  forgotPassword,
  resetPassword,
  verifyEmail,
  resendVerification,
} from './schemas.js';

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

  app.post(
    '/auth/register',
    {
      config: { public: true, rateLimitScope: 'register' },
      schema: register,
    },
    async (request, reply) => {
      const session = await service.register(request.body);
      setSessionCookies(reply, session);
      const u = session.user;
      return reply
        .status(201)
        .send(
          ok({ user: { id: u.id, email: u.email, name: u.name, createdAt: u.createdAt.toISOString() }, ...sessionData(session) }, 'Registration successful'),
        );
    },
  );

  app.post(
    '/auth/login',
    {
      config: { public: true, rateLimitScope: 'login' },
      schema: login,
    },
    async (request, reply) => {
      const session = await service.login(request.body.email, request.body.password);
      setSessionCookies(reply, session);
      const u = session.user;
      return ok({ user: { id: u.id, email: u.email, name: u.name }, ...sessionData(session) }, 'Login successful');
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { public: true },
      schema: logout,
    },
    async (request, reply) => {
      // Both, when both are given: a client that sends one token in the body while its
      // cookie holds another signs out of both sessions.
      await service.logout([request.body.refreshToken, request.cookies.refreshToken]);
      clearSessionCookies(reply);
      return okMessage('Logout successful');
    },
  );

  app.post(
    '/auth/logout-all',
    {
      config: { rateLimitScope: 'auth' },
      schema: logoutAll,
    },
    async (request, reply) => {
      await service.logoutAll(request.auth!.id);
      clearSessionCookies(reply);
      return okMessage('Logged out of every session');
    },
  );

  app.post(
    '/auth/refresh',
    {
      config: { public: true, rateLimitScope: 'refresh' },
      schema: refresh,
    },
    async (request, reply) => {
      const presented = request.cookies.refreshToken ?? request.body.refreshToken;
      try {
        const session = await service.refresh(presented);
        setSessionCookies(reply, session);
        return ok(sessionData(session), 'Token refreshed');
      } catch (err) {
        clearSessionCookies(reply);
        throw err;
      }
    },
  );

  app.get(
    '/auth/me',
    {
      schema: me,
    },
    async (request) => {
      const user = await service.getUser(request.auth!.id);
      return ok({ user: publicUser(user) });
    },
  );

  // A signed-out visitor is not an error: the dashboard asks this first, so no page logs a 401.
  app.get(
    '/auth/session',
    {
      config: { public: true },
      schema: session,
    },
    async (request) => {
      // A database error is a 503, as on every authenticated route (never a signed-out answer).
      const user = request.tokenUserId ? await service.requestUser(request.tokenUserId) : null;
      const active = user && user.status === 'active' ? publicUser(user) : null;
      return ok({ user: active, refreshable: !active && typeof request.cookies.refreshToken === 'string' && request.cookies.refreshToken.length > 0 });
    },
  );

  app.patch(
    '/auth/me',
    {
      schema: updateMe,
    },
    async (request) => {
      const u = await service.updateProfile(request.auth!.id, request.body);
      return ok({ user: { id: u.id, email: u.email, name: u.name } }, 'Profile updated');
    },
  );

  app.post(
    '/auth/change-password',
    {
      config: { rateLimitScope: 'auth' },
      schema: changePassword,
    },
    async (request) => {
      const keep = await service.familyOf(request.cookies.refreshToken);
      await service.changePassword(request.auth!.id, request.body.currentPassword, request.body.newPassword, keep);
      return okMessage('Password changed successfully');
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      config: { public: true, rateLimitScope: 'auth' },
      schema: forgotPassword,
    },
    async (request) => {
      await service.forgotPassword(request.body.email);
      return okMessage('If an account exists for that e-mail address, a password reset link has been sent');
    },
  );

  app.post(
    '/auth/reset-password',
    {
      config: { public: true, rateLimitScope: 'auth' },
      schema: resetPassword,
    },
    async (request) => {
      await service.resetPassword(request.body.token, request.body.newPassword);
      return okMessage('Password has been reset; please log in with the new password');
    },
  );

  app.post(
    '/auth/verify-email',
    {
      config: { public: true, rateLimitScope: 'auth' },
      schema: verifyEmail,
    },
    async (request) => {
      const user = await service.verifyEmail(request.body.token);
      return ok({ user: publicUser(user) }, 'Email verified');
    },
  );

  app.post(
    '/auth/resend-verification',
    {
      config: { public: true, rateLimitScope: 'auth' },
      schema: resendVerification,
    },
    async (request) => {
      const email = request.body.email;
      if (!email && !request.tokenUserId) {
        throw badRequest('email is required when not signed in', ['email: is required when not signed in']);
      }
      await service.resendVerification(email ? { email } : { userId: request.tokenUserId! });
      return okMessage('If the account exists and is not yet verified, a verification link has been sent');
    },
  );
};

export default routes;
