/**
 * Questionnaire round trip through the HTTP API, timed: create from the DORA template
 * (52 questions), pre-fill over the demo vendor documents (GitHub and Basecamp, as
 * indexed by the ingestion pipeline), send, vendor saves all answers, submit, analyst
 * detail with scores, list of N questionnaires.
 *
 *   npx tsx bench/questionnaire.ts [rounds]              embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/questionnaire.ts   a fresh PostgreSQL database
 */
import './lib/load.js';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { DORA_TEMPLATE } from '../src/compliance/questionnaire-template.js';
import { createMailer } from '../src/lib/mailer.js';
import { freshDatabase, registerUser, testConfig } from '../test/helpers/app.js';
import { tokenFromMail } from '../test/helpers/questionnaires.js';
import { createOrgAndWorkspace } from '../test/helpers/workspaces.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const API = '/api/v1';
const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../data/vendor-docs');

const config = testConfig();
const { database, drop } = await freshDatabase();
const mailer = createMailer({ from: config.mailFrom });
const app = await buildApp({ config, database, mailer });
await app.services.compliance.loadReferenceData();
await app.ready();

const owner = await registerUser(app);
const ws = await createOrgAndWorkspace(app, owner, 'Bench vendor');
const H = ws.headers;

// Index the demo vendor documents (files under 50 KB; one data source per vendor) through the API.
const t0 = performance.now();
const files: string[] = [];
for (const vendor of ['github', 'basecamp']) {
  const mine = readdirSync(path.join(DOCS, vendor))
    .map((f) => path.join(vendor, f))
    .filter((f) => readFileSync(path.join(DOCS, f)).length < 50_000);
  files.push(...mine);
  const created = await app.inject({
    method: 'POST',
    url: `${API}/data-sources`,
    headers: H,
    payload: {
      name: vendor,
      documents: mine.map((f) => ({
        title: path.basename(f),
        content: readFileSync(path.join(DOCS, f), 'utf8'),
        format: f.endsWith('.md') ? 'markdown' : 'text',
      })),
    },
  });
  if (created.statusCode !== 201) throw new Error(`data source: ${created.body.slice(0, 300)}`);
  const dsId = created.json().data.dataSource.id;
  for (;;) {
    const s = (await app.inject({ method: 'GET', url: `${API}/data-sources/${dsId}`, headers: H })).json().data.dataSource;
    if (s.status === 'ready' || s.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
}
console.log(`indexed ${files.length} demo documents in ${(performance.now() - t0).toFixed(0)} ms`);

const answers = DORA_TEMPLATE.questions.map((q) => ({
  questionId: q.id,
  value:
    q.type === 'yes_no'
      ? 'yes'
      : q.type === 'number'
        ? 10
        : q.type === 'date'
          ? new Date().toISOString().slice(0, 10)
          : q.type === 'choice'
            ? 'performed'
            : 'Answer text',
}));
const timings: Record<string, number[]> = {};
const time = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
  const s = performance.now();
  const out = await f();
  (timings[name] ??= []).push(performance.now() - s);
  return out;
};
const expect = <R extends { statusCode: number; body: string }>(res: R, code: number): R => {
  if (res.statusCode !== code) throw new Error(`${res.statusCode} ${res.body.slice(0, 300)}`);
  return res;
};

for (let i = 0; i < ROUNDS; i++) {
  const c = await time('create (52 questions)', async () =>
    expect(
      await app.inject({
        method: 'POST',
        url: `${API}/questionnaires`,
        headers: H,
        payload: { template: 'dora-ict-tpp', vendorContact: { email: `v${i}@bench.example` } },
      }),
      201,
    ),
  );
  const id = c.json().data.questionnaire.id;
  await time('pre-fill (52 searches)', async () => expect(await app.inject({ method: 'POST', url: `${API}/questionnaires/${id}/prefill`, headers: H }), 200));
  await time('send', async () => expect(await app.inject({ method: 'POST', url: `${API}/questionnaires/${id}/send`, headers: H }), 200));
  const token = tokenFromMail(app, `v${i}@bench.example`);
  await time('vendor GET', async () => expect(await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${token}` }), 200));
  await time('vendor save 52 answers', async () =>
    expect(await app.inject({ method: 'PUT', url: `${API}/vendor-questionnaires/${token}/answers`, payload: { answers } }), 200),
  );
  await time('vendor submit', async () =>
    expect(await app.inject({ method: 'PUT', url: `${API}/vendor-questionnaires/${token}/answers`, payload: { answers: [], submit: true } }), 200),
  );
  await time('analyst detail + scores', async () => expect(await app.inject({ method: 'GET', url: `${API}/questionnaires/${id}`, headers: H }), 200));
  await time('complete (freeze score)', async () =>
    expect(await app.inject({ method: 'PATCH', url: `${API}/questionnaires/${id}`, headers: H, payload: { status: 'complete' } }), 200),
  );
}
await time(`list (${ROUNDS} items, scores)`, async () => expect(await app.inject({ method: 'GET', url: `${API}/questionnaires?limit=100`, headers: H }), 200));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`database: ${database.kind}, rounds: ${ROUNDS}`);
for (const [name, xs] of Object.entries(timings))
  console.log(
    `${name.padEnd(28)} median ${median(xs).toFixed(1).padStart(8)} ms   max ${Math.max(...xs)
      .toFixed(1)
      .padStart(8)} ms`,
  );
await app.close();
await drop();
