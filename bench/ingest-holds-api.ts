/**
 * Does ingestion hold the API? The service as `npm start` runs it (`node dist/server.js`,
 * a child process, one worker), one vendor workspace; an analyst uploads FILES real vendor
 * documents (the demo set, each copy made unique so nothing is reused) as data sources of
 * PER_SOURCE files, as fast as the API takes them, and while they are ingested other
 * requests arrive on a fixed schedule, whether or not the earlier ones were answered
 * (open loop: a stalled server shows as the latency its users would see):
 *   - reads: `GET /workspaces` every 100 ms, `GET /data-sources` and `GET /workspaces/:id`
 *     every 250 ms;
 *   - uploads: one small text file as a new data source every second.
 * The same probes run for PROBE_S seconds before the bulk upload (the idle figures).
 * Prints the latency of each kind (p50 / p95 / max), the bulk upload requests, the time
 * until every data source is `ready`, and the machine's load average.
 *
 *   node --import=tsx bench/ingest-holds-api.ts [--files 200] [--per-source 10] [--probe-s 10] [--tsx] [--cpu-prof DIR]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import=tsx bench/ingest-holds-api.ts
 *
 * Goal (docs/performance.md): on PGlite, uploads and reads answer within 200 ms p95 while
 * a 200-file ingestion runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { createDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { registerUser, testConfig } from '../test/helpers/app.js';
import { createOrgAndWorkspace } from '../test/helpers/workspaces.js';
import { loadAverage, percentile } from './lib/machine.js';
import { prepareDatabase, spawnServer } from './lib/service.js';

const { values: args } = parseArgs({
  options: {
    files: { type: 'string', default: '200' },
    'per-source': { type: 'string', default: '10' },
    'probe-s': { type: 'string', default: '10' },
    tsx: { type: 'boolean', default: false },
    // Write a V8 CPU profile of the service into this directory (node --cpu-prof) when it stops.
    'cpu-prof': { type: 'string' },
  },
});
const FILES = Number(args.files);
const PER_SOURCE = Number(args['per-source']);
const PROBE_S = Number(args['probe-s']);

const ENV = {
  NODE_ENV: 'production',
  JWT_SECRET: 'bench-ingest-holds-api-secret-0123456789abcdef',
  SECRETS_KEY: 'bench-ingest-holds-api-key-0123456789abcdefgh',
  LOG_LEVEL: 'info',
  REDIS_URL: '',
  SMTP_URL: '',
  RATE_LIMIT_ENABLED: 'false',
  WORKERS: '1',
};

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const DOCS = ['github', 'basecamp'].flatMap((v) => {
  const dir = path.join(ROOT, 'data', 'vendor-docs', v);
  return readdirSync(dir)
    .filter((f) => /\.(md|txt)$/.test(f))
    .map((f) => ({ name: f, text: readFileSync(path.join(dir, f), 'utf8') }));
});

async function seed(env: Record<string, string>): Promise<{ token: string; workspaceId: string }> {
  const database = await createDatabase({ url: env.DATABASE_URL || undefined, pgliteDataDir: env.PGLITE_DATA_DIR });
  await runMigrations(database);
  const config = { ...testConfig({ workers: 0, jwtSecret: ENV.JWT_SECRET, secretsKey: ENV.SECRETS_KEY }), accessTokenTtlSec: 3600 };
  const app = await buildApp({ config, database });
  await app.ready();
  try {
    await app.services.compliance.loadReferenceData();
    const owner = await registerUser(app);
    const { workspaceId } = await createOrgAndWorkspace(app, owner, 'Bench Vendor', 'Bench Bank');
    return { token: owner.accessToken, workspaceId };
  } finally {
    await app.close();
    await database.close();
  }
}

type Kind = 'GET /workspaces' | 'GET /data-sources' | 'GET /workspaces/:id' | 'POST /data-sources (1 small file)';
const KINDS: Kind[] = ['GET /workspaces', 'GET /data-sources', 'GET /workspaces/:id', 'POST /data-sources (1 small file)'];

console.log(`bench/ingest-holds-api.ts: ${FILES} files in sources of ${PER_SOURCE}, probes ${PROBE_S} s idle; before: ${loadAverage()}`);
const db = await prepareDatabase('ingest_api');
try {
  const { token, workspaceId } = await seed(db.env);
  if (!args.tsx) await (await import('../scripts/build-server.mjs')).buildServer();
  const prof = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(args['cpu-prof'])] : [];
  const server = await spawnServer([...prof, ...(args.tsx ? ['--import=tsx', 'src/server.ts'] : ['dist/server.js'])], { ...ENV, ...db.env });
  const auth = { authorization: `Bearer ${token}`, 'x-workspace-id': workspaceId };
  const api = (p: string) => `${server.url}/api/v1${p}`;
  let probeUploads = 0;
  const idleUploads: string[] = [];
  const upload = async (files: { name: string; text: string }[], name: string) => {
    const form = new FormData();
    form.set('name', name);
    for (const f of files) form.append('files', new Blob([f.text], { type: 'text/plain' }), f.name);
    const res = await fetch(api('/data-sources'), { method: 'POST', headers: auth, body: form });
    if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return ((await res.json()) as { data: { dataSource: { id: string } } }).data.dataSource.id;
  };

  /** Fires the probes on their schedule for as long as `running()`; resolves with the latencies of each kind. */
  async function probe(running: () => boolean): Promise<Map<Kind, number[]>> {
    const lat = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
    const pending: Promise<void>[] = [];
    const fire = (kind: Kind, call: () => Promise<Response | string>) => {
      const t0 = performance.now();
      pending.push(
        call().then(async (res) => {
          if (res instanceof Response) {
            await res.arrayBuffer();
            if (res.status !== 200) throw new Error(`${kind}: ${res.status}`);
          }
          lat.get(kind)!.push(performance.now() - t0);
        }),
      );
    };
    for (let tick = 0; running(); tick++) {
      fire('GET /workspaces', () => fetch(api('/workspaces'), { headers: auth }));
      if (tick % 5 === 0) fire('GET /data-sources', () => fetch(api('/data-sources?limit=20'), { headers: auth }));
      if (tick % 5 === 2) fire('GET /workspaces/:id', () => fetch(api(`/workspaces/${workspaceId}`), { headers: auth }));
      if (tick % 10 === 7) {
        const n = ++probeUploads;
        fire('POST /data-sources (1 small file)', () =>
          upload(
            [{ name: `note-${n}.txt`, text: `Analyst note ${n}: the vendor confirmed encryption at rest with AES-256 and key rotation every 90 days.` }],
            `Note ${n}`,
          ).then((id) => (idleUploads.push(id), id)),
        );
      }
      await sleep(100);
    }
    await Promise.all(pending);
    return lat;
  }

  const report = (label: string, lat: Map<Kind, number[]>) => {
    console.log(`\n${label}`);
    for (const [kind, xs] of lat) {
      if (!xs.length) continue;
      console.log(
        `  ${kind.padEnd(36)} n=${String(xs.length).padStart(4)}   p50 ${percentile(xs, 50).toFixed(0).padStart(6)} ms   p95 ${percentile(xs, 95).toFixed(0).padStart(6)} ms   max ${Math.max(
          ...xs,
        )
          .toFixed(0)
          .padStart(6)} ms`,
      );
    }
    const all = [...lat.values()].flat();
    console.log(
      `  ${'all probes'.padEnd(36)} n=${String(all.length).padStart(4)}   p50 ${percentile(all, 50).toFixed(0).padStart(6)} ms   p95 ${percentile(all, 95).toFixed(0).padStart(6)} ms   max ${Math.max(
        ...all,
      )
        .toFixed(0)
        .padStart(6)} ms`,
    );
  };

  try {
    // Warm-up, then idle probes.
    await fetch(api('/workspaces'), { headers: auth });
    const idleEnd = Date.now() + PROBE_S * 1000;
    report(`${db.label}, idle (no ingestion), ${PROBE_S} s`, await probe(() => Date.now() < idleEnd));
    // Let the probe uploads of the idle phase be ingested before the bulk upload starts.
    /** Waits until these data sources are `ready` (or `failed`); returns how many failed. */
    const waitReady = async (ids: string[], limitS: number) => {
      for (let i = 0; ; i++) {
        const states = await Promise.all(
          ids.map((id) => fetch(api(`/data-sources/${id}`), { headers: auth }).then((r) => r.json() as Promise<{ data: { dataSource: { status: string } } }>)),
        );
        const open = states.filter((s) => s.data.dataSource.status === 'pending' || s.data.dataSource.status === 'processing').length;
        if (open === 0) return states.filter((s) => s.data.dataSource.status === 'failed').length;
        if (i > limitS * 2) throw new Error(`${open} data sources still being ingested after ${limitS} s`);
        await sleep(500);
      }
    };
    await waitReady(idleUploads, 120);
    console.log(`\nbulk upload starts; ${loadAverage()}`);

    const t0 = performance.now();
    let done = false;
    let uploaded = 0;
    const bulk: number[] = [];
    const bulkIds: string[] = [];
    const probes = probe(() => !done);
    try {
      for (let s = 0; s * PER_SOURCE < FILES; s++) {
        const files = Array.from({ length: Math.min(PER_SOURCE, FILES - s * PER_SOURCE) }, (_, j) => {
          const i = s * PER_SOURCE + j;
          const d = DOCS[i % DOCS.length]!;
          return {
            name: `${i}-${d.name}`,
            text: `Copy ${i} of ${d.name}, received ${new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10)}.\n\n${d.text}`,
          };
        });
        const u0 = performance.now();
        bulkIds.push(await upload(files, `Bulk ${s + 1}`));
        bulk.push(performance.now() - u0);
        uploaded += files.length;
      }
      const uploadedAt = performance.now();
      const failed = await waitReady(bulkIds, 1800);
      const readyAt = performance.now();
      done = true;
      const lat = await probes;
      report(
        `${db.label}, during the ingestion of ${uploaded} files (${(uploadedAt - t0).toFixed(0)} ms to upload them in ${bulk.length} requests, ready ${((readyAt - t0) / 1000).toFixed(1)} s after the first)`,
        lat,
      );
      console.log(
        `  bulk upload requests (${PER_SOURCE} files each): p50 ${percentile(bulk, 50).toFixed(0)} ms, max ${Math.max(...bulk).toFixed(0)} ms${failed ? `; ${failed} data sources not ready` : ''}`,
      );
    } finally {
      done = true;
      await probes.catch(() => {});
    }
  } finally {
    await server.stop();
  }
  console.log(`\nafter: ${loadAverage()}`);
} finally {
  await db.drop();
}
