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
