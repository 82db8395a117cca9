import argon2 from 'argon2';
import type { Config } from '../../config.js';
import { AppError, conflict, unauthorized, badRequest } from '../../lib/errors.js';
import { newId, newSecret, sha256 } from '../../lib/ids.js';
import type { Mailer } from '../../lib/mailer.js';
import { afterResponse } from '../../lib/afterResponse.js';
import type { AuthRepository, UserRow } from './repository.js';

export const PASSWORD_MIN = 8;
/** How long the user of authenticated requests is kept per process (ms), and how many users at most. */
export const AUTH_USER_CACHE_MS = 2000;
const AUTH_USER_CACHE_MAX = 10_000;
export const PASSWORD_MAX = 128;

export interface IssuedSession {
  user: UserRow;
  accessToken: string;
  refreshToken: string;
}

export interface RegisterHookContext {
  invitationToken?: string;
}

/** Called after a user is created (organizations join invited users here). */
export type RegisterHook = (user: UserRow, ctx: RegisterHookContext) => Promise<void>;

// A valid argon2id hash of a random string: verifying against it keeps the time of a
// login with an unknown e-mail equal to that of a wrong password.
let dummyHash: Promise<string> | null = null;

export function publicUser(u: UserRow) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    status: u.status,
    emailVerified: u.emailVerified,
    createdAt: u.createdAt.toISOString(),
    lastLoginAt: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
  };
}

/** Rules for a new password (register, change, reset); see docs/auth.md. */
export function checkNewPassword(password: string, email?: string): void {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN) problems.push(`password must be at least ${PASSWORD_MIN} characters`);
  if (password.length > PASSWORD_MAX) problems.push(`password must be at most ${PASSWORD_MAX} characters`);
  if (password.trim().length === 0) problems.push('password must not be blank');
  if (email && password.toLowerCase() === email.toLowerCase()) problems.push('password must not be the e-mail address');
  if (problems.length) throw badRequest(problems.join('; '), problems);
}

