import t from 'tap';
import { verdictOf } from '../../src/compliance/judgement.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { createAssessment, vendorDocs, waitForAssessment } from '../helpers/assessments.js';
import { startFakeAnthropic } from '../helpers/fakeAnthropic.js';
import { ingest, vendorDoc } from '../helpers/rag.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * Judgement questions through POST /rag (docs/rag.md, "Judgement questions"): the obligation
 * engine's reading of the workspace's documents is in the answer of both generators, with the
 * passages of both sides among the sources; the `anthropic` prompt (a local fake Messages API)
 * carries the obligation, its elements and the engine's verdict.
 */

const API = '/api/v1';
const QUESTION = "Does GitHub's contract meet DORA Art. 30 termination rights?";

t.test('a judgement question is answered through the obligation engine', async (t) => {
  const fake = await startFakeAnthropic();
  t.teardown(fake.close);
  const base = testConfig();
  const ctx = await buildTestApp({
    rag: {
      ...base.rag,
      generator: 'anthropic',
      anthropic: { apiKey: fake.apiKey, baseUrl: fake.url, model: 'claude-fake-1', maxTokens: 600, timeoutMs: 3000, maxRetries: 0 },
    },
  });
  t.teardown(ctx.close);
  const { app } = ctx;
  await app.services.dataSources.indexCorpus();
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub');
  await ingest(app, ws.headers, 'GitHub contract', [
    { title: 'GitHub Corporate Terms of Service', content: vendorDoc('github/github-corporate-terms-of-service.md') },
    { title: 'GitHub Data Protection Agreement', content: vendorDoc('github/github-data-protection-agreement.md') },
  ]);
  fake.reply((req) => {
    const user = req.body.messages[req.body.messages.length - 1].content as string;
    const dora = /DORA text \[Source (\d+)\]/.exec(user)?.[1] ?? '1';
    return { text: `GitHub's terms give termination rights with a notice period, as DORA Article 30(2)(h) requires [Source ${dora}].` };
  });

  const res = await app.inject({ method: 'POST', url: `${API}/rag`, headers: ws.headers, payload: { question: QUESTION } });
  t.equal(res.statusCode, 200, res.body);
  const a = res.json().data;
  const user = fake.requests.at(-1)!.body.messages.at(-1)!.content as string;
  t.match(user, /Judgement frame/);
  t.match(user, /Obligation: DORA Article 30\(2\)\(h\), Termination rights and notice periods\./, 'the obligation');
  t.match(
    user,
    /Elements and the reading of the vendor documents:\n- [^\n]+: (met|met with a limitation|only partly met|not found)/,
    'its elements and how each is met',
  );
  t.match(user, /Verdict of the engine: GitHub (meets|partly meets|does not meet|the documents do not address it)\./, "the engine's verdict");
  // Both sides among the sources, fenced for the model.
  const titles = a.sources.map((s: { title: string }) => s.title);
  t.ok(
    titles.some((x: string) => x.startsWith('DORA Article 30:')),
    `the requirement's article is a source: ${titles.join(' | ')}`,
  );
  t.ok(titles.includes('GitHub Corporate Terms of Service'), "the vendor's terms are a source");
  t.match(user, /days' prior written notice/, "the vendor's termination clause is in the prompt");

  // The assessment of the same documents reads the obligation the same way.
  const created = await createAssessment(
    app,
    ws.headers,
    vendorDocs('github', ['github-corporate-terms-of-service.md', 'github-data-protection-agreement.md']),
  );
  t.equal(created.statusCode, 201, created.body);
  const assessed = await waitForAssessment(app, ws.headers, created.json().data.assessment.id);
  t.equal(assessed.status, 'completed');
  const gap = (assessed.results as { obligationId: string; status: 'covered' | 'partial' | 'missing'; coverage: number }[]).find(
    (r) => r.obligationId === 'A30.2.h',
  )!;
  const words = { meets: 'meets', partly: 'partly meets', does_not: 'does not meet', not_addressed: 'the documents do not address it' } as const;
  t.match(user, `Verdict of the engine: GitHub ${words[verdictOf(gap)]}.`, `the answer's verdict is the assessment's (${gap.status}, ${gap.coverage})`);
});

t.test('a list cut over two passages is quoted whole, in its order', async (t) => {
  const ctx = await buildTestApp({ rag: { ...testConfig().rag, generator: 'extractive' } });
  t.teardown(ctx.close);
  const { app } = ctx;
  await app.services.dataSources.indexCorpus();
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub');
  // Article 6(8)'s list is stored in two passages: the second starts with the lead-in and point (d).
  const res = await app.inject({
    method: 'POST',
    url: `${API}/rag`,
    headers: ws.headers,
    payload: { question: 'What should our digital operational resilience strategy contain?' },
  });
  t.equal(res.statusCode, 200, res.body);
  const { answer, sources } = res.json().data as { answer: string; sources: { title: string; content: string }[] };
  const parts = sources.filter(
    (s) => s.title.startsWith('DORA Article 6:') && s.content.includes('the digital operational resilience strategy shall include methods'),
  );
  t.ok(parts.length >= 2, `both passages of the list are sources (${parts.length})`);
  const at = (text: string) => answer.indexOf(text);
  t.ok(at('risk tolerance level for ICT risk') > 0, `the first points, from the passage before: ${answer}`);
  t.ok(at('information security objectives') > 0);
  t.ok(at('ICT reference architecture') > at('information security objectives'), 'point (d) after (c), as the article lists them');
});
