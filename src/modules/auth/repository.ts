import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { emailTokens, refreshTokens, users } from '../../db/schema/index.js';

export type UserRow = typeof users.$inferSelect;

/** All SQL of users, refresh tokens and e-mail tokens. */
export function authRepository(db: Db) {
  // Every authenticated request loads its user: built once, prepared per connection.
  const userById = db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('auth_user_by_id');
  return {
    async findUserById(id: string): Promise<UserRow | null> {
      const [row] = await userById.execute({ id });
      return row ?? null;
    },
    async findUsersByIds(ids: string[]): Promise<UserRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(users).where(inArray(users.id, ids));
    },
    async findUserByEmail(email: string): Promise<UserRow | null> {
      const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
      return row ?? null;
    },
    /** Inserts a user; returns null when the e-mail is taken. */
    async insertUser(values: { email: string; name: string; passwordHash: string }): Promise<UserRow | null> {
      const rows = await db
        .insert(users)
        .values({ ...values, email: values.email.toLowerCase() })
        .onConflictDoNothing({ target: users.email })
        .returning();
      return rows[0] ?? null;
    },
    async updateUser(id: string, values: Partial<Pick<UserRow, 'name' | 'email' | 'passwordHash' | 'emailVerified' | 'lastLoginAt' | 'status'>>) {
      const [row] = await db
        .update(users)
        .set({ ...values, ...(values.email ? { email: values.email.toLowerCase() } : {}), updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row ?? null;
    },

    async insertRefreshToken(values: { userId: string; familyId: string; tokenHash: string; expiresAt: Date }) {
      await db.insert(refreshTokens).values(values);
    },
    async findRefreshToken(tokenHash: string) {
      const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
      return row ?? null;
    },
    /** Marks a token used if it still is unused and unrevoked; true when this call won the race. */
    async consumeRefreshToken(id: string): Promise<boolean> {
      const rows = await db
        .update(refreshTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
        .returning({ id: refreshTokens.id });
      return rows.length === 1;
    },
    async revokeFamily(familyId: string) {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
    },
    async revokeAllForUser(userId: string, exceptFamilyId?: string) {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(refreshTokens.userId, userId),
            isNull(refreshTokens.revokedAt),
            exceptFamilyId ? sql`${refreshTokens.familyId} <> ${exceptFamilyId}` : undefined,
          ),
        );
    },

    async insertEmailToken(values: { userId: string; purpose: string; tokenHash: string; expiresAt: Date }) {
      await db.insert(emailTokens).values(values);
    },
    /** Consumes a valid, unused, unexpired token of that purpose; returns its user id. */
    async consumeEmailToken(tokenHash: string, purpose: string): Promise<string | null> {
      const rows = await db
        .update(emailTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, new Date())))
        .returning({ userId: emailTokens.userId });
      return rows[0]?.userId ?? null;
    },
    /** Invalidates outstanding tokens of a purpose (a new one supersedes them). */
    async expireEmailTokens(userId: string, purpose: string) {
      await db
        .update(emailTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
    },
  };
}
export type AuthRepository = ReturnType<typeof authRepository>;
