import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { evaluateExternally } from '../../src/modules/evaluation/external.js';
import { averagePrecision } from '../../src/modules/evaluation/metrics.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { GITHUB_DPA_INCIDENT, GITHUB_SLA, BASECAMP_SECURITY } from '../helpers/sources.js';
import { addOrgMember, createOrgAndWorkspace, wsHeaders } from '../helpers/workspaces.js';

/** POST /ragas/evaluate (docs/evaluation.md). */

const ctx = await buildTestApp({}, { seed: true });
t.teardown(ctx.close);
const { app } = ctx;
const owner = await registerUser(app, { name: 'Olivia Owner' });
const ws = await createOrgAndWorkspace(app, owner, 'GitHub');
const evaluate = (payload: unknown, headers: Record<string, string> = ws.headers) =>
  app.inject({ method: 'POST', url: '/api/v1/ragas/evaluate', headers, payload: payload as object });

const Q = 'How quickly does GitHub notify customers of a security incident?';
const GROUND_TRUTH = 'GitHub notifies the customer promptly and without undue delay after becoming aware of a Security Incident.';

interface M {
  faithfulness: number | null;
  answerRelevancy: number | null;
  contextPrecision: number | null;
  contextRecall: number | null;
}
const metricsOf = async (payload: unknown): Promise<M[]> => {
  const res = await evaluate(payload);
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json().data.samples.map((s: { metrics: M }) => s.metrics);
};

t.test('built-in metrics: one sample, the response shape', async (t) => {
  const res = await evaluate({
    question: Q,
    answer:
      'GitHub notifies the customer of a Security Incident promptly and without undue delay [Source 1]. It also investigates the incident and provides detailed information about it.',
    contexts: [GITHUB_DPA_INCIDENT, GITHUB_SLA],
    groundTruth: GROUND_TRUTH,
  });
  t.equal(res.statusCode, 200);
  const data = res.json().data;
  t.equal(data.evaluator, 'builtin');
  t.equal(data.sampleCount, 1);
  t.type(data.durationMs, 'number');
  const s = data.samples[0];
  t.match(s, { index: 0, question: Q });
  t.notOk('answer' in s, 'given samples are not echoed back');
  t.same(s.metrics, { faithfulness: 1, answerRelevancy: s.metrics.answerRelevancy, contextPrecision: 1, contextRecall: 1 });
  t.ok(s.metrics.answerRelevancy > 0.6, `a direct answer is relevant (${s.metrics.answerRelevancy})`);
  t.same(data.averages, s.metrics, 'averages of one sample are its metrics');
  t.match(s.details, {
    claims: 2,
    supportedClaims: 2,
    unsupportedClaims: [],
    relevantContexts: [true, false],
    groundTruthSentences: 1,
    supportedGroundTruthSentences: 1,
  });
});

t.test('built-in metrics order answers and retrievals as a reviewer would', async (t) => {
  const faithful = 'GitHub notifies the customer of a Security Incident promptly and without undue delay.';
  const fabricated = 'GitHub notifies customers within 24 hours by telephone. Affected customers receive a refund of 50% of annual fees.';
  const offTopic = 'GitHub guarantees 99.9% uptime for its service each quarter and grants service credits otherwise.';
  const abstains = 'The retrieved sources do not answer this question.';
  const [good, bad, off, none] = await metricsOf({
    samples: [
      { question: Q, answer: faithful, contexts: [GITHUB_DPA_INCIDENT, GITHUB_SLA] },
      { question: Q, answer: fabricated, contexts: [GITHUB_DPA_INCIDENT, GITHUB_SLA] },
      { question: Q, answer: offTopic, contexts: [GITHUB_DPA_INCIDENT, GITHUB_SLA] },
      { question: Q, answer: abstains, contexts: [GITHUB_DPA_INCIDENT, GITHUB_SLA] },
    ],
  });
  t.equal(good.faithfulness, 1, 'every statement of the faithful answer is in the contexts');
  t.equal(bad.faithfulness, 0, 'figures and claims found in no context are unsupported');
  t.ok(good.faithfulness! > bad.faithfulness!, 'faithful > fabricated');
  t.equal(off.faithfulness, 1, 'an off-topic answer can still be faithful to the contexts...');
  t.ok(good.answerRelevancy! > off.answerRelevancy! + 0.2, `...but is far less relevant (${good.answerRelevancy} vs ${off.answerRelevancy})`);
  t.equal(none.answerRelevancy, 0, 'a noncommittal answer has relevancy 0');
  t.equal(none.faithfulness, null, 'and no statement to check: faithfulness null');
  t.equal(good.contextRecall, null, 'context recall needs a ground truth');

  // Context precision is rank-weighted; context recall follows the ground truth.
  const [first, last, irrelevant, empty] = await metricsOf([
    { question: Q, answer: faithful, contexts: [GITHUB_DPA_INCIDENT, GITHUB_SLA, BASECAMP_SECURITY], groundTruth: GROUND_TRUTH },
    { question: Q, answer: faithful, contexts: [GITHUB_SLA, BASECAMP_SECURITY, GITHUB_DPA_INCIDENT], groundTruth: GROUND_TRUTH },
    { question: Q, answer: faithful, contexts: [GITHUB_SLA, BASECAMP_SECURITY], groundTruth: GROUND_TRUTH },
    { question: Q, answer: faithful, contexts: [], groundTruth: GROUND_TRUTH },
  ]);
  t.equal(first.contextPrecision, 1, 'the relevant context ranked first');
  t.equal(last.contextPrecision, 0.333, 'the same context ranked third: 1/3');
  t.equal(irrelevant.contextPrecision, 0, 'nothing relevant retrieved');
  t.equal(empty.contextPrecision, null, 'nothing retrieved at all: null');
  t.equal(first.contextRecall, 1, 'the ground truth is in the contexts');
  t.equal(irrelevant.contextRecall, 0, 'the ground truth is not in the contexts');
  t.equal(irrelevant.faithfulness, 0, 'the answer is not supported by these contexts');
  t.equal(empty.faithfulness, 0);

  t.equal(averagePrecision([true, false, true]), (1 + 2 / 3) / 2);
  t.equal(averagePrecision([false, false]), 0);
});

