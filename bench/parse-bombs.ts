/**
 * Parse bombs against POST /data-sources (docs/reliability.md): for each hostile file,
 * a fresh process builds the app (PGlite in memory, no job workers), uploads the file
 * and meanwhile probes GET /health back to back. Prints, per bomb: the answer, how long
 * it took, how many /health probes answered while the upload was under way and the
 * slowest of them, the longest event-loop stall, and RSS before / at peak / after.
 *
 *   heavy -x node --import=tsx bench/parse-bombs.ts            all bombs, one process each
 *   node --import=tsx bench/parse-bombs.ts docx-text           one bomb in this process
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { freshDatabase, registerUser, testConfig } from '../test/helpers/app.js';
import { docxTextBomb, docxTreeBomb, jsonDeepBomb, pdfGarbage, xlsxBomb, xlsxSharedStringsBomb } from '../test/helpers/bombs.js';
import { multipartBody } from '../test/helpers/dataSources.js';
import { createOrgAndWorkspace } from '../test/helpers/workspaces.js';

/** Each bomb, and a small file of its kind parsed first (the parser loaded, its code not counted as the bomb's memory). */
const BOMBS: Record<string, { filename: string; make: () => Promise<Buffer> | Buffer; warm: () => Promise<Buffer> | Buffer }> = {
  'docx-text': { filename: 'bomb-text.docx', make: () => docxTextBomb(), warm: () => docxTextBomb(4096) },
  'docx-tree': { filename: 'bomb-tree.docx', make: () => docxTreeBomb(), warm: () => docxTreeBomb(4096) },
  xlsx: { filename: 'bomb.xlsx', make: () => xlsxBomb(), warm: () => xlsxBomb(3) },
  'xlsx-strings': { filename: 'strings.xlsx', make: () => xlsxSharedStringsBomb(), warm: () => xlsxSharedStringsBomb(30) },
  'json-deep': { filename: 'deep.json', make: () => jsonDeepBomb(), warm: () => jsonDeepBomb(3) },
  'pdf-garbage': { filename: 'garbage.pdf', make: () => pdfGarbage(), warm: () => pdfGarbage(4096) },
};

const MB = 1024 * 1024;
const which = process.argv[2];

if (!which) {
  console.log(
    `load average before: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  for (const name of Object.keys(BOMBS)) {
    const r = spawnSync(process.execPath, [...process.execArgv, new URL(import.meta.url).pathname, name], { stdio: 'inherit' });
    if (r.status !== 0) console.log(`${name}: exited ${r.status ?? r.signal}`);
  }
  console.log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
} else {
  const bomb = BOMBS[which];
  if (!bomb) throw new Error(`unknown bomb ${which}; one of ${Object.keys(BOMBS).join(', ')}`);
  const content = await bomb.make();
  const config = testConfig({ workers: 0 });
  const { database, drop } = await freshDatabase();
  const app = await buildApp({ config, database });
  await app.ready();
  const owner = await registerUser(app);
  const { headers } = await createOrgAndWorkspace(app, owner);
  const { payload, contentType } = multipartBody([{ filename: bomb.filename, content }]);
  // Warm up the route, /health and a parse worker with the parser of this kind of file, so
  // that first-use costs (a worker thread loading its code) are not counted as the bomb's.
  await app.inject({ method: 'GET', url: '/health' });
  const warm = multipartBody([{ filename: bomb.filename, content: await bomb.warm() }]);
  await app.inject({ method: 'POST', url: '/api/v1/data-sources', headers: { ...headers, 'content-type': warm.contentType }, payload: warm.payload });
  await new Promise((r) => setTimeout(r, 500));
  (globalThis as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss;

  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let done = false;
  const probes: number[] = [];
  // The peak is sampled during the upload (every 5 ms, off the probes' timer): the process's
  // lifetime maximum (maxRSS) would also hold the start of the worker and the bomb's making.
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const probing = (async () => {
    while (!done) {
      const t = performance.now();
      const h = await app.inject({ method: 'GET', url: '/health' });
      if (!done) probes.push(performance.now() - t);
      if (h.statusCode !== 200) console.log(`  /health answered ${h.statusCode}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  const res = await app.inject({ method: 'POST', url: '/api/v1/data-sources', headers: { ...headers, 'content-type': contentType }, payload });
  const ms = performance.now() - t0;
  done = true;
  await probing;
  loop.disable();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const rssAfter = process.memoryUsage().rss;
  const body = res.json();
  console.log(
    `${which.padEnd(12)} ${(content.length / 1024).toFixed(0).padStart(5)} KB -> ${res.statusCode} ${body.error?.code ?? ''} in ${(ms / 1000).toFixed(1)} s; ` +
      `/health answered ${probes.length}x during the upload, slowest ${probes.length ? Math.max(...probes).toFixed(0) : '-'} ms; ` +
      `longest event-loop stall ${(loop.max / 1e6).toFixed(0)} ms; RSS ${(rssBefore / MB).toFixed(0)} MB before, ${(peak / MB).toFixed(0)} MB peak (+${((peak - rssBefore) / MB).toFixed(0)}), ${(rssAfter / MB).toFixed(0)} MB after`,
  );
  console.log(`  ${body.message}`);
  await app.close();
  await drop();
}
