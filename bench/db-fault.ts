/**
 * Connection loss under mixed read/write load, against the real server process
 * (docs/reliability.md). Each trial starts `src/server.ts` on a fresh PostgreSQL
 * database, loads it with 20 clients (GET /data-sources and POST /rag, half each),
 * terminates the service's backends three times (pg_terminate_backend, only this
 * database's sessions), then checks whether the process is still alive, what the
 * clients were answered, and how long until GET /data-sources answers 200 again.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres heavy -x node --import=tsx bench/db-fault.ts [trials]
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
