import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createDatabase, type Database } from '../../src/db/client.js';
import { migrationsFolder, runMigrations } from '../../src/db/migrate.js';
import { createMailer, type Mailer } from '../../src/lib/mailer.js';
import { newId } from '../../src/lib/ids.js';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  mailer: Mailer;
  config: Config;
  close(): Promise<void>;
}

/** One signing secret per test process, so that several apps of one test accept each other's tokens. */
const TEST_JWT_SECRET = randomBytes(32).toString('hex');

/** Test configuration: rate limits off unless a test turns them on. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // Tests never reach the real Messages API: the anthropic generator is tested against a local fake.
  const base = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PGLITE_DATA_DIR: 'memory://',
    REDIS_URL: '',
    SMTP_URL: '',
    ANTHROPIC_API_KEY: '',
    ANTHROPIC_BASE_URL: '',
    RAG_GENERATOR: '',
    // Streams send the extractive answer's sentences without a pause (a test that checks the pace sets one).
    RAG_EXTRACTIVE_STREAM_INTERVAL_MS: '0',
    JWT_SECRET: TEST_JWT_SECRET,
    SHUTDOWN_GRACE_MS: '0',
  });
  return { ...base, rateLimits: { ...base.rateLimits, enabled: false }, ...overrides };
}

/** A short hash of the migrations' names and contents: a template is reused until one changes. */
function migrationsHash(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(migrationsFolder)
    .filter((f) => f.endsWith('.sql'))
    .sort())
    h.update(f).update(readFileSync(path.join(migrationsFolder, f)));
  return h.digest('hex').slice(0, 16);
}

const templates = new Map<string, Promise<string>>();
/**
 * The name of a PostgreSQL database with every migration applied, named after the migrations'
 * contents: made by the first test process that needs it (under an advisory lock, so parallel
 * test processes wait for one another) and reused by every later run until a migration changes.
 */
function migratedPgTemplate(url: string): Promise<string> {
  let p = templates.get(url);
  if (!p) {
    p = (async () => {
      const name = `test_template_${migrationsHash()}`;
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      try {
        // One connection (max 1): the session's advisory lock is held across the statements.
        await admin`select pg_advisory_lock(hashtext(${name}))`;
        const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
        if (!exists) {
          await admin.unsafe(`DROP DATABASE IF EXISTS "${name}_wip" WITH (FORCE)`);
          await admin.unsafe(`CREATE DATABASE "${name}_wip"`);
          const u = new URL(url);
          u.pathname = `/${name}_wip`;
          const database = await createDatabase({ url: u.toString(), max: 1 });
          try {
            await runMigrations(database);
          } finally {
            await database.close();
          }
          // Renamed only once complete: a run killed half-way never leaves a half-migrated template.
          await admin.unsafe(`ALTER DATABASE "${name}_wip" RENAME TO "${name}"`);
        }
      } finally {
        await admin.end();
      }
      return name;
    })();
    templates.set(url, p);
  }
  return p;
}

let migratedCopy: Promise<Blob> | undefined;
/**
 * The data directory of a PGlite database with every migration applied. It is kept on disk
 * (the system's temporary folder, named after the migrations and the PGlite version), so that
 * only the first test process of a run pays for initdb and the migrations (about 3 s quiet, 7 s
 * when both suites run side by side); every later process reads the file. Written to a
 * temporary name and renamed, so a process never reads half a file.
 */
function migratedPglite(): Promise<Blob> {
  migratedCopy ??= (async () => {
    const file = path.join(tmpdir(), `dora-test-pglite-${migrationsHash()}-${pgliteVersion()}.tar`);
    if (existsSync(file)) {
      try {
        return new Blob([readFileSync(file)]);
      } catch {
        // unreadable (removed meanwhile): made again below
      }
    }
    const database = await createDatabase({ pgliteDataDir: 'memory://' });
    try {
      await runMigrations(database);
      const blob = await database.pglite!.dumpDataDir('none');
      try {
        const wip = `${file}.${process.pid}.wip`;
        writeFileSync(wip, Buffer.from(await blob.arrayBuffer()));
        renameSync(wip, file);
      } catch {
        // a read-only temporary folder only costs later processes the migrations
      }
      return blob;
    } finally {
      await database.close();
    }
  })();
  return migratedCopy;
}

