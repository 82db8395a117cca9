/**
 * Start-up time and idle memory of the service process as `npm start` runs it
 * (`node dist/server.js`, built first when stale; `--tsx`: `node --import=tsx src/server.ts`
 * as the tests and `npm run dev` run it): from spawn to the first 200 of `GET /health`, then the resident set size
 * after it has been idle for a few seconds. On PGlite in memory (first start every time:
 * migrations + reference data + corpus), on a PGlite data directory (first start, then
 * warm restarts), and on PostgreSQL when DATABASE_URL is set (a database created for the
 * bench beside DATABASE_URL's and dropped at the end: first start, then warm restarts).
 *
 *   node --import=tsx bench/startup.ts [runs] [--tsx]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import=tsx bench/startup.ts 5
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { buildServer } from '../scripts/build-server.mjs';
import { loadAverage, median } from './lib/machine.js';

const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
const viaTsx = args.includes('--tsx');
const entry = viaTsx ? ['--import=tsx', 'src/server.ts'] : ['dist/server.js'];
if (!viaTsx) await buildServer();
const IDLE_MS = Number(process.env.IDLE_MS ?? 5000);

interface Start {
  /** Spawn to the first 200 of GET /health. */
  ms: number;
  /** Resident set size after IDLE_MS of idleness, MB. */
  rssMb: number;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function startOnce(env: Record<string, string>): Promise<Start> {
  const t0 = performance.now();
  const child = spawn(process.execPath, entry, {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', WORKERS: '1', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) => child.once('exit', (code) => ((exited = code), resolve())));
  child.stdout.on('data', (c) => (out += c));
  try {
    // The port comes from fastify's "Server listening at" line (PORT=0).
    let port: string | undefined;
    while (!port) {
      if (exited !== undefined) throw new Error(`exited ${exited} before listening:\n${out}`);
      port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      if (!port) await sleep(5);
    }
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
      if (res?.status === 200) {
        await res.arrayBuffer();
        break;
      }
      if (exited !== undefined) throw new Error(`exited ${exited} before /health answered 200:\n${out}`);
      await sleep(5);
    }
    const ms = performance.now() - t0;
    await sleep(IDLE_MS);
    return { ms, rssMb: rssMb(child.pid!) };
  } finally {
    if (exited === undefined) child.kill('SIGTERM');
    await exit;
  }
}

const fmt = (xs: Start[]) => {
  const ms = xs.map((x) => x.ms);
  const mb = xs.map((x) => x.rssMb);
  return `start to first 200: median ${median(ms).toFixed(0)} ms (min ${Math.min(...ms).toFixed(0)}, max ${Math.max(...ms).toFixed(0)}, n=${xs.length}); idle RSS median ${median(mb).toFixed(0)} MB (max ${Math.max(...mb).toFixed(0)})`;
};
const one = (x: Start) => `start to first 200: ${x.ms.toFixed(0)} ms; idle RSS ${x.rssMb.toFixed(0)} MB`;

console.log(`bench/startup.ts: node ${entry.join(' ')}, ${runs} runs each, RSS after ${IDLE_MS} ms idle; before: ${loadAverage()}`);

const mem: Start[] = [];
for (let i = 0; i < runs; i++) mem.push(await startOnce({ DATABASE_URL: '', PGLITE_DATA_DIR: 'memory://' }));
console.log(`PGlite in memory (cold every time):  ${fmt(mem)}`);

const dir = mkdtempSync(path.join(tmpdir(), 'dora-start-'));
try {
  const first = await startOnce({ DATABASE_URL: '', PGLITE_DATA_DIR: dir });
  const warm: Start[] = [];
  for (let i = 0; i < runs; i++) warm.push(await startOnce({ DATABASE_URL: '', PGLITE_DATA_DIR: dir }));
  console.log(`PGlite data dir, first start:        ${one(first)}`);
  console.log(`PGlite data dir, warm restart:       ${fmt(warm)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (process.env.DATABASE_URL) {
  const url = new URL(process.env.DATABASE_URL);
  const name = `bench_startup_${process.pid}`;
  const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  url.pathname = `/${name}`;
  try {
    const first = await startOnce({ DATABASE_URL: url.toString() });
    const pg: Start[] = [];
    for (let i = 0; i < runs; i++) pg.push(await startOnce({ DATABASE_URL: url.toString() }));
    console.log(`PostgreSQL, first start:             ${one(first)}`);
    console.log(`PostgreSQL, warm restart:            ${fmt(pg)}`);
  } finally {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}
console.log(`after: ${loadAverage()}`);