/** The e-mail carrying a verification or password reset token. */
function emailTokenMail(user: { name: string; to: string }, purpose: 'verify_email' | 'reset_password', token: string, publicUrl: string, hours: number) {
  if (purpose === 'verify_email') {
    const link = `${publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
    return {
      to: user.to,
      subject: 'Verify your e-mail address',
      text: `Hello ${user.name},\n\nPlease confirm your e-mail address by opening this link:\n${link}\n\nOr send this token to POST /api/v1/auth/verify-email: ${token}\n\nThe link expires in ${hours} hours and can be used once.\n`,
    };
  }
  const link = `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return {
    to: user.to,
    subject: 'Reset your password',
    text: `Hello ${user.name},\n\nSomeone asked to reset the password of this account. To choose a new password, open:\n${link}\n\nOr send this token with your new password to POST /api/v1/auth/reset-password: ${token}\n\nThe link expires in ${hours} hours and can be used once. If you did not ask for this, ignore this message.\n`,
  };
}

/** A user's public identity, for other modules. */
export interface UserIdentity {
  id: string;
  name: string;
  email: string;
  status: string;
}

/** Accounts, sessions (access and rotating refresh tokens) and e-mail tokens (docs/auth.md). */
export interface AuthService {
  /** Issues an access token and a new refresh token (a new family unless given). */
  startSession(user: UserRow, familyId?: string): Promise<IssuedSession>;
  /** Creates an account and its first session; runs the register hooks (invitations). */
  register(input: { email: string; password: string; name: string; invitationToken?: string }): Promise<IssuedSession>;
  /** Checks the credentials and starts a session. */
  login(email: string, password: string): Promise<IssuedSession>;
  /** Exchanges a refresh token for a new pair; a reused token revokes its whole family. */
  refresh(refreshToken: string | undefined): Promise<IssuedSession>;
  /** Revokes the family of each given refresh token (body and cookie); unknown tokens are ignored. */
  logout(refreshTokens: (string | undefined)[]): Promise<void>;
  /** Revokes every refresh token family of the user (sign out everywhere). */
  logoutAll(userId: string): Promise<void>;
  /** The user of an authenticated request (briefly cached), or null when there is none. */
  requestUser(id: string): Promise<UserRow | null>;
  /** A user by id (404 when unknown). */
  getUser(id: string): Promise<UserRow>;
  /** Public identity of users, for other modules (members lists). */
  usersByIds(ids: string[]): Promise<Map<string, UserIdentity>>;
  /** A user by e-mail address (case-insensitive), for other modules (invitations, members). */
  findByEmail(email: string): Promise<UserIdentity | null>;
  /** Changes name and/or e-mail (a new e-mail must be verified again). */
  updateProfile(userId: string, input: { name?: string; email?: string }): Promise<UserRow>;
  /** Changes the password; every other session (refresh family) is revoked. */
  changePassword(userId: string, currentPassword: string, newPassword: string, keepFamilyId?: string): Promise<void>;
  /** The family of a presented refresh token (to keep the caller's own session). */
  familyOf(refreshToken: string | undefined): Promise<string | undefined>;
  /** Sends a reset link when the account exists; returns at once either way. */
  forgotPassword(email: string): Promise<void>;
  /** Sets a new password with a reset token; every session is revoked. */
  resetPassword(token: string, newPassword: string): Promise<void>;
  /** Marks the e-mail address verified with a verification token. */
  verifyEmail(token: string): Promise<UserRow>;
  /** Resends the verification link to an unverified account; silent otherwise; returns at once. */
  resendVerification(by: { userId?: string; email?: string }): Promise<void>;
  /** Resolves when the e-mails queued after responses are sent (closing the app, tests). */
  settled(): Promise<void>;
}

/**
 * The user of each authenticated request, kept for AUTH_USER_CACHE_MS (docs/auth.md,
 * "Request authentication"): a client's burst of requests loads its user once. A change
 * made through this process is seen at once (`updateUser` drops the entry before and after
 * the write); another instance sees it within AUTH_USER_CACHE_MS. A failed load is never kept.
 */
function requestUserCache(repo: AuthRepository) {
  const requestUsers = new Map<string, { user: UserRow; at: number }>();
  const forget = (id: string) => requestUsers.delete(id);
  const updateUser: AuthRepository['updateUser'] = async (id, values) => {
    forget(id);
    try {
      return await repo.updateUser(id, values);
    } finally {
      forget(id);
    }
  };
  async function requestUser(id: string): Promise<UserRow | null> {
    const now = Date.now();
    const hit = requestUsers.get(id);
    if (hit && now - hit.at < AUTH_USER_CACHE_MS) return hit.user;
    const user = await repo.findUserById(id);
    requestUsers.delete(id);
    if (user) {
      if (requestUsers.size >= AUTH_USER_CACHE_MAX) requestUsers.delete(requestUsers.keys().next().value!);
      requestUsers.set(id, { user, at: now });
    }
    return user;
  }
  return { requestUser, updateUser };
}

export function authService(deps: {
  repo: AuthRepository;
  mailer: Mailer;
  config: Pick<Config, 'refreshTokenTtlSec' | 'emailTokenTtlSec' | 'publicUrl'>;
  signAccessToken(userId: string): string;
  onRegistered?: RegisterHook[];
  log?: { error(obj: unknown, msg?: string): void };
}): AuthService {
  const { repo, mailer, config } = deps;
  const hooks: RegisterHook[] = deps.onRegistered ?? [];

  const { requestUser, updateUser } = requestUserCache(repo);

  // Work whose duration would tell whether an account exists (looking it up, storing a
  // token, talking to the SMTP server) runs after the response (docs/auth.md).
  const mails = afterResponse('auth: e-mail', deps.log);

  async function startSession(user: UserRow, familyId = newId()): Promise<IssuedSession> {
    const refreshToken = newSecret(48);
    await repo.insertRefreshToken({
      userId: user.id,
      familyId,
      tokenHash: sha256(refreshToken),
      expiresAt: new Date(Date.now() + config.refreshTokenTtlSec * 1000),
    });
    return { user, accessToken: deps.signAccessToken(user.id), refreshToken };
  }

  async function sendEmailToken(user: UserRow, purpose: 'verify_email' | 'reset_password', to = user.email) {
    await repo.expireEmailTokens(user.id, purpose);
    const token = newSecret(32);
    await repo.insertEmailToken({
      userId: user.id,
      purpose,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + config.emailTokenTtlSec * 1000),
    });
    await mailer.send(emailTokenMail({ name: user.name, to }, purpose, token, config.publicUrl, Math.round(config.emailTokenTtlSec / 3600)));
    return token;
  }

  return {
    startSession,

    async register(input: { email: string; password: string; name: string; invitationToken?: string }): Promise<IssuedSession> {
      checkNewPassword(input.password, input.email);
      const passwordHash = await argon2.hash(input.password, { type: argon2.argon2id });
      const user = await repo.insertUser({ email: input.email.trim(), name: input.name.trim(), passwordHash });
      if (!user) throw conflict('Email already registered', 'EMAIL_TAKEN');
      for (const hook of hooks) await hook(user, { invitationToken: input.invitationToken });
      await sendEmailToken(user, 'verify_email');
      const loggedIn = (await updateUser(user.id, { lastLoginAt: new Date() })) ?? user;
      return startSession(loggedIn);
    },

    async login(email: string, password: string): Promise<IssuedSession> {
      const user = await repo.findUserByEmail(email.trim());
      if (!user) {
        dummyHash ??= argon2.hash(newSecret(), { type: argon2.argon2id });
        await argon2.verify(await dummyHash, password).catch(() => false);
        throw unauthorized('Invalid email or password', 'INVALID_CREDENTIALS');
      }
      const valid = await argon2.verify(user.passwordHash, password).catch(() => false);
      if (!valid || user.status !== 'active') throw unauthorized('Invalid email or password', 'INVALID_CREDENTIALS');
      const updated = (await updateUser(user.id, { lastLoginAt: new Date() })) ?? user;
      return startSession(updated);
    },

    /**
     * Exchanges a refresh token for a new pair (rotation). A token that was already
     * used is a sign of theft: the whole family is revoked.
     */
    async refresh(refreshToken: string | undefined): Promise<IssuedSession> {
      const invalid = () => unauthorized('Invalid refresh token', 'INVALID_REFRESH_TOKEN');
      if (!refreshToken) throw invalid();
      const row = await repo.findRefreshToken(sha256(refreshToken));
      if (!row) throw invalid();
      if (row.revokedAt || row.expiresAt.getTime() <= Date.now()) throw invalid();
      if (row.usedAt || !(await repo.consumeRefreshToken(row.id))) {
        await repo.revokeFamily(row.familyId);
        throw invalid();
      }
      const user = await repo.findUserById(row.userId);
      if (!user || user.status !== 'active') {
        await repo.revokeFamily(row.familyId);
        throw invalid();
      }
      return startSession(user, row.familyId);
    },

    async logout(refreshTokens: (string | undefined)[]): Promise<void> {
      for (const token of new Set(refreshTokens)) {
        if (!token) continue;
        const row = await repo.findRefreshToken(sha256(token));
        if (row) await repo.revokeFamily(row.familyId);
      }
    },

    async logoutAll(userId: string): Promise<void> {
      await repo.revokeAllForUser(userId);
    },

    requestUser,

    async getUser(id: string): Promise<UserRow> {
      const user = await repo.findUserById(id);
      if (!user) throw unauthorized();
      return user;
    },

    /** Public identity (id, name, e-mail, status) of users, for other modules (members lists). */
    async usersByIds(ids: string[]): Promise<Map<string, { id: string; name: string; email: string; status: string }>> {
      const rows = await repo.findUsersByIds([...new Set(ids)]);
      return new Map(rows.map((u) => [u.id, { id: u.id, name: u.name, email: u.email, status: u.status }]));
    },

    /** Finds a user by e-mail address (case-insensitive), for other modules (invitations, members). */
    async findByEmail(email: string): Promise<{ id: string; name: string; email: string; status: string } | null> {
      const u = await repo.findUserByEmail(email.trim());
      return u && { id: u.id, name: u.name, email: u.email, status: u.status };
    },

    async updateProfile(userId: string, input: { name?: string; email?: string }): Promise<UserRow> {
      const user = await this.getUser(userId);
      const changes: { name?: string; email?: string; emailVerified?: boolean } = {};
      if (input.name !== undefined) changes.name = input.name.trim();
      if (input.email !== undefined && input.email.trim().toLowerCase() !== user.email) {
        const taken = await repo.findUserByEmail(input.email.trim());
        if (taken) throw conflict('Email already registered', 'EMAIL_TAKEN');
        changes.email = input.email.trim();
        changes.emailVerified = false;
      }
      if (Object.keys(changes).length === 0) return user;
      let updated: UserRow | null;
      try {
        updated = await updateUser(userId, changes);
      } catch (err) {
        if (String((err as { code?: string }).code) === '23505') throw conflict('Email already registered', 'EMAIL_TAKEN');
        throw err;
      }
      if (!updated) throw unauthorized();
      if (changes.email) await sendEmailToken(updated, 'verify_email');
      return updated;
    },

    /** Changes the password; every other session (refresh family) is revoked. */
    async changePassword(userId: string, currentPassword: string, newPassword: string, keepFamilyId?: string) {
      const user = await this.getUser(userId);
      const valid = await argon2.verify(user.passwordHash, currentPassword).catch(() => false);
      if (!valid) throw new AppError(400, 'INVALID_CURRENT_PASSWORD', 'Current password is incorrect', ['currentPassword: is incorrect']);
      if (currentPassword === newPassword)
        throw badRequest('newPassword must differ from the current password', ['newPassword: must differ from the current password']);
      checkNewPassword(newPassword, user.email);
      await updateUser(userId, { passwordHash: await argon2.hash(newPassword, { type: argon2.argon2id }) });
      await repo.revokeAllForUser(userId, keepFamilyId);
    },

    /** Finds the family of a presented refresh token (to keep the caller's own session). */
    async familyOf(refreshToken: string | undefined): Promise<string | undefined> {
      if (!refreshToken) return undefined;
      return (await repo.findRefreshToken(sha256(refreshToken)))?.familyId;
    },

    /**
     * Sends a reset link when the account exists. Returns at once, before the account is
     * even looked up, so the answer takes the same time whether or not it exists.
     */
    async forgotPassword(email: string): Promise<void> {
      mails.run(async () => {
        const user = await repo.findUserByEmail(email.trim());
        if (!user || user.status !== 'active') return;
        await sendEmailToken(user, 'reset_password');
      });
    },

    async resetPassword(token: string, newPassword: string): Promise<void> {
      const userId = await repo.consumeEmailToken(sha256(token), 'reset_password');
      if (!userId) throw new AppError(400, 'INVALID_TOKEN', 'Invalid or expired token');
      const user = await this.getUser(userId);
      checkNewPassword(newPassword, user.email);
      // The mail proved control of the address.
      await updateUser(userId, { passwordHash: await argon2.hash(newPassword, { type: argon2.argon2id }), emailVerified: true });
      await repo.revokeAllForUser(userId);
    },

    async verifyEmail(token: string): Promise<UserRow> {
      const userId = await repo.consumeEmailToken(sha256(token), 'verify_email');
      if (!userId) throw new AppError(400, 'INVALID_TOKEN', 'Invalid or expired token');
      const user = await updateUser(userId, { emailVerified: true });
      if (!user) throw new AppError(400, 'INVALID_TOKEN', 'Invalid or expired token');
      return user;
    },

    /** Resends the verification link to an unverified account; silent otherwise. Returns at once, as forgotPassword. */
    async resendVerification(by: { userId?: string; email?: string }): Promise<void> {
      mails.run(async () => {
        const user = by.userId ? await repo.findUserById(by.userId) : by.email ? await repo.findUserByEmail(by.email.trim()) : null;
        if (!user || user.emailVerified || user.status !== 'active') return;
        await sendEmailToken(user, 'verify_email');
      });
    },

    /** Resolves when the e-mails queued after responses are sent (closing the app, tests). */
    async settled(): Promise<void> {
      await mails.settled();
    },
  };
}
