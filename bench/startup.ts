/**
 * Start-up time of the service process (`src/server.ts`): from spawn to "Server listening",
 * on PGlite in memory (first start: migrations + reference data every time), on a PGlite data
 * directory (first start, then warm restarts), and on PostgreSQL when DATABASE_URL is set.
 *   node --import=tsx bench/startup.ts [runs]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const runs = Number(process.argv[2] ?? 5);

function startOnce(env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import=tsx', 'src/server.ts'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (/Server listening at/.test(out)) {
        const ms = performance.now() - t0;
        child.once('exit', () => resolve(ms));
        child.kill('SIGTERM');
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening:\n${out}`)));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs: number[]) => `median ${median(xs).toFixed(0)} ms  (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}, n=${xs.length})`;

const mem: number[] = [];
for (let i = 0; i < runs; i++) mem.push(await startOnce({ DATABASE_URL: '', PGLITE_DATA_DIR: 'memory://' }));
console.log(`PGlite in memory (cold every time):  ${fmt(mem)}`);

const dir = mkdtempSync(path.join(tmpdir(), 'dora-start-'));
const first = await startOnce({ DATABASE_URL: '', PGLITE_DATA_DIR: dir });
const warm: number[] = [];
for (let i = 0; i < runs; i++) warm.push(await startOnce({ DATABASE_URL: '', PGLITE_DATA_DIR: dir }));
rmSync(dir, { recursive: true, force: true });
console.log(`PGlite data dir, first start:        ${first.toFixed(0)} ms`);
console.log(`PGlite data dir, warm restart:       ${fmt(warm)}`);
console.log(`warm restart / in-memory cold ratio: ${(median(warm) / median(mem)).toFixed(2)}`);

if (process.env.DATABASE_URL) {
  const pg: number[] = [];
  for (let i = 0; i < runs; i++) pg.push(await startOnce({}));
  console.log(`PostgreSQL (${new URL(process.env.DATABASE_URL).host}):       ${fmt(pg)}`);
}
