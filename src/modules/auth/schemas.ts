import { Type } from 'typebox';
import { Envelope, MessageEnvelope, errorResponses } from '../../lib/envelope.js';

/** Request and response schemas of authentication: one named schema per route (routes.ts). */

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

export const register = {
  operationId: 'register',
  tags: ['auth'],
  summary: 'Create an account; sets the accessToken and refreshToken cookies',
  body: Type.Object(
    { email: Email, password: Type.String({ minLength: 8, maxLength: 128 }), name: Name, invitationToken: Type.Optional(Token) },
    { additionalProperties: false },
  ),
  response: { 201: Envelope(Type.Object({ user: UserCreated, accessToken: Type.String(), expiresIn: Type.Number() })), ...errorResponses },
};

export const login = {
  operationId: 'login',
  tags: ['auth'],
  summary: 'Log in; sets the accessToken and refreshToken cookies',
  body: Type.Object(
    { email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 1024 }) },
    { additionalProperties: false },
  ),
  response: { 200: Envelope(Type.Object({ user: UserBrief, accessToken: Type.String(), expiresIn: Type.Number() })), ...errorResponses },
};

export const logout = {
  operationId: 'logout',
  tags: ['auth'],
  summary: 'Log out; revokes the family of the refresh token (body field or cookie) and clears both cookies',
  body: Type.Object(
    {
      refreshToken: Type.Optional(
        Type.String({ maxLength: 200, description: 'The refresh token to revoke (API clients); the dashboard sends it as the refreshToken cookie' }),
      ),
    },
    { additionalProperties: false },
  ),
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const logoutAll = {
  operationId: 'logoutAll',
  tags: ['auth'],
  summary: 'Log out everywhere: revokes every refresh token family of the signed-in user and clears both cookies',
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const refresh = {
  operationId: 'refreshSession',
  tags: ['auth'],
  summary: 'Exchange the refresh token (cookie, or body field) for a new access token; the refresh token is rotated',
  body: Type.Object({ refreshToken: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ accessToken: Type.String(), expiresIn: Type.Number() })), ...errorResponses },
};

export const me = {
  operationId: 'getMe',
  tags: ['auth'],
  summary: 'The signed-in user',
  response: { 200: Envelope(Type.Object({ user: UserFull })), ...errorResponses },
};

export const session = {
  tags: ['auth'],
  operationId: 'getSession',
  summary: 'Whether there is a session: the signed-in user or null (never 401)',
  description:
    'For a client deciding what to show at start: `user` when the access token is valid; else null, with `refreshable` true when a ' +
    'refresh token cookie was sent (POST /auth/refresh may then renew the session). A signed-out visitor gets 200, not 401.',
  response: {
    200: Envelope(Type.Object({ user: Type.Union([UserFull, Type.Null()]), refreshable: Type.Boolean() })),
    ...errorResponses,
  },
};

export const updateMe = {
  operationId: 'updateMe',
  tags: ['auth'],
  summary: 'Update name and/or e-mail (a new e-mail must be verified again)',
  body: Type.Object({ name: Type.Optional(Name), email: Type.Optional(Email) }, { additionalProperties: false, minProperties: 1 }),
  response: { 200: Envelope(Type.Object({ user: UserBrief })), ...errorResponses },
};

export const changePassword = {
  operationId: 'changePassword',
  tags: ['auth'],
  summary: 'Change the password; other sessions are signed out',
  body: Type.Object(
    { currentPassword: Type.String({ minLength: 1, maxLength: 1024 }), newPassword: Type.String({ minLength: 8, maxLength: 128 }) },
    { additionalProperties: false },
  ),
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const forgotPassword = {
  operationId: 'forgotPassword',
  tags: ['auth'],
  summary: 'Send a password-reset e-mail (the answer is the same whether or not the account exists)',
  body: Type.Object({ email: Email }, { additionalProperties: false }),
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const resetPassword = {
  operationId: 'resetPassword',
  tags: ['auth'],
  summary: 'Set a new password with the single-use token from the reset e-mail',
  body: Type.Object({ token: Token, newPassword: Type.String({ minLength: 8, maxLength: 128 }) }, { additionalProperties: false }),
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const verifyEmail = {
  operationId: 'verifyEmail',
  tags: ['auth'],
  summary: 'Verify an e-mail address with the single-use token from the verification e-mail',
  body: Type.Object({ token: Token }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ user: UserFull })), ...errorResponses },
};

export const resendVerification = {
  operationId: 'resendVerification',
  tags: ['auth'],
  summary: 'Resend the verification link (to the signed-in user, or to the given e-mail address)',
  body: Type.Object({ email: Type.Optional(Email) }, { additionalProperties: false }),
  response: { 200: MessageEnvelope, ...errorResponses },
};
