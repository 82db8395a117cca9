#!/usr/bin/env node
// Transpiles the service (src/**/*.ts) to JavaScript in dist/ when dist/ is missing or
// stale, so that `npm start` runs plain `node dist/server.js`: no TypeScript loader thread
// and no per-module transform at start (docs/performance.md, "Start-up and memory").
// Transpile only (esbuild, one output file per source file, same layout): type checking
// stays `npm run typecheck`. dist/ sits at the same depth as src/, so the paths the code
// computes from import.meta.url (data/, migrations/, web/dist) resolve the same way.
// TypeBox, hundreds of small modules, is bundled once into dist/vendor/ (VENDORED below).
// Files other than .ts under src/ are copied. Stale = the hash of src/ and
// package-lock.json differs from dist/.build-hash; `--force` rebuilds anyway.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquireBuildLock, releaseBuildLock } from './build-lock.mjs';

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

/**
 * Packages made of hundreds of small ES modules, all loaded at start (TypeBox 1.x: about 680
 * files, a quarter of a second of every start spent opening and compiling them), bundled
 * into dist/vendor/<name>.js; the service's imports of them point there. Only these
 * specifiers are imported anywhere at run time (the type provider's are type-only imports).
 */
const VENDORED = { typebox: 'typebox', 'typebox/value': 'typebox-value' };

/** Keeps every import of a transpiled file as written, except the vendored packages'. */
function keepImports(outdir) {
  return {
    name: 'keep-imports',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const vendored = VENDORED[args.path];
        if (!vendored && /^typebox(\/|$)/.test(args.path)) {
          // From node_modules it would load the 680 files again, and be a second TypeBox.
          return { errors: [{ text: `${args.path}: add it to VENDORED in scripts/build-server.mjs` }] };
        }
        if (!vendored) return { path: args.path, external: true };
        const from = path.dirname(path.join(outdir, path.relative(src, args.importer)));
        const rel = path
          .relative(from, path.join(outdir, 'vendor', `${vendored}.js`))
          .split(path.sep)
          .join('/');
        return { path: rel.startsWith('.') ? rel : `./${rel}`, external: true };
      });
    },
  };
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
  if (!force && isFresh()) return false;
  // One build at a time: the two CI runs side by side may both find dist/ missing.
  const lock = `${dist}.lock`;
  acquireBuildLock(lock, 'another server build');
  try {
    // Another process may have built it while this one waited: a second build would swap dist/
    // under a server already started from the first.
    const hash = sourceHash();
    if (!force && isFresh(hash)) return false;
    await buildInto(hash);
    return true;
  } finally {
    releaseBuildLock(lock);
  }
}

async function buildInto(hash) {
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
    // Each file stays its own module (every import is kept as written, external); "bundling"
    // only lets the plugin point the vendored packages' imports at dist/vendor/.
    bundle: true,
    plugins: [keepImports(tmp)],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // The vendored packages, bundled once: their modules shared by the entries, never two copies.
  await build({
    entryPoints: Object.entries(VENDORED).map(([pkg, out]) => ({ in: `vendor:${pkg}`, out })),
    outdir: path.join(tmp, 'vendor'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: true,
    splitting: true,
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        name: 'vendor-entries',
        setup(b) {
          b.onResolve({ filter: /^vendor:/ }, (args) => ({ path: args.path.slice('vendor:'.length), namespace: 'vendor' }));
          b.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({ contents: `export * from '${args.path}';`, resolveDir: root }));
        },
      },
    ],
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
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  const built = await buildServer({ force: process.argv.includes('--force') });
  if (built) console.log(`server built into dist/ in ${Date.now() - t0} ms`);
}
