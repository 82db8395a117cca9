import { readdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { buildTestApp, registerUser, type TestContext } from '../helpers/app.js';
import { ingest, VENDOR_DOCS, vendorDoc } from '../helpers/rag.js';
import { createOrgAndWorkspace, createWorkspace } from '../helpers/workspaces.js';

// The same documents give the same answer on every installation and after a re-upload
// (docs/retrieval.md, "Ties"): rankings never depend on the random ids of the chunks.

const QUESTIONS = [
  'How often does Article 26 require TLPT?',
  'What does DORA Article 28 require for contractual arrangements?',
  'What must the register of information contain?',
  'How much notice does GitHub give before adding a new subprocessor?',
  'What uptime does GitHub commit to?',
  'How are security incidents reported to customers?',
  'Which audit rights does the customer have?',
  'What must financial entities report about major ICT-related incidents?',
];

const github = readdirSync(path.join(VENDOR_DOCS, 'github')).map((f) => ({ title: f, content: vendorDoc(`github/${f}`) }));

/** What an analyst sees of an answer (ids and workspace-specific links left out). */
type Seen = { answer: string; sources: { title: string; section: string; content: string; score: number }[] };

async function answers(app: TestContext['app'], headers: Record<string, string>): Promise<Seen[]> {
  const out: Seen[] = [];
  for (const question of QUESTIONS) {
    const res = await app.inject({ method: 'POST', url: '/api/v1/rag', headers, payload: { question } });
    if (res.statusCode !== 200) throw new Error(`${question}: ${res.statusCode} ${res.body}`);
    const d = res.json().data;
    out.push({
      answer: d.answer,
      sources: d.sources.map((s: Seen['sources'][number]) => ({ title: s.title, section: s.section, content: s.content, score: s.score })),
    });
  }
  return out;
}

async function installation(closeWith: (close: () => Promise<void>) => void) {
  const ctx = await buildTestApp();
  closeWith(ctx.close);
  await ctx.app.services.dataSources.indexCorpus();
  const user = await registerUser(ctx.app);
  const ws = await createOrgAndWorkspace(ctx.app, user, 'GitHub');
  await ingest(ctx.app, ws.headers, 'GitHub documents', github);
  return { ctx, user, ws };
}

t.test('two installations with the same documents answer alike', async (t) => {
  const one = await installation((close) => t.teardown(close));
  const two = await installation((close) => t.teardown(close));
  const a = await answers(one.ctx.app, one.ws.headers);
  const b = await answers(two.ctx.app, two.ws.headers);
  QUESTIONS.forEach((q, i) => t.same(b[i], a[i], q));

  // The same documents uploaded again, in another workspace of the first installation.
  const again = await createWorkspace(one.ctx.app, one.user, 'GitHub again');
  await ingest(one.ctx.app, again.headers, 'GitHub documents', github);
  const c = await answers(one.ctx.app, again.headers);
  QUESTIONS.forEach((q, i) => t.same(c[i], a[i], `${q} (uploaded again)`));
});