function pgliteVersion(): string {
  try {
    return JSON.parse(readFileSync(fileURLToPath(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/**
 * A fresh, migrated database: PGlite in memory, or, when DATABASE_URL is set, a new
 * PostgreSQL database created for this test and dropped afterwards.
 */
export async function freshDatabase(
  url = process.env.DATABASE_URL,
  opts: { max?: number; migrationsFolder?: string } = {},
): Promise<{ database: Database; drop(): Promise<void> }> {
  if (!url) {
    if (opts.migrationsFolder || process.env.TEST_PGLITE_TEMPLATE === '0') {
      const database = await createDatabase({ pgliteDataDir: 'memory://' });
      await runMigrations(database, opts.migrationsFolder);
      return { database, drop: () => database.close() };
    }
    // Every fresh PGlite database of a test process starts from one migrated copy (initdb and
    // the migrations take 2-5 s per database on this machine; loading the copy about 0.6 s).
    // TEST_PGLITE_TEMPLATE=0 runs initdb and the migrations each time instead.
    const database = await createDatabase({ pgliteDataDir: 'memory://', pgliteLoadDataDir: await migratedPglite() });
    return { database, drop: () => database.close() };
  }
  const name = `test_${newId().replace(/-/g, '').slice(0, 20)}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  // A copy of a migrated template database (one per set of migrations, made once and kept on
  // the server) instead of running every migration again; TEST_PG_TEMPLATE=0 migrates each time.
  const template = opts.migrationsFolder || process.env.TEST_PG_TEMPLATE === '0' ? null : await migratedPgTemplate(url);
  await admin.unsafe(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await createDatabase({ url: u.toString(), max: opts.max ?? 5 });
  if (!template) await runMigrations(database, opts.migrationsFolder);
  return {
    database,
    drop: async () => {
      await database.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Builds the app on a fresh database with the DORA reference data loaded. */
export async function buildTestApp(
  overrides: Partial<Config> = {},
  opts: { mailer?: Mailer; seed?: boolean; logStream?: { write(line: string): void }; migrationsFolder?: string } = {},
): Promise<TestContext> {
  const config = testConfig(overrides);
  const { database, drop } = await freshDatabase(undefined, { migrationsFolder: opts.migrationsFolder });
  const mailer = opts.mailer ?? createMailer({ from: config.mailFrom });
  const app = await buildApp({ config, database, mailer, logStream: opts.logStream });
  if (opts.seed !== false) await app.services.compliance.loadReferenceData();
  await app.ready();
  return {
    app,
    database,
    mailer,
    config,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

export interface Session {
  id: string;
  email: string;
  name: string;
  accessToken: string;
  refreshToken: string;
  cookies: Record<string, string>;
  /** Headers for an authenticated request with the Bearer token. */
  headers: Record<string, string>;
}

export function cookiesOf(res: LightMyRequestResponse): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of res.cookies) out[c.name] = c.value;
  return out;
}

let counter = 0;
/** Registers a user through the API and returns its session. */
export async function registerUser(app: FastifyInstance, fields: { email?: string; name?: string; password?: string } = {}): Promise<Session> {
  counter += 1;
  const email = fields.email ?? `user${counter}-${newId().slice(0, 8)}@example.com`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { email, password: fields.password ?? 'correct horse battery', name: fields.name ?? `User ${counter}` },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  const cookies = cookiesOf(res);
  return {
    id: body.data.user.id,
    email,
    name: body.data.user.name,
    accessToken: cookies.accessToken,
    refreshToken: cookies.refreshToken,
    cookies,
    headers: { authorization: `Bearer ${cookies.accessToken}` },
  };
}
