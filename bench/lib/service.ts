/**
 * The service as benches run it: a database of its own (a PostgreSQL database created
 * beside DATABASE_URL's and dropped at the end, or a temporary PGlite data directory)
 * and the server in a child process (`node dist/server.js` as `npm start` runs it, or
 * through tsx), its log in a file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';

/** The database: a fresh PostgreSQL database or a PGlite data directory. */
export async function prepareDatabase(bench: string): Promise<{ env: Record<string, string>; label: string; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (base) {
    const name = `bench_${bench}_${process.pid}`;
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE "${name}"`);
    const u = new URL(base);
    u.pathname = `/${name}`;
    return {
      env: { DATABASE_URL: u.toString() },
      label: 'PostgreSQL',
      drop: async () => {
        await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), `dora-${bench}-`));
  return { env: { DATABASE_URL: '', PGLITE_DATA_DIR: dir }, label: 'PGlite', drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function spawnServer(args: string[], env: Record<string, string>): Promise<Server> {
  // The log goes to a file, as it would to a log collector: a pipe read by this (busy)
  // process would fill up and stall the server's synchronous log writes.
  const logFile = path.join(mkdtempSync(path.join(tmpdir(), 'dora-bench-log-')), 'server.log');
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', fd, 'inherit'],
  });
  closeSync(fd);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  let port: string | undefined;
  while (!port) {
    const out = readFileSync(logFile, 'utf8');
    if (exited) throw new Error(`server exited before listening:\n${out}`);
    port = /listening at http:\/\/127\.0\.0\.1:(\d+)/i.exec(out)?.[1];
    if (!port) await sleep(20);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    stop: async () => {
      if (!exited) child.kill('SIGTERM');
      await exit;
      rmSync(path.dirname(logFile), { recursive: true, force: true });
    },
  };
}
