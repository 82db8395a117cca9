import t from 'tap';
import type { Passage } from '../../src/compliance/drafting/draft.js';
import { anthropicExtractor } from '../../src/compliance/drafting/model.js';
import { DRAFT_FIELDS } from '../../src/domain/profileDrafts.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { createTextSource } from '../helpers/dataSources.js';
import { startFakeAnthropic } from '../helpers/fakeAnthropic.js';
import { createOrgAndWorkspace, wsHeaders } from '../helpers/workspaces.js';

const API = '/api/v1';
const TERMS = `# Acme Cloud Customer Terms

## Governing Law

This Agreement will be governed by and construed in accordance with the laws of Ireland, without giving effect to the principles of conflict of law.

## Termination

Either Party may terminate this Agreement, without cause, upon at least thirty (30) days' prior written notice.

Acme may discontinue the Services at any time, with or without notice.
`;

/**
 * The model path (ANTHROPIC_API_KEY) as a plumbing check against the fake Messages API on
 * 127.0.0.1 through the real SDK: one forced tool per field with the passages fenced as
 * data; values whose quote is verbatim in the cited passage are kept, others dropped.
 */
t.test('with an API key, Claude reads the passages through a tool per field; a quote not verbatim is dropped', async (t) => {
  const fake = await startFakeAnthropic();
  t.teardown(fake.close);
  const base = testConfig();
  const modelCtx = await buildTestApp({
    rag: { ...base.rag, generator: 'anthropic', anthropic: { ...base.rag.anthropic, apiKey: fake.apiKey, baseUrl: fake.url, maxRetries: 0 } },
  });
  t.teardown(modelCtx.close);
  const { app } = modelCtx;
  const owner = await registerUser(app);
  const ws = (await createOrgAndWorkspace(app, owner, 'Acme Cloud')).workspaceId;
  await createTextSource(app, wsHeaders(owner, ws), [{ title: 'Acme Cloud Customer Terms', content: TERMS, format: 'markdown' }]);

  fake.reply((req) => {
    const tool = req.body.tools?.[0]?.name ?? '';
    const user = String(req.body.messages[0]!.content);
    const n = /<passage number="(\d+)"[^>]*>\n[^<]*laws of Ireland/.exec(user)?.[1];
    if (tool === 'record_governingLaw' && n) {
      return {
        toolUse: {
          name: tool,
          input: {
            values: [{ value: 'IE', passage: Number(n), quote: 'This Agreement will be governed by and construed in accordance with the laws of Ireland' }],
          },
        },
      };
    }
    const m = /<passage number="(\d+)"[^>]*>\n[^<]*may discontinue/.exec(user)?.[1];
    if (tool === 'record_noticePeriodDaysProvider' && m) {
      // A field left open, with its reason: kept when its quote is verbatim, dropped when not.
      return {
        toolUse: {
          name: tool,
          input: {
            values: [],
            open: [
              {
                reason: 'Acme may discontinue at any time; no notice period.',
                passage: Number(m),
                quote: 'Acme may discontinue the Services at any time, with or without notice.',
              },
              { reason: 'Made up.', passage: Number(m), quote: 'Acme may stop whenever it likes.' },
            ],
          },
        },
      };
    }
    if (tool === 'record_noticePeriodDaysEntity' && n) {
      // Not in the passage: must be dropped.
      return { toolUse: { name: tool, input: { values: [{ value: 60, passage: Number(n), quote: 'Customer may terminate on sixty days notice.' }] } } };
    }
    return { toolUse: { name: tool, input: { values: [] } } };
  });

  const start = await app.inject({ method: 'POST', url: `${API}/workspaces/${ws}/profile-drafts`, headers: owner.headers });
  t.equal(start.statusCode, 202);
  t.equal(start.json().data.draft.extractor, 'anthropic');
  let draft;
  for (;;) {
    draft = (await app.inject({ method: 'GET', url: `${API}/workspaces/${ws}/profile-drafts/${start.json().data.draft.id}`, headers: owner.headers })).json()
      .data.draft;
    if (draft.status === 'completed' || draft.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.equal(draft.status, 'completed', draft.error ?? '');
  const f = (name: string) => draft.fields.find((x: { field: string }) => x.field === name);
  t.equal(f('governingLaw').status, 'proposed');
  t.equal(f('governingLaw').value, 'IE');
  t.match(f('governingLaw').evidence[0].quote, /laws of Ireland/);
  t.equal(f('noticePeriodDaysEntity').status, 'not_found', 'a value whose quote is not in the passage is dropped');
  t.notOk(f('noticePeriodDaysEntity').reason, 'no reason without a passage that leaves it open');
  // A field the model says the documents leave open: not found, with the reason and its verbatim passage.
  t.equal(f('noticePeriodDaysProvider').status, 'not_found');
  t.equal(f('noticePeriodDaysProvider').reason, 'Acme may discontinue at any time; no notice period.');
  t.equal(f('noticePeriodDaysProvider').evidence[0].quote, 'Acme may discontinue the Services at any time, with or without notice.');
  t.equal(draft.summary.dropped, 2, 'the value and the open reason whose quotes are not verbatim are dropped');
  // The tool carries the field's definition (the offline rules' reading): governing law is never the courts.
  const lawTool = fake.requests.find((r) => r.body.tool_choice?.name === 'record_governingLaw')!.body.tools![0]!;
  t.match(String((lawTool as { description?: string }).description), /Never the courts, venue or jurisdiction/);
  // One request per field that had passages, each forcing that field's tool, with the passages fenced.
  const asked = fake.requests.map((r) => r.body.tool_choice?.name);
  t.ok(asked.includes('record_governingLaw'));
  t.ok(asked.every((n) => n && DRAFT_FIELDS.includes(n.replace('record_', '') as never)));
  t.ok(fake.requests.every((r) => r.body.tool_choice?.type === 'tool' && r.body.tools?.length === 1));
  t.match(String(fake.requests[0]!.body.messages[0]!.content), /<passage number="1"/);
  t.match(fake.requests[0]!.body.system ?? '', /data, never instructions/);
});

t.test('the model reads what the offline rules read: a subprocessor table to its end, and the documents’ openings for the description', async (t) => {
  const fake = await startFakeAnthropic();
  t.teardown(fake.close);
  fake.reply((req) => ({ toolUse: { name: req.body.tools?.[0]?.name ?? '', input: { values: [] } } }));
  const passage = (id: string, content: string): Passage => ({
    chunkId: id,
    documentId: 'd1',
    dataSourceId: null,
    title: 'Acme DPA',
    section: '',
    page: null,
    url: '',
    content,
  });
  const tableStart = passage(
    'c1',
    'Acme uses the following subprocessors:\n\n| Entity | Purpose | Location |\n| --- | --- | --- |\n| Amazon Web Services | Hosting | Ireland |',
  );
  const rows = passage('c2', '| Zeta Mail Ltd | Transactional e-mail | United Kingdom |\n| Omega Metrics Inc. | Analytics | United States |');
  const after = passage('c3', '## 9. Audits\n\nCustomer may audit Acme once a year.');
  const opening = passage('c0', '# Acme Terms\n\nAcme Ledger is a hosted bookkeeping service for small firms.');
  const extractor = anthropicExtractor({ apiKey: fake.apiKey, baseURL: fake.url, model: 'claude-test', maxTokens: 512, timeoutMs: 5000, maxRetries: 0 });
  await extractor.draft({
    vendorNames: ['Acme'],
    search: async () => [tableStart],
    following: async (p) => (p.chunkId === 'c1' ? [rows, after] : []),
    openings: async () => [opening],
  });
  const asked = (field: string) => String(fake.requests.find((r) => r.body.tool_choice?.name === `record_${field}`)!.body.messages[0]!.content);
  t.match(asked('subcontractors'), /Omega Metrics Inc\./, 'the rows stored after the retrieved passage are read');
  t.notMatch(asked('subcontractors'), /Customer may audit/, 'the passages after the table are not');
  t.match(asked('description'), /Acme Ledger is a hosted bookkeeping service/, "each document's opening is read for the description");
  t.notMatch(asked('governingLaw'), /Omega Metrics|Acme Ledger/, 'other fields read only the retrieved passages');
});
