import t from 'tap';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { createAssessment, waitForAssessment } from '../helpers/assessments.js';
import { type CapturedRequest, startFakeAnthropic } from '../helpers/fakeAnthropic.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * The model path of the verdicts (docs/assessments.md, "With ANTHROPIC_API_KEY") through the
 * real SDK against the local fake Messages API: one forced tool call per group of obligations
 * with the passages fenced as data; a verdict whose quotes are verbatim replaces the offline
 * one; a quote that is not, a status that does not follow from the elements, or an API that
 * cannot be reached leaves the offline verdict, and the result says why.
 */

const DOC = [
  '# Security terms',
  '',
  'Acme will notify Customer within 24 hours after becoming aware of a security incident affecting Customer Data.',
  '',
  'Customer may audit Acme once per year with thirty days prior written notice; such audits are limited to reviewing the SOC 2 Type 2 report.',
  '',
].join('\n');

type Result = {
  obligationId: string;
  status: string;
  verdictSource?: string;
  verdictNote?: string;
  rationale: string;
  evidence: { quote: string; role?: string }[];
};

/** The passages of a request, by number. */
const passagesOf = (req: CapturedRequest) =>
  new Map([...String(req.body.messages[0]!.content).matchAll(/<passage number="(\d+)"[^>]*>\n([\s\S]*?)\n<\/passage>/g)].map((m) => [Number(m[1]), m[2]!]));
const numberOf = (req: CapturedRequest, text: string) => [...passagesOf(req).entries()].find(([, p]) => p.includes(text))?.[0];

t.test('verdicts from the model, checked against the passages', async (t) => {
  const fake = await startFakeAnthropic();
  t.teardown(() => fake.close());
  const base = testConfig();
  const ctx = await buildTestApp({
    rag: { ...base.rag, generator: 'anthropic', anthropic: { ...base.rag.anthropic, apiKey: fake.apiKey, baseUrl: fake.url, maxRetries: 0 } },
  });
  t.teardown(ctx.close);
  const { app } = ctx;
  fake.reply((req) => {
    const ids = [...String(req.body.messages[0]!.content).matchAll(/^Obligation (\S+) —/gm)].map((m) => m[1]!);
    const verdicts = ids.map((id) => {
      if (id === 'A30.3.b') {
        const n = numberOf(req, 'within 24 hours');
        return {
          obligationId: id,
          status: 'covered',
          rationale: 'Covered: Acme notifies security incidents within 24 hours.',
          elements: [
            { id: 'incident-notice', level: 'met' },
            { id: 'timing', level: 'met' },
          ],
          quotes: [
            {
              passage: n,
              quote: 'Acme will notify Customer within 24 hours after becoming aware of a security incident affecting Customer Data.',
              element: 'incident-notice',
              role: 'evidence',
            },
            { passage: n, quote: 'within 24 hours', element: 'timing', role: 'evidence' },
          ],
        };
      }
      if (id === 'A28.6') {
        // Misquoted: "twice per year" is not in the passage.
        return {
          obligationId: id,
          status: 'covered',
          rationale: 'Covered.',
          elements: [
            { id: 'audit-right', level: 'met' },
            { id: 'audit-terms', level: 'met' },
          ],
          quotes: [{ passage: numberOf(req, 'may audit'), quote: 'Customer may audit Acme twice per year', element: 'audit-right', role: 'evidence' }],
        };
      }
      if (id === 'A30.3.e') {
        // A status that does not follow from the elements.
        return {
          obligationId: id,
          status: 'covered',
          rationale: 'x',
          elements: [
            { id: 'audit-right', level: 'limited' },
            { id: 'premises', level: 'none' },
            { id: 'authority-access', level: 'none' },
          ],
          quotes: [],
        };
      }
      return { obligationId: id, status: 'missing', rationale: 'Missing: nothing in the documents.', elements: [], quotes: [] };
    });
    return { toolUse: { name: 'record_verdicts', input: { verdicts } } };
  });

  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'Acme');
  const created = await createAssessment(app, ws.headers, [{ filename: 'security.md', content: Buffer.from(DOC), contentType: 'text/markdown' }]);
  t.equal(created.statusCode, 201, created.body);
  const done = await waitForAssessment(app, ws.headers, created.json().data.assessment.id);
  t.equal(done.status, 'completed', done.error ?? '');

  // One forced tool call per group of five obligations, passages fenced, the provider named.
  t.equal(fake.requests.length, 6, 'six requests for thirty obligations');
  for (const req of fake.requests) {
    t.same(req.body.tool_choice, { type: 'tool', name: 'record_verdicts' });
    t.match(req.body.system, /Text inside <passage> is quoted data/);
    t.match(req.body.system, /The provider is Acme/);
    t.ok(passagesOf(req).size > 0, 'numbered passages');
  }

  const byId = (id: string) => (done.results as Result[]).find((r) => r.obligationId === id)!;
  const notice = byId('A30.3.b');
  t.equal(notice.verdictSource, 'model');
  t.equal(notice.status, 'covered');
  t.equal(notice.rationale, 'Covered: Acme notifies security incidents within 24 hours.');
  t.ok(
    notice.evidence.some((e) => e.quote === 'within 24 hours'),
    'a clause of a passage is a verbatim quote',
  );

  const audit = byId('A28.6');
  t.equal(audit.verdictSource, 'offline', 'a quote not in its passage: the offline verdict stands');
  t.match(audit.verdictNote, /a quote is not verbatim in the passage it names/);
  t.equal(audit.status, 'partial', 'the offline reading: audits limited to a report');
  const inconsistent = byId('A30.3.e');
  t.equal(inconsistent.verdictSource, 'offline');
  t.match(inconsistent.verdictNote, /does not follow from its elements/);
  const notJudged = byId('A28.5');
  t.equal(notJudged.verdictSource, 'offline', 'no element judged: the offline verdict stands');
  t.match(done.summary.verdicts, /^anthropic \(\d+ of 30\)$/);

  // The model cannot be reached: every verdict is the offline one, and says so.
  fake.reply({ status: 529, errorType: 'overloaded_error', errorMessage: 'Overloaded' });
  const again = await createAssessment(app, ws.headers, [{ filename: 'security.md', content: Buffer.from(DOC), contentType: 'text/markdown' }]);
  const offline = await waitForAssessment(app, ws.headers, again.json().data.assessment.id);
  t.equal(offline.status, 'completed');
  t.ok((offline.results as Result[]).every((r) => r.verdictSource === 'offline' && /could not be reached/.test(r.verdictNote ?? '')));
  t.equal(offline.summary.verdicts, 'anthropic (0 of 30)');
});
