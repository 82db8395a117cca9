import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// The formatter and linter (Biome, biome.json: 160 columns, the house style, the
// recommended rules less those the codebase deliberately departs from) run with the
// suite: code that is not formatted, or that trips a lint error, fails here with the
// file and line. `npx biome check --write .` formats and applies the safe fixes.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

t.test('biome ci: formatted, no lint errors', async (t) => {
  const r = spawnSync(path.join(root, 'node_modules', '.bin', 'biome'), ['ci', '--colors=off', '--max-diagnostics=30', '.'], { cwd: root, encoding: 'utf8' });
  t.equal(r.status, 0, `biome ci failed:\n${r.stdout}\n${r.stderr}`.slice(0, 6000));
});

// The floors of docs/code-structure.md: a file imports only from its own floor or below.
// Listed here as what each floor may NOT import (relative imports, resolved against src/).
t.test('no import runs up the floors', async (t) => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const src = path.join(root, 'src');
  const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => f.split(path.sep).join('/'));
  const floorOf = (f: string) => f.split('/')[0]!;
  const forbidden: Record<string, string[]> = {
    domain: ['lib', 'db', 'rag', 'ingest', 'compliance', 'mcp', 'jobs', 'modules', 'plugins', 'services.ts', 'app.ts'],
    lib: ['rag', 'ingest', 'compliance', 'mcp', 'jobs', 'modules', 'plugins', 'services.ts', 'app.ts'],
    db: ['rag', 'ingest', 'compliance', 'mcp', 'jobs', 'modules', 'plugins', 'services.ts', 'app.ts'],
    rag: ['modules', 'plugins', 'services.ts', 'app.ts'],
    ingest: ['modules', 'plugins', 'services.ts', 'app.ts'],
    compliance: ['modules', 'plugins', 'services.ts', 'app.ts'],
    mcp: ['modules', 'plugins', 'services.ts', 'app.ts'],
    jobs: ['modules', 'plugins', 'services.ts', 'app.ts'],
    // The request path sits below the modules: the plugins take what they share with them from src/lib.
    plugins: ['modules', 'services.ts', 'app.ts'],
    modules: ['app.ts'],
  };
  const up: string[] = [];
  for (const f of files) {
    const banned = forbidden[floorOf(f)];
    if (!banned) continue;
    for (const m of readFileSync(path.join(src, f), 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(f), m[1]!));
      if (target.startsWith('..')) continue;
      if (banned.includes(floorOf(target))) up.push(`${f} -> ${target}`);
    }
  }
  t.same(up, [], 'imports that run up the floors');
});

// No room grows too large (docs/code-structure.md, "A module"): every file of a module but its
// repository (the resource's SQL, kept in one place) stays within 400 lines; a service that
// outgrows it is split by concern beside its service.ts, as workspaces and questionnaires are.
t.test('no module file above 400 lines', async (t) => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const modules = path.join(root, 'src', 'modules');
  const over: string[] = [];
  for (const m of readdirSync(modules)) {
    for (const f of readdirSync(path.join(modules, m))) {
      if (!f.endsWith('.ts') || f === 'repository.ts') continue;
      const lines = readFileSync(path.join(modules, m, f), 'utf8').split('\n').length - 1;
      if (lines > 400) over.push(`src/modules/${m}/${f}: ${lines} lines`);
    }
  }
  t.same(over, [], 'module files above 400 lines');
});
