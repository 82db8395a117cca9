#!/usr/bin/env node
// Transpiles the service (src/**/*.ts) to JavaScript in dist/ when dist/ is missing or
// stale, so that `npm start` runs plain `node dist/server.js`: no TypeScript loader thread
// and no per-module transform at start (docs/performance.md, "Start-up and memory").
// Transpile only (esbuild, one output file per source file, same layout): type checking
// stays `npm run typecheck`. dist/ sits at the same depth as src/, so the paths the code
// computes from import.meta.url (data/, migrations/, web/dist) resolve the same way.
// Files other than .ts under src/ are copied. Stale = the hash of src/ and
// package-lock.json differs from dist/.build-hash; `--force` rebuilds anyway.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');
const stamp = path.join(dist, '.build-hash');

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : [p];
  });
}

export function sourceHash() {
  const inputs = [...files(src), path.join(root, 'package-lock.json'), fileURLToPath(import.meta.url)].filter((f) => existsSync(f)).sort();
  const h = createHash('sha256');
  for (const f of inputs) h.update(path.relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

export function isFresh(hash = sourceHash()) {
  return existsSync(path.join(dist, 'server.js')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash;
}

export async function buildServer({ force = false } = {}) {
  const hash = sourceHash();
  if (!force && isFresh(hash)) return false;
  const { build } = await import('esbuild');
  // Built beside, then swapped in, so that a process starting meanwhile never sees half a build.
  const tmp = `${dist}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const all = files(src);
  await build({
    entryPoints: all.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
    outdir: tmp,
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: false,
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  for (const f of all.filter((f) => !f.endsWith('.ts'))) {
    const to = path.join(tmp, path.relative(src, f));
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(f, to);
  }
  writeFileSync(path.join(tmp, '.build-hash'), `${hash}\n`);
  const old = `${dist}.old-${process.pid}`;
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(tmp, dist);
  rmSync(old, { recursive: true, force: true });
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  const built = await buildServer({ force: process.argv.includes('--force') });
  if (built) console.log(`server built into dist/ in ${Date.now() - t0} ms`);
}
