#!/usr/bin/env node
// Builds the dashboard (web/) into web/dist when the build is missing or stale, so that
// `npm start` and the browser tests always serve the current sources (docs/dashboard.md).
// Stale = the hash of web/'s sources and package-lock.json differs from web/dist/.build-hash.
// `--force` rebuilds anyway. One build at a time (a lock directory), so parallel test files
// wait for one build instead of racing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquireBuildLock, releaseBuildLock } from './build-lock.mjs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'web');
const dist = path.join(web, 'dist');
const stamp = path.join(dist, '.build-hash');
const lock = path.join(web, '.build-lock');

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : [p];
  });
}

/** Hash of everything the build reads. */
export function sourceHash() {
  const inputs = [
    ...['index.html', 'package.json', 'tsconfig.json', 'vite.config.ts'].map((f) => path.join(web, f)),
    ...files(path.join(web, 'src')),
    ...files(path.join(web, 'public')),
    // The dashboard imports the code lists (data) and the API's types from src/domain.
    ...files(path.join(root, 'src', 'domain')),
    path.join(root, 'package-lock.json'),
  ]
    .filter((f) => existsSync(f))
    .sort();
  const h = createHash('sha256');
  for (const f of inputs) h.update(path.relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

export function isFresh(hash = sourceHash()) {
  return existsSync(path.join(dist, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash;
}

/** Pre-compressed siblings of the hashed assets (served by @fastify/static when accepted). */
function precompress() {
  for (const f of files(path.join(dist, 'assets'))) {
    if (!/\.(js|css|svg|json|html)$/.test(f)) continue;
    const buf = readFileSync(f);
    if (buf.length < 1024) continue;
    writeFileSync(`${f}.gz`, gzipSync(buf, { level: 9 }));
    writeFileSync(`${f}.br`, brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  }
}

/** Builds when needed; returns what it did. Throws when the build fails. */
export function ensureWebBuild({ force = false, log = console.log } = {}) {
  let hash = sourceHash();
  if (!force && isFresh(hash)) return 'fresh';
  acquireBuildLock(lock, 'another dashboard build');
  try {
    hash = sourceHash();
    if (!force && isFresh(hash)) return 'fresh'; // another process built it meanwhile
    const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
    if (!existsSync(vite)) {
      if (existsSync(path.join(dist, 'index.html'))) {
        log('dashboard: sources changed but vite is not installed (npm install); serving the existing build');
        return 'stale';
      }
      throw new Error('the dashboard is not built and vite is not installed: run npm install');
    }
    log('dashboard: building web/ (vite build)…');
    const started = Date.now();
    const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: web, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status})`);
    precompress();
    writeFileSync(stamp, `${hash}\n`);
    log(`dashboard: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 'built';
  } finally {
    releaseBuildLock(lock);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureWebBuild({ force: process.argv.includes('--force') });
  } catch (err) {
    console.error(`dashboard: ${err.message}`);
    process.exit(1);
  }
}
