/**
 * Connection loss under mixed read/write load, against the real server process
 * (docs/reliability.md). Each trial starts `src/server.ts` on a fresh PostgreSQL
 * database, loads it with 20 clients (GET /data-sources and POST /rag, half each),
 * terminates the service's backends three times (pg_terminate_backend, only this
 * database's sessions), then checks whether the process is still alive, what the
 * clients were answered, and how long until GET /data-sources answers 200 again.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres heavy -x node --import=tsx bench/db-fault.ts [trials]
 *
 * `retries [cuts] [--no-key]`: one run where 20 clients ask questions (POST /rag) and retry
 * each one after a 503 or a 409 IDEMPOTENCY_KEY_IN_USE until it is answered, with an
 * `Idempotency-Key` per question (or without, `--no-key`, to see what a retrying client got
 * before), while the service's backends are terminated `cuts` times (default 20, every
 * 0.3 s). It reports the questions stored more than once (duplicates), answered but not
 * stored, and whether the query log matches the responses: one `answered` row per answer
 * that was not a replay, one `failed DATABASE_UNAVAILABLE` row per 503 that came from the
 * question itself, no `INTERNAL_ERROR`, no row dropped (GET /health data.queryLog).
 *
 *   DATABASE_URL=... heavy -x node --import=tsx bench/db-fault.ts retries 20
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import postgres from 'postgres';

const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const trials = Number(process.argv[2] ?? 6);
const admin = postgres(url, { max: 1, onnotice: () => {} });

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function trial(n: number) {
  const db = `bench_fault_${process.pid}_${n}`;
  await admin.unsafe(`CREATE DATABASE "${db}"`);
  const u = new URL(url);
  u.pathname = `/${db}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import=tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: u.toString(),
      PORT: String(port),
      LOG_LEVEL: 'warn',
      WORKERS: '1',
      RATE_LIMIT_ENABLED: 'false',
      JOBS_POLL_INTERVAL_SEC: '0.5',
      JWT_SECRET: 'x'.repeat(40),
      REDIS_URL: '',
      SMTP_URL: '',
      NODE_ENV: 'development',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  child.stdout.on('data', (c) => (stderr += c));
  let exited: string | null = null;
  child.on('exit', (code, signal) => (exited = `exit ${code ?? signal}`));
  try {
    for (let i = 0; ; i++) {
      if (exited) throw new Error(`server did not start: ${exited}\n${stderr.slice(-2000)}`);
      try {
        if ((await fetch(`${base}/health`)).ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const json = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, any> };
    };
    const reg = await json('POST', '/api/v1/auth/register', { email: `fault${n}@example.com`, password: 'correct horse battery', name: 'Fault Test' });
    const auth = { authorization: `Bearer ${reg.body.data.accessToken}` };
    await json('POST', '/api/v1/organizations', { name: 'Fault Bank' }, auth);
    const ws = await json('POST', '/api/v1/workspaces', { workspaceName: 'Vendor' }, auth);
    const headers = { ...auth, 'x-workspace-id': ws.body.data.workspace.id };
    const ds = await json(
      'POST',
      '/api/v1/data-sources',
      { documents: [{ title: 'Policy', content: 'Incidents are reported within 24 hours. Backups are encrypted.' }] },
      headers,
    );
    for (let i = 0; i < 100; i++) {
      const s = await json('GET', `/api/v1/data-sources/${ds.body.data.dataSource.id}`, undefined, headers);
      if (s.body.data?.dataSource?.status === 'ready') break;
      await new Promise((r) => setTimeout(r, 200));
    }

    const outcomes = new Map<string, number>();
    let running = true;
    let slowest = 0;
    const client = async (c: number) => {
      for (let i = 0; running && !exited; i++) {
        const write = (i + c) % 2 === 0;
        const t0 = performance.now();
        let key: string;
        try {
          const r = write
            ? await json('POST', '/api/v1/rag', { question: `How fast are incidents reported? ${c}.${i}` }, headers)
            : await json('GET', '/api/v1/data-sources', undefined, headers);
          key = `${r.status}${r.body.error?.code ? ` ${r.body.error.code}` : ''}`;
        } catch {
          key = 'no answer';
          await new Promise((r) => setTimeout(r, 50));
        }
        slowest = Math.max(slowest, performance.now() - t0);
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }
    };
    const clients = Array.from({ length: 20 }, (_, c) => client(c));
    for (let round = 0; round < 3; round++) {
      await new Promise((r) => setTimeout(r, 1000));
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${db} and pid <> pg_backend_pid()`;
    }
    await new Promise((r) => setTimeout(r, 2000));
    running = false;
    await Promise.all(clients);
    let recovered = 'never (30 s)';
    const t0 = performance.now();
    while (!exited && performance.now() - t0 < 30_000) {
      const r = await json('GET', '/api/v1/data-sources', undefined, headers).catch(() => ({ status: 0 }));
      if (r.status === 200) {
        recovered = `${Math.round(performance.now() - t0)} ms`;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const crash = exited ? ` ${(/TypeError[^\n]*/.exec(stderr) ?? [''])[0]}` : '';
    console.log(
      `trial ${n}: process ${exited ?? 'alive'}${crash}; answers ${JSON.stringify(Object.fromEntries(outcomes))}; slowest ${Math.round(slowest)} ms; 200 again after ${exited ? '-' : recovered}`,
    );
    return exited ? 1 : 0;
  } finally {
    if (!exited) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await admin.unsafe(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  }
}

async function retries(cuts: number, withKeys: boolean) {
  const db = `bench_fault_${process.pid}_retries`;
  await admin.unsafe(`CREATE DATABASE "${db}"`);
  const u = new URL(url);
  u.pathname = `/${db}`;
  const dbClient = postgres(u.toString(), { max: 1, onnotice: () => {} });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import=tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: u.toString(),
      PORT: String(port),
      LOG_LEVEL: 'error',
      WORKERS: '1',
      RATE_LIMIT_ENABLED: 'false',
      JOBS_POLL_INTERVAL_SEC: '0.5',
      JWT_SECRET: 'x'.repeat(40),
      REDIS_URL: '',
      SMTP_URL: '',
      NODE_ENV: 'development',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  child.stdout.on('data', (c) => (stderr += c));
  let exited: string | null = null;
  child.on('exit', (code, signal) => (exited = `exit ${code ?? signal}`));
  try {
    for (;;) {
      if (exited) throw new Error(`server did not start: ${exited}\n${stderr.slice(-2000)}`);
      try {
        if ((await fetch(`${base}/health`)).ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return {
        status: res.status,
        replayed: res.headers.get('idempotent-replayed') === 'true',
        body: (await res.json().catch(() => ({}))) as Record<string, any>,
      };
    };
    const reg = await call('POST', '/api/v1/auth/register', { email: 'retries@example.com', password: 'correct horse battery', name: 'Fault Test' });
    const auth = { authorization: `Bearer ${reg.body.data.accessToken}` };
    await call('POST', '/api/v1/organizations', { name: 'Fault Bank' }, auth);
    const ws = await call('POST', '/api/v1/workspaces', { workspaceName: 'Vendor' }, auth);
    const headers = { ...auth, 'x-workspace-id': ws.body.data.workspace.id };
    const ds = await call(
      'POST',
      '/api/v1/data-sources',
      { documents: [{ title: 'Policy', content: 'Incidents are reported within 24 hours. Backups are encrypted.' }] },
      headers,
    );
    for (let i = 0; i < 100; i++) {
      const st = await call('GET', `/api/v1/data-sources/${ds.body.data.dataSource.id}`, undefined, headers);
      if (st.body.data?.dataSource?.status === 'ready') break;
      await new Promise((r) => setTimeout(r, 200));
    }

    const answers = new Map<string, number>();
    let fresh200 = 0;
    let replays = 0;
    let unanswered = 0;
    let running = true;
    const asked: string[] = [];
    const client = async (c: number) => {
      for (let i = 0; running && !exited; i++) {
        const question = `How fast are incidents reported? ${c}.${i}`;
        asked.push(question);
        const key = `bench-${c}-${i}`;
        let done = false;
        for (let attempt = 0; attempt < 60 && !exited; attempt++) {
          let r: Awaited<ReturnType<typeof call>>;
          try {
            r = await call('POST', '/api/v1/rag', { question }, withKeys ? { ...headers, 'idempotency-key': key } : headers);
          } catch {
            answers.set('no answer', (answers.get('no answer') ?? 0) + 1);
            await new Promise((res) => setTimeout(res, 100));
            continue;
          }
          const label = `${r.status}${r.body.error?.code ? ` ${r.body.error.code}` : ''}${r.replayed ? ' replayed' : ''}`;
          answers.set(label, (answers.get(label) ?? 0) + 1);
          if (r.status === 200) {
            if (r.replayed) replays++;
            else fresh200++;
            done = true;
            break;
          }
          if (r.status !== 503 && r.status !== 409) break;
          await new Promise((res) => setTimeout(res, r.status === 409 ? 200 : 100));
        }
        if (!done) unanswered++;
      }
    };
    const clients = Array.from({ length: 20 }, (_, c) => client(c));
    let terminated = 0;
    for (let round = 0; round < cuts; round++) {
      await new Promise((r) => setTimeout(r, 300));
      const rows = await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${db} and pid <> pg_backend_pid()`;
      if (rows.length) terminated++;
    }
    await new Promise((r) => setTimeout(r, 1000));
    running = false;
    await Promise.all(clients);
    // Rows held during the outage are written within a few seconds of the reconnection.
    let health: Record<string, any> = {};
    for (let i = 0; i < 50; i++) {
      health = (await call('GET', '/health').catch(() => ({ body: {} }))).body;
      if (health.data?.queryLog?.pending === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const stored = await dbClient<{ content: string; n: number }[]>`
      select content, count(*)::int as n from messages where role = 'user' and content like 'How fast are incidents reported? %' group by content`;
    const storedMap = new Map(stored.map((r) => [r.content, r.n]));
    const duplicates = stored.filter((r) => r.n > 1).reduce((a, r) => a + r.n - 1, 0);
    const questionsStoredTwice = stored.filter((r) => r.n > 1).length;
    const log = await dbClient<{ status: string; error_code: string | null; n: number }[]>`
      select status, error_code, count(*)::int as n from query_log where question like 'How fast are incidents reported? %' group by status, error_code`;
    const logged = Object.fromEntries(log.map((r) => [`${r.status}${r.error_code ? ` ${r.error_code}` : ''}`, r.n]));
    const answered503 = [...answers].filter(([k]) => k.startsWith('503')).reduce((a, [, n]) => a + n, 0);
    const logMatches = (logged.answered ?? 0) === fresh200 && !logged['failed INTERNAL_ERROR'] && (logged['failed DATABASE_UNAVAILABLE'] ?? 0) <= answered503;
    console.log(
      `retries (${withKeys ? 'Idempotency-Key per question' : 'no key'}), ${terminated} of ${cuts} cuts hit backends: ${asked.length} questions, ` +
        `answers ${JSON.stringify(Object.fromEntries(answers))}; never answered ${unanswered}; ` +
        `duplicates ${duplicates} (${questionsStoredTwice} questions stored more than once); answered but not stored ${asked.filter((q) => !storedMap.has(q)).length - unanswered}; ` +
        `query log ${JSON.stringify(logged)} vs ${fresh200} answers (+${replays} replays) and ${answered503} x 503: ${logMatches ? 'matches' : 'DOES NOT MATCH'}; ` +
        `health queryLog ${JSON.stringify(health.data?.queryLog ?? null)}; process ${exited ?? 'alive'}`,
    );
  } finally {
    if (!exited) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await dbClient.end({ timeout: 1 });
    await admin.unsafe(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  }
}

if (process.argv[2] === 'retries') {
  console.log(
    `load average before: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  await retries(Number(process.argv[3] ?? 20), !process.argv.includes('--no-key'));
  console.log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  await admin.end();
  process.exit(0);
}

console.log(
  `load average before: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
let exits = 0;
for (let i = 1; i <= trials; i++) exits += await trial(i);
console.log(
  `process exits: ${exits} of ${trials} trials; load average after: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
await admin.end();