t.test('averages skip nulls', async (t) => {
  const res = await evaluate({
    samples: [
      { question: Q, answer: 'GitHub notifies the customer promptly and without undue delay.', contexts: [GITHUB_DPA_INCIDENT], groundTruth: GROUND_TRUTH },
      { question: Q, answer: 'GitHub notifies customers within 24 hours by telephone.', contexts: [GITHUB_DPA_INCIDENT] },
    ],
  });
  const d = res.json().data;
  t.equal(d.averages.faithfulness, 0.5);
  t.equal(d.averages.contextRecall, 1, 'only the sample with a ground truth counts');
});

t.test('bad input is 400 with the field named; nothing is evaluated', async (t) => {
  const cases: [unknown, RegExp][] = [
    [{}, /body: one of question\+answer\+contexts, samples or questions is required/],
    [{ question: Q, contexts: [] }, /answer: is required/],
    [{ question: Q, answer: 'x', contexts: [], questions: [Q] }, /exclusive/],
    [{ question: '', answer: 'x', contexts: [] }, /question/],
    [{ question: '   ', answer: 'x', contexts: [] }, /question: must not be blank/],
    [{ question: 'x'.repeat(5001), answer: 'x', contexts: [] }, /question/],
    [{ question: Q, answer: 'x', contexts: { first: 'not a list' } }, /contexts/],
    [{ question: Q, answer: 'x', contexts: [], colour: 'red' }, /colour: is not allowed/],
    [{ samples: [] }, /samples/],
    [{ samples: [{ question: Q, answer: 'x' }] }, /samples\.0\.contexts: is required/],
    [[], /samples/],
    [{ questions: [] }, /questions/],
    [{ questions: Array.from({ length: 11 }, () => Q) }, /questions/],
    [{ questions: [Q, Q], groundTruths: ['only one'] }, /groundTruths: must have one entry per question/],
    [{ question: Q, answer: 'x', contexts: [], evaluator: 'external' }, /evaluator: external is not configured/],
    [{ question: Q, answer: 'x', contexts: [], evaluator: 'llm' }, /evaluator/],
  ];
  for (const [payload, detail] of cases) {
    const res = await evaluate(payload);
    t.equal(res.statusCode, 400, JSON.stringify(payload).slice(0, 80));
    t.equal(res.json().error.code, 'VALIDATION_ERROR');
    t.match(res.json().error.details.join('; '), detail);
  }
});

