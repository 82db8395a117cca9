import { defineConfig } from 'drizzle-kit';

// `drizzle-kit generate` writes SQL migrations into migrations/ from the schema;
// `drizzle-kit migrate` applies them to DATABASE_URL (PostgreSQL). The embedded
// PGlite database is migrated by `npm run migrate` (src/cli/migrate.ts), which
// applies the very same files.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './migrations',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
});
