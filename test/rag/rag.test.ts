import t from 'tap';
import { queryRows, sql } from '../../src/db/client.js';
import { confidenceText } from '../../src/domain/answers.js';
import { reflowQuote } from '../../src/lib/reflow.js';
import { NO_ANSWER } from '../../src/rag/prompt.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { ingest, streamInject, vendorDoc } from '../helpers/rag.js';
import { addOrgMember, createOrgAndWorkspace, createWorkspace, wsHeaders } from '../helpers/workspaces.js';

const API = '/api/v1';
const extractive = { rag: { ...testConfig().rag, generator: 'extractive' as const } };

interface Answer {
  answer: string;
  formattedAnswer: { text: string; format: string };
  sources: {
    id: string;
    sourceNumber: number;
    title: string;
    content: string;
    url: string;
    section: string;
    score: number;
    documentId: string;
    workspaceId: string | null;
  }[];
  citedSources: { sourceNumber: number; title: string; url: string }[];
  validation: { confidence: number; isGrounded: boolean; hasHallucinations: boolean; isRelevant: boolean; issues: string[] };
  conversationId: string;
  totalTime: number;
}

/** Parses the Markdown export back into messages (the format of docs/conversations.md). */
function parseMarkdownExport(md: string) {
  const lines = md.split('\n');
  const title = lines[0].replace(/^# /, '');
  const created = /^Created: (.+)$/.exec(lines[2])?.[1];
  const messages: {
    role: string;
    timestamp: string;
    content: string;
    links: string[];
    quotes: { n: number; detail: string; quote: string }[];
    confidence: string | null;
  }[] = [];
  let cur: { role: string; lines: string[] } | null = null;
  const flush = () => {
    if (!cur) return;
    const body = cur.lines.join('\n').trim();
    const ts = /^_(.+)_$/m.exec(body)?.[1] ?? '';
    let content = body.replace(/^_.+_\n\n/, '');
    const links = [...content.matchAll(/^- \[Source (\d+): (.+)\]\((.+)\)$/gm)].map((m) => `${m[1]}|${m[2]}|${m[3]}`);
    // Each source: its link, a line saying whether it is cited (and where), the cited passage quoted.
    const quotes = [...content.matchAll(/^- \[Source (\d+): .+\n {2}(.+)(?:\n|$)((?:\n|(?: {2}>.*(?:\n|$)))*)/gm)].map((m) => ({
      n: Number(m[1]),
      detail: m[2]!,
      quote: m[3]!
        .split('\n')
        .filter((l) => l.startsWith('  >'))
        .map((l) => l.replace(/^ {2}> ?/, ''))
        .join('\n'),
    }));
    const confidence = /^Confidence: (.+)$/m.exec(content)?.[1] ?? null;
    const cut = content.lastIndexOf('\n\nConfidence: ');
    if (links.length && cut >= 0) content = content.slice(0, cut);
    messages.push({ role: cur.role, timestamp: ts, content: content.replace(/^\\(## (User|Assistant))$/gm, '$1'), links, quotes, confidence });
  };
  for (const line of lines.slice(3)) {
    const h = /^## (User|Assistant)$/.exec(line);
    if (h) {
      flush();
      cur = { role: h[1].toLowerCase(), lines: [] };
    } else cur?.lines.push(line);
  }
  flush();
  return { title, created, messages };
}

t.test('answers over the demo vendors and DORA (extractive generator)', async (t) => {
  const ctx = await buildTestApp(extractive);
  t.teardown(ctx.close);
  const { app } = ctx;
  await app.services.dataSources.indexCorpus({ articles: [19, 28, 30] });
  const owner = await registerUser(app, { name: 'Owner' });
  const gh = await createOrgAndWorkspace(app, owner, 'GitHub');
  const bc = await createWorkspace(app, owner, 'Basecamp');
  await ingest(app, gh.headers, 'GitHub contract set', [
    {
      title: 'GitHub Enterprise Service Level Agreement',
      content: vendorDoc('github/github-enterprise-service-level-agreement.md'),
      url: 'https://github.com/github/site-policy',
    },
    { title: 'GitHub SIRT description (RFC 2350)', content: vendorDoc('github/github-sirt-description-rfc-2350.md') },
  ]);
  await ingest(app, bc.headers, 'Basecamp policies', [
    { title: 'Basecamp security overview', content: vendorDoc('basecamp/security-overview.md') },
    { title: 'Basecamp cancellation policy', content: vendorDoc('basecamp/cancellation-policy.md') },
  ]);
  const ask = (payload: unknown, headers = gh.headers, url = `${API}/rag`) => app.inject({ method: 'POST', url, headers, payload: payload as object });
  const messagesOf = async (id: string) =>
    (await app.inject({ method: 'GET', url: `${API}/conversations/${id}?messageLimit=500`, headers: gh.headers })).json().data;

  t.test('bad input, credentials and access', async (t) => {
    const cases: [unknown, RegExp][] = [
      [{}, /question: is required/],
      [{ question: '' }, /question/],
      [{ question: '   \n ' }, /question: must not be blank/],
      [{ question: 'x'.repeat(5001) }, /question/],
      [{ question: 'ok?', filters: { dateRange: { start: '2024-13-01' } } }, /filters\.dateRange\.start/],
      [{ question: 'ok?', filters: { dateRange: { start: '2025-02-30' } } }, /filters\.dateRange\.start: must match format "date"/],
      [{ question: 'ok?', filters: { dateRange: { start: '2025-03-01', end: '2025-02-01' } } }, /start must not be after end/],
      [{ question: 'ok?', filters: { colour: 'red' } }, /filters\.colour: is not allowed/],
      [{ question: 'ok?', stream: true }, /stream: is not allowed/],
      [{ question: 'ok?', conversationId: '' }, /conversationId/],
    ];
    for (const url of [`${API}/rag`, `${API}/rag/stream`]) {
      for (const [payload, detail] of cases) {
        const res = await ask(payload, gh.headers, url);
        t.equal(res.statusCode, 400, `${url} ${JSON.stringify(payload).slice(0, 60)}`);
        t.match(res.headers['content-type'], /application\/json/, 'a plain JSON error, not a stream');
        const body = res.json();
        t.equal(body.status, 'error');
        t.match(body.message, /^Validation failed: /);
        t.equal(body.error.code, 'VALIDATION_ERROR');
        t.match(body.error.details.join('; '), detail);
      }
    }
    const exactly5000 = await ask({ question: `${'a'.repeat(4990)} uptime?` });
    t.equal(exactly5000.statusCode, 200, '5000 characters are accepted');

    const noAuth = await app.inject({ method: 'POST', url: `${API}/rag`, headers: { 'x-workspace-id': gh.workspaceId }, payload: { question: 'uptime?' } });
    t.equal(noAuth.statusCode, 401);
    t.same(noAuth.json().message, 'Authentication required');
    const badToken = await app.inject({
      method: 'POST',
      url: `${API}/rag/stream`,
      headers: { authorization: 'Bearer nope', 'x-workspace-id': gh.workspaceId },
      payload: { question: 'uptime?' },
    });
    t.equal(badToken.statusCode, 401);
    const stranger = await registerUser(app);
    for (const url of [`${API}/rag`, `${API}/rag/stream`]) {
      const res = await ask({ question: 'uptime?' }, wsHeaders(stranger, gh.workspaceId), url);
      t.equal(res.statusCode, 403);
      t.equal(res.json().message, 'Access denied to this workspace');
    }
    // A member whose canQuery was withdrawn.
    const viewer = await addOrgMember(app, owner, gh.orgId, 'viewer');
    const put = await app.inject({
      method: 'PATCH',
      url: `${API}/workspaces/${gh.workspaceId}/members/${viewer.id}`,
      headers: owner.headers,
      payload: { permissions: { canQuery: false } },
    });
    t.equal(put.statusCode, 200, put.body);
    const denied = await ask({ question: 'uptime?' }, wsHeaders(viewer, gh.workspaceId));
    t.equal(denied.statusCode, 403);
    t.equal(denied.json().error.code, 'INSUFFICIENT_PERMISSION');
  });

  let conversationId = '';
  t.test('an answer with sources, citations and validation, stored in a new conversation', async (t) => {
    const res = await ask({ question: 'What uptime does GitHub commit to in the Enterprise SLA?' });
    t.equal(res.statusCode, 200, res.body);
    const body = res.json();
    t.equal(body.status, 'success');
    const a: Answer = body.data;
    t.match(a.answer, /99\.9%/);
    t.match(a.answer, /\[Source \d+\]/);
    t.ok(a.sources.length >= 1 && a.sources.length <= 5);
    t.same(
      a.sources.map((s) => s.sourceNumber),
      a.sources.map((_, i) => i + 1),
      'sources numbered 1..n',
    );
    for (const s of a.sources) {
      t.ok(s.score >= 0 && s.score <= 1, 'score in 0..1');
      t.ok(s.workspaceId === gh.workspaceId || s.workspaceId === null, 'only this workspace or the DORA corpus');
      t.type(s.content, 'string');
    }
    const numbers = [...a.answer.matchAll(/\[Source (\d+)\]/g)].map((m) => Number(m[1]));
    t.same(
      a.citedSources.map((c) => c.sourceNumber),
      [...new Set(numbers)],
    );
    for (const c of a.citedSources) {
      const s = a.sources[c.sourceNumber - 1];
      t.same(c, { sourceNumber: s.sourceNumber, title: s.title, url: s.url });
      t.equal(s.title, 'GitHub Enterprise Service Level Agreement');
    }
    t.same(a.validation, { confidence: a.validation.confidence, isGrounded: true, hasHallucinations: false, isRelevant: true, issues: [] });
    t.ok(a.validation.confidence >= 0.7, `confidence ${a.validation.confidence}`);
    t.equal(a.formattedAnswer.format, 'markdown');
    t.match(a.formattedAnswer.text, /\[\[Source \d+\]\]\(\/api\/v1\/data-sources\/[^#)]+#document=/);
    t.match(a.formattedAnswer.text, /\*\*Sources\*\*\n\n1?\d?\. \[GitHub Enterprise Service Level Agreement\]/);
    t.ok(Number.isInteger(a.totalTime) && a.totalTime >= 0, 'totalTime in whole milliseconds');
    conversationId = a.conversationId;
    const stored = await messagesOf(conversationId);
    t.equal(stored.conversation.title, 'What uptime does GitHub commit to in the Enterprise SLA?');
    t.equal(stored.conversation.messageCount, 2);
    t.same(
      stored.messages.map((m: { role: string }) => m.role),
      ['user', 'assistant'],
    );
    t.equal(stored.messages[0].content, 'What uptime does GitHub commit to in the Enterprise SLA?');
    t.equal(stored.messages[1].content, a.answer);
    const meta = stored.messages[1].metadata;
    t.equal(meta.confidence, a.validation.confidence);
    t.same(meta.validation, a.validation);
    t.same(meta.citedSources, a.citedSources);
    t.equal(meta.sources.length, a.sources.length);
    t.same(
      meta.sources.map((s: { id: string; content: string }) => [s.id, s.content]),
      a.sources.map((s) => [s.id, s.content]),
      'stored sources keep the passage each one was retrieved with',
    );
    t.equal(meta.generator, 'extractive');
    t.equal(meta.totalTime, a.totalTime);
  });

  t.test('a multi-turn conversation: follow-ups keep the context', async (t) => {
    const follow = await ask({ question: 'What service credits does the customer get if GitHub does not meet it?', conversationId });
    t.equal(follow.statusCode, 200, follow.body);
    const a: Answer = follow.json().data;
    t.equal(a.conversationId, conversationId);
    t.match(a.answer, /[Ss]ervice [Cc]redit/);
    t.match(a.answer, /\[Source \d+\]/);
    t.equal(a.validation.isGrounded, true);

    const viaPath = await app.inject({
      method: 'POST',
      url: `${API}/conversations/${conversationId}/ask`,
      headers: gh.headers,
      payload: { question: 'How do customers contact the GitHub Security Incident Response Team?' },
    });
    t.equal(viaPath.statusCode, 200, viaPath.body);
    const b: Answer = viaPath.json().data;
    t.equal(b.conversationId, conversationId);
    t.ok(
      b.citedSources.some((c) => /SIRT/.test(c.title)),
      JSON.stringify(b.citedSources),
    );

    const extra = await app.inject({
      method: 'POST',
      url: `${API}/conversations/${conversationId}/ask`,
      headers: gh.headers,
      payload: { question: 'ok?', conversationId },
    });
    t.equal(extra.statusCode, 400, 'conversationId is not a field of /conversations/:id/ask');

    const stored = await messagesOf(conversationId);
    t.equal(stored.conversation.messageCount, 6);
    t.same(
      stored.messages.map((m: { content: string }) => m.content).filter((_: string, i: number) => i % 2 === 0),
      [
        'What uptime does GitHub commit to in the Enterprise SLA?',
        'What service credits does the customer get if GitHub does not meet it?',
        'How do customers contact the GitHub Security Incident Response Team?',
      ],
    );
  });

  t.test('DORA questions are answered from the shared corpus', async (t) => {
    const res = await ask({ question: 'What must contractual arrangements on the use of ICT services include according to DORA?' }, bc.headers);
    t.equal(res.statusCode, 200, res.body);
    const a: Answer = res.json().data;
    const cited = a.citedSources.map((c) => a.sources[c.sourceNumber - 1]);
    t.ok(cited.length > 0);
    t.ok(
      cited.every((s) => /^DORA Article (28|29|30):/.test(s.title) && s.workspaceId === null),
      cited.map((s) => s.title).join(' | '),
    );
    t.match(a.formattedAnswer.text, /\]\(\/api\/v1\/compliance\/articles\/Article-(28|29|30)\)/);
    t.equal(a.validation.hasHallucinations, false);
  });

  t.test('a question the sources do not answer says so, and validation shows it', async (t) => {
    const res = await ask({ question: 'What is the recovery point objective (RPO) of Basecamp backups?' }, bc.headers);
    const a: Answer = res.json().data;
    t.match(a.answer, new RegExp(`^${NO_ANSWER.replace(/\./g, '\\.')}`));
    t.same(a.citedSources, []);
    t.equal(a.validation.isGrounded, false);
    t.ok(a.validation.confidence <= 0.2, `confidence ${a.validation.confidence}`);
    t.match(a.validation.issues.join('\n'), /do not answer the question/);
  });

  t.test("workspaces do not see each other's documents", async (t) => {
    const res = await ask({ question: 'What uptime does GitHub commit to in the Enterprise SLA?' }, bc.headers);
    const a: Answer = res.json().data;
    t.notOk(a.sources.some((s) => s.workspaceId === gh.workspaceId));
    t.notMatch(a.answer, /99\.9%/);
  });

  t.test('conversationId of another user, another workspace, archived, unknown', async (t) => {
    const colleague = await addOrgMember(app, owner, gh.orgId, 'analyst');
    const before = (await messagesOf(conversationId)).conversation.messageCount;
    for (const [headers, label] of [
      [wsHeaders(colleague, gh.workspaceId), 'other user'],
      [bc.headers, 'other workspace'],
    ] as const) {
      for (const url of [`${API}/rag`, `${API}/rag/stream`]) {
        const res = await ask({ question: 'uptime?', conversationId }, headers, url);
        t.equal(res.statusCode, 404, `${label} ${url}`);
        t.equal(res.json().message, 'Conversation not found');
      }
      const viaPath = await app.inject({ method: 'POST', url: `${API}/conversations/${conversationId}/ask`, headers, payload: { question: 'uptime?' } });
      t.equal(viaPath.statusCode, 404, label);
    }
    t.equal((await ask({ question: 'uptime?', conversationId: 'nope' })).statusCode, 404);
    const archive = await app.inject({ method: 'PATCH', url: `${API}/conversations/${conversationId}`, headers: gh.headers, payload: { status: 'archived' } });
    t.equal(archive.statusCode, 200);
    const archived = await ask({ question: 'uptime?', conversationId });
    t.equal(archived.statusCode, 409);
    t.equal(archived.json().error.code, 'CONVERSATION_ARCHIVED');
    await app.inject({ method: 'PATCH', url: `${API}/conversations/${conversationId}`, headers: gh.headers, payload: { status: 'active' } });
    t.equal((await messagesOf(conversationId)).conversation.messageCount, before, 'nothing was stored');
  });

  t.test('the stream: events in order, each with a timestamp; the exchange stored once', async (t) => {
    const before = (await messagesOf(conversationId)).conversation.messageCount;
    const t0 = Date.now();
    const { res, events } = await streamInject(app, gh.headers, { question: 'What happens if GitHub does not meet the SLA?', conversationId });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /^text\/event-stream/);
    t.equal(res.headers['cache-control'], 'no-cache, no-transform');
    t.ok(res.headers['x-request-id']);
    const names = events.map((e) => e.event);
    t.same(names.slice(0, 3), ['status', 'sources', 'status']);
    t.same(names.slice(-3), ['metadata', 'saved', 'done']);
    const chunkNames = names.slice(3, -3);
    t.ok(chunkNames.length >= 2 && chunkNames.every((n) => n === 'chunk'), names.join(','));
    let last = t0 - 1;
    for (const e of events) {
      t.type(e.data.timestamp, 'number');
      t.ok(e.data.timestamp >= last && e.data.timestamp <= Date.now(), 'timestamps in order');
      last = e.data.timestamp;
    }
    t.equal(events[0].data.message, 'Retrieving context');
    t.equal(events[2].data.message, 'Generating answer');
    const sources = events[1].data.sources as Answer['sources'];
    t.ok(sources.length > 0);
    const text = events
      .filter((e) => e.event === 'chunk')
      .map((e) => e.data.text)
      .join('');
    t.match(text, /[Ss]ervice [Cc]redits/);
    const meta = events.find((e) => e.event === 'metadata')!.data;
    t.type(meta.confidence, 'number');
    t.ok(Array.isArray(meta.citedSources) && (meta.citedSources as unknown[]).length > 0);
    t.match(meta, { generator: 'extractive', model: null, sourceCount: sources.length, validation: { isGrounded: true } });
    const saved = events.find((e) => e.event === 'saved')!.data;
    t.equal(saved.conversationId, conversationId);
    t.equal(events[events.length - 1].data.message, 'Stream finished');

    const stored = await messagesOf(conversationId);
    t.equal(stored.conversation.messageCount, before + 2, 'stored once');
    const lastMsg = stored.messages[stored.messages.length - 1];
    t.equal(lastMsg.id, saved.messageId);
    t.equal(lastMsg.content, text, 'the chunks are the stored answer');
    t.equal(lastMsg.metadata.confidence, meta.confidence);

    const fresh = await streamInject(app, gh.headers, { question: 'How long do Basecamp keep data after cancellation?' });
    const newId = fresh.events.find((e) => e.event === 'saved')!.data.conversationId as string;
    t.not(newId, conversationId, 'without conversationId a new conversation is created');
  });

  t.test('export: JSON and Markdown round-trip', async (t) => {
    const json = await app.inject({ method: 'GET', url: `${API}/conversations/${conversationId}/export`, headers: gh.headers });
    t.equal(json.statusCode, 200);
    const data = json.json().data;
    t.ok(!Number.isNaN(Date.parse(data.exportedAt)));
    const listed = await app.inject({ method: 'GET', url: `${API}/conversations/${conversationId}/messages?limit=100`, headers: gh.headers });
    t.same(
      data.messages.map(({ evidence, ...m }: { evidence?: unknown }) => m),
      listed.json().data.messages,
      'the JSON export holds every message as the API serves it',
    );
    // Each answer with its evidence: confidence in words and per cent, absolute links, the passages.
    const base = ctx.config.publicUrl.replace(/\/+$/, '');
    let quoted = 0;
    for (const m of data.messages) {
      if (m.role !== 'assistant') {
        t.equal(m.evidence, undefined);
        continue;
      }
      t.equal(m.evidence.confidence, confidenceText(m.metadata.confidence));
      t.match(m.evidence.confidence, /^(High|Medium|Low) \(\d{1,3}%\)$/);
      const cited = new Set(m.metadata.citedSources.map((c: { sourceNumber: number }) => c.sourceNumber));
      m.evidence.sources.forEach((s: Record<string, unknown>, k: number) => {
        const src = m.metadata.sources[k];
        t.match(s, { sourceNumber: src.sourceNumber, title: src.title, section: src.section, cited: cited.has(src.sourceNumber), passage: src.content });
        t.equal(s.link, `${base}/vendors/${gh.workspaceSlug}/documents/${src.documentId}?chunk=${src.id}`, 'the document at the passage, in the dashboard');
        t.match(s.apiLink, new RegExp(`^${base}/api/v1/`));
        if (s.cited) quoted++;
      });
    }
    t.ok(quoted > 0, `${quoted} cited passages`);
    t.same(data.conversation, (await messagesOf(conversationId)).conversation);

    const md = await app.inject({ method: 'GET', url: `${API}/conversations/${conversationId}/export?format=markdown`, headers: gh.headers });
    t.equal(md.statusCode, 200);
    t.match(md.headers['content-type'], /^text\/markdown/);
    t.match(md.headers['content-disposition'], new RegExp(`attachment; filename="conversation-${conversationId}.md"`));
    t.match(md.body, /^# What uptime does GitHub commit to in the Enterprise SLA\?\n\nCreated: \d{4}-\d{2}-\d{2}T/);
    const parsed = parseMarkdownExport(md.body);
    t.equal(parsed.title, data.conversation.title);
    t.equal(parsed.created, data.conversation.createdAt);
    t.equal(parsed.messages.length, data.messages.length);
    data.messages.forEach(
      (
        m: {
          role: string;
          content: string;
          timestamp: string;
          metadata?: { confidence: number; sources: { sourceNumber: number; title: string }[]; citedSources: { sourceNumber: number }[] };
        },
        i: number,
      ) => {
        const p = parsed.messages[i];
        t.equal(p.role, m.role);
        t.equal(p.timestamp, m.timestamp);
        t.equal(p.content, m.content, `message ${i + 1} content round-trips`);
        if (m.role === 'assistant') {
          t.equal(p.links.length, m.metadata!.sources.length);
          t.equal(p.confidence, confidenceText(m.metadata!.confidence), 'confidence in words and per cent');
          for (const [k, link] of p.links.entries()) {
            const [n, title, href] = link.split('|');
            const src = m.metadata!.sources[k] as { sourceNumber: number; title: string; id: string; documentId: string; content?: string };
            t.equal(Number(n), src.sourceNumber);
            t.equal(title.replace(/\\([[\]])/g, '$1'), src.title);
            t.equal(href, `${base}/vendors/${gh.workspaceSlug}/documents/${src.documentId}?chunk=${src.id}`, 'an absolute link to the passage');
            const q = p.quotes.find((x) => x.n === src.sourceNumber)!;
            const isCited = m.metadata!.citedSources.some((c: { sourceNumber: number }) => c.sourceNumber === src.sourceNumber);
            t.match(q.detail, isCited ? /^Cited in the answer/ : /^Retrieved, not cited/);
            t.equal(q.quote, isCited ? reflowQuote(src.content!) : '', isCited ? 'the cited passage is quoted' : 'only cited passages are quoted');
          }
        }
      },
    );
    const bad = await app.inject({ method: 'GET', url: `${API}/conversations/${conversationId}/export?format=pdf`, headers: gh.headers });
    t.equal(bad.statusCode, 400);
  });

  t.test('every question is logged', async (t) => {
    await app.services.analytics.settled(); // the rows are written after the responses
    const [row] = await queryRows<{ n: number; answered: number }>(
      app.database.db,
      sql`
      select count(*)::int as n, count(*) filter (where status = 'answered')::int as answered from query_log where workspace_id = ${gh.workspaceId}`,
    );
    t.ok(Number(row.n) >= 6, `${row.n} logged`);
    t.equal(Number(row.answered), Number(row.n));
  });
});
