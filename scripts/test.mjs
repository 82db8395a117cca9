#!/usr/bin/env node
// Runs the test suite with tap and ends with the plain line `N passed, N failed`.
// tap needs `tap build` once after its plugin list changes (DESIGN.md); a marker
// in node_modules/.cache remembers which plugin list was built.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const tapBin = path.join(root, 'node_modules', '.bin', 'tap');
const marker = path.join(root, 'node_modules', '.cache', 'tap-build.json');
const wanted = JSON.stringify({ plugin: pkg.tap?.plugin ?? [], version: pkg.devDependencies?.tap });
if (!existsSync(marker) || readFileSync(marker, 'utf8') !== wanted) {
  const built = spawnSync(tapBin, ['build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) {
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  mkdirSync(path.dirname(marker), { recursive: true });
  writeFileSync(marker, wanted);
}
// `--build-only`: only the build above (CI runs it once before starting two runs side by side).
if (process.argv.includes('--build-only')) process.exit(0);

const verbose = process.env.TEST_VERBOSE === '1';
const child = spawn(tapBin, ['--reporter=tap', ...process.argv.slice(2)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
let summary = null;
let buffer = '';
let inFailure = false;
const show = (line) => {
  const m = /^# \{ (.*) \}$/.exec(line);
  if (m)
    summary = Object.fromEntries(
      m[1]
        .split(',')
        .map((kv) => kv.split(':').map((s) => s.trim()))
        .map(([k, v]) => [k, Number(v)]),
    );
  if (verbose) return console.log(line);
  // Top-level lines (one per test file), and every failure with its diagnostics.
  if (/^\s*not ok /.test(line)) inFailure = true;
  if (inFailure || !/^\s/.test(line)) console.log(line);
  if (inFailure && /^\s*\.\.\.$/.test(line)) inFailure = false;
};
child.stdout.on('data', (chunk) => {
  buffer += chunk;
  const lines = buffer.split('\n');
  buffer = lines.pop();
  lines.forEach(show);
});
child.on('close', (code) => {
  if (buffer) show(buffer);
  const s = summary ?? {};
  const pass = s.pass ?? 0;
  const fail = (s.fail ?? 0) + (summary ? 0 : 1);
  const skip = (s.skip ?? 0) + (s.todo ?? 0);
  console.log(`${pass} passed, ${fail} failed${skip ? `, ${skip} skipped` : ''}`);
  process.exit(code === 0 && fail === 0 ? 0 : 1);
});