t.test('access: authentication, workspace, permission', async (t) => {
  const body = { question: Q, answer: 'x', contexts: [] };
  t.equal((await app.inject({ method: 'POST', url: '/api/v1/ragas/evaluate', payload: body })).statusCode, 401);
  const noWs = await evaluate(body, owner.headers);
  t.equal(noWs.statusCode, 400, 'X-Workspace-Id is required');
  const outsider = await registerUser(app);
  const other = await createOrgAndWorkspace(app, outsider, 'Elsewhere', 'Other Bank');
  const denied = await evaluate(body, wsHeaders(outsider, ws.workspaceId));
  t.equal(denied.statusCode, 403);
  t.equal(denied.json().message, 'Access denied to this workspace');
  t.equal((await evaluate(body, other.headers)).statusCode, 200, 'in their own workspace they may');
  // Without canQuery (an explicit member whose flag is withdrawn): 403.
  const member = await addOrgMember(app, owner, ws.orgId, 'analyst');
  const add = await app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${ws.workspaceId}/members`,
    headers: ws.headers,
    payload: { email: member.email, role: 'viewer', permissions: { canQuery: false } },
  });
  t.equal(add.statusCode, 201, add.body);
  const noQuery = await evaluate(body, wsHeaders(member, ws.workspaceId));
  t.equal(noQuery.statusCode, 403);
  t.equal(noQuery.json().error.code, 'INSUFFICIENT_PERMISSION');
});

t.test('questions are answered through the RAG service, then evaluated', async (t) => {
  await app.services.dataSources.indexCorpus({ articles: [19, 28] });
  const question = 'What must financial entities report to competent authorities about major ICT-related incidents?';
  const res = await evaluate({
    questions: [question],
    groundTruths: ['Financial entities shall report major ICT-related incidents to the relevant competent authority.'],
  });
  t.equal(res.statusCode, 200, res.body);
  const d = res.json().data;
  t.equal(d.evaluator, 'builtin');
  const s = d.samples[0];
  t.equal(s.question, question);
  t.ok(s.answer.length > 0, 'the generated answer is returned');
  t.ok(s.contexts.length > 0, 'with the contexts it was given');
  t.type(s.conversationId, 'string', 'stored like any /rag answer');
  t.ok(s.metrics.faithfulness > 0.5, `the extractive answer is faithful to its contexts (${s.metrics.faithfulness})`);
  t.ok(s.metrics.contextPrecision > 0, 'Article 19 is relevant');
  t.ok(s.metrics.contextRecall !== null);
  const conv = await app.inject({ method: 'GET', url: `/api/v1/conversations/${s.conversationId}`, headers: ws.headers });
  t.equal(conv.statusCode, 200, 'the run is visible (and deletable) as a conversation');
});

t.test('rate limit scope: 10 per hour by default, configurable', async (t) => {
  t.same(testConfig().rateLimits.ragas, { max: 10, windowMs: 3_600_000 });
  const limited = await buildTestApp({ rateLimits: { ...testConfig().rateLimits, enabled: true, ragas: { max: 2, windowMs: 3_600_000 } } }, { seed: false });
  t.teardown(limited.close);
  const u = await registerUser(limited.app);
  const w = await createOrgAndWorkspace(limited.app, u, 'GitHub');
  const send = () =>
    limited.app.inject({ method: 'POST', url: '/api/v1/ragas/evaluate', headers: w.headers, payload: { question: Q, answer: 'x y z', contexts: [] } });
  t.equal((await send()).statusCode, 200);
  const second = await send();
  t.equal(second.headers['x-ratelimit-limit'], '2');
  const third = await send();
  t.equal(third.statusCode, 429);
  t.equal(third.json().error.code, 'RATE_LIMIT_EXCEEDED');
  t.ok(Number(third.headers['retry-after']) > 0);
});

// ---- the external evaluation service: a real local HTTP server -------------------

type Mode = 'ok' | 'error' | 'badShape' | 'wrongCount' | 'notJson' | 'hang' | 'redirect';
interface Recorded {
  headers: IncomingMessage['headers'];
  body: { metrics: string[]; samples: Record<string, unknown>[] };
}

async function fakeRagas(): Promise<{ server: Server; url: string; mode: Mode; requests: Recorded[]; close(): Promise<void> }> {
  const state = { mode: 'ok' as Mode, requests: [] as Recorded[] };
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as Recorded['body'];
      state.requests.push({ headers: req.headers, body });
      const json = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      switch (state.mode) {
        case 'ok':
          return json(200, {
            results: body.samples.map((_, i) => ({
              faithfulness: 0.9 - i / 10,
              answer_relevancy: 0.8,
              context_precision: 0.7,
              context_recall: i === 0 ? null : 0.6,
            })),
          });
        case 'error':
          return json(500, { error: 'evaluator crashed: secret internals' });
        case 'badShape':
          return json(200, { results: body.samples.map(() => ({ faithfulness: 1.7 })) });
        case 'wrongCount':
          return json(200, { results: [] });
        case 'notJson':
          return json(200, '<html>oops</html>');
        case 'redirect':
          res.writeHead(307, { location: 'http://127.0.0.1:1/steal' });
          return res.end();
        case 'hang':
          hanging.push(res);
          return undefined;
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/evaluate`;
  return Object.assign(state, {
    server,
    url,
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}

t.test('external evaluation service: wire format, success, errors, timeout', async (t) => {
  const fake = await fakeRagas();
  const ext = await buildTestApp({ ragas: { url: fake.url, apiKey: 'ragas-secret-key', timeoutMs: 500 } }, { seed: false });
  t.teardown(async () => {
    await ext.close();
    await fake.close();
  });
  const u = await registerUser(ext.app);
  const w = await createOrgAndWorkspace(ext.app, u, 'GitHub');
  const post = (payload: unknown) =>
    ext.app.inject({ method: 'POST', url: '/api/v1/ragas/evaluate', headers: { ...w.headers, 'x-request-id': 'req-123' }, payload: payload as object });
  const samples = [
    { question: Q, answer: 'Promptly [Source 1].', contexts: [GITHUB_DPA_INCIDENT, GITHUB_SLA] },
    { question: 'What uptime does GitHub commit to?', answer: '99.9%.', contexts: [GITHUB_SLA], groundTruth: 'At least 99.9% per quarter.' },
  ];

  const okRes = await post({ samples });
  t.equal(okRes.statusCode, 200, okRes.body);
  const d = okRes.json().data;
  t.equal(d.evaluator, 'external');
  t.same(
    d.samples.map((s: { metrics: M }) => s.metrics),
    [
      { faithfulness: 0.9, answerRelevancy: 0.8, contextPrecision: 0.7, contextRecall: null },
      { faithfulness: 0.8, answerRelevancy: 0.8, contextPrecision: 0.7, contextRecall: 0.6 },
    ],
  );
  t.same(d.averages, { faithfulness: 0.85, answerRelevancy: 0.8, contextPrecision: 0.7, contextRecall: 0.6 });
  t.notOk(d.samples[0].details, 'built-in details only come with the built-in evaluator');

  const sent = fake.requests[0];
  t.equal(sent.headers.authorization, 'Bearer ragas-secret-key');
  t.match(sent.headers['content-type'], /^application\/json/);
  t.equal(sent.headers['x-request-id'], 'req-123', 'the request id travels along');
  t.same(sent.body, {
    metrics: ['faithfulness', 'answer_relevancy', 'context_precision', 'context_recall'],
    samples: [
      { user_input: Q, response: 'Promptly [Source 1].', retrieved_contexts: [GITHUB_DPA_INCIDENT, GITHUB_SLA], reference: null },
      { user_input: 'What uptime does GitHub commit to?', response: '99.9%.', retrieved_contexts: [GITHUB_SLA], reference: 'At least 99.9% per quarter.' },
    ],
  });

  const builtin = await post({ samples, evaluator: 'builtin' });
  t.equal(builtin.json().data.evaluator, 'builtin', 'the built-in metrics can still be asked for');
  t.equal(fake.requests.length, 1, 'without calling the service');

  const failures: [Mode, number, string, RegExp][] = [
    ['error', 502, 'EVALUATION_SERVICE_ERROR', /failed with HTTP 500/],
    ['badShape', 502, 'EVALUATION_SERVICE_INVALID_RESPONSE', /invalid response: \/results\/0\/faithfulness/],
    ['wrongCount', 502, 'EVALUATION_SERVICE_INVALID_RESPONSE', /0 results for 2 samples/],
    ['notJson', 502, 'EVALUATION_SERVICE_INVALID_RESPONSE', /not JSON/],
    ['redirect', 502, 'EVALUATION_SERVICE_ERROR', /HTTP 307/],
    ['hang', 504, 'EVALUATION_SERVICE_TIMEOUT', /did not answer within 500 ms/],
  ];
  for (const [mode, status, code, message] of failures) {
    fake.mode = mode;
    const res = await post({ samples });
    t.equal(res.statusCode, status, mode);
    t.equal(res.json().error.code, code, mode);
    t.match(res.json().message, message, mode);
    t.notOk(res.body.includes('ragas-secret-key') || res.body.includes('secret internals'), `${mode}: neither the key nor upstream text leak`);
  }
});

t.test('external service unreachable: 502', async (t) => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  await t.rejects(evaluateExternally({ url: `http://127.0.0.1:${port}/evaluate`, timeoutMs: 2000 }, [{ question: Q, answer: 'x', contexts: [] }]), {
    statusCode: 502,
    code: 'EVALUATION_SERVICE_ERROR',
    message: 'The external evaluation service could not be reached',
  });
});
