/**
 * The authorization matrix: every workspace-scoped route of the app (collected by the
 * workspace plugin from route configs, so routes added later are covered) is called by
 * the owner, an admin, a member, a viewer, a member whose access was removed, and a
 * user of another organization. Expected statuses follow the role matrix
 * (src/modules/workspaces/permissions.ts, docs/permissions.md); denied responses must
 * not carry any data of the workspace. A route without a sample request below fails
 * the test: add one when you add a workspace-scoped route.
 */
import t from 'tap';
import type { LightMyRequestResponse } from 'fastify';
import { TEMPLATE_IDS } from '../src/compliance/questionnaire-template.js';
import { ROLE_PERMISSIONS } from '../src/modules/workspaces/permissions.js';
import { buildTestApp, registerUser, type Session } from './helpers/app.js';
import { waitForDataSource } from './helpers/dataSources.js';
import { addOrgMember, createOrg, createWorkspace, sampleVendorProfile } from './helpers/workspaces.js';

const ctx = await buildTestApp();
t.teardown(ctx.close);
const { app } = ctx;

type Member = 'owner' | 'admin' | 'member' | 'viewer';
type Actor = Member | 'removed' | 'outsider';
const MEMBERS: Member[] = ['owner', 'admin', 'member', 'viewer'];
const ACTORS: Actor[] = [...MEMBERS, 'removed', 'outsider'];
const MARKER = 'LEAKMARKER';

// People: the owner founded the organization; admin is an analyst made workspace admin;
// member (analyst) and viewer (organization viewer) have access through their
// organization role; spare is a target for member operations; removed was taken off
// each workspace; outsider belongs to another organization and owns a workspace there.
const owner = await registerUser(app, { name: 'Owner Person' });
const orgId = await createOrg(app, owner, 'Victim Bank');
const people: Record<Exclude<Actor, 'owner' | 'outsider'> | 'spare', Session> = {
  admin: await addOrgMember(app, owner, orgId, 'analyst', { name: 'Admin Person' }),
  member: await addOrgMember(app, owner, orgId, 'analyst', { name: 'Member Person' }),
  viewer: await addOrgMember(app, owner, orgId, 'viewer', { name: 'Viewer Person' }),
  removed: await addOrgMember(app, owner, orgId, 'analyst', { name: 'Removed Person' }),
  spare: await addOrgMember(app, owner, orgId, 'analyst', { name: 'Spare Person' }),
};
const outsider = await registerUser(app, { name: 'Outsider Person' });
await createOrg(app, outsider, 'Other Bank');
const outsiderWs = await createWorkspace(app, outsider, 'Outsider Vendor');
const session = (a: Actor): Session => (a === 'owner' ? owner : a === 'outsider' ? outsider : people[a]);

interface Ws {
  id: string;
  slug: string;
}
let counter = 0;
/** A workspace of the victim organization with the admin made explicit and `removed` removed. */
async function victimWorkspace(): Promise<Ws> {
  counter += 1;
  const ws = await createWorkspace(app, owner, `${MARKER} Vendor ${counter}`, {
    vendorProfile: sampleVendorProfile({ legalName: `${MARKER} Legal ${counter}`, identifier: undefined }),
  });
  const base = `/api/v1/workspaces/${ws.id}/members`;
  const a = await app.inject({ method: 'POST', url: base, headers: owner.headers, payload: { email: people.admin.email, role: 'admin' } });
  const r = await app.inject({ method: 'DELETE', url: `${base}/${people.removed.id}`, headers: owner.headers });
  if (a.statusCode !== 201 || r.statusCode !== 200) throw new Error(`fixture: ${a.body} ${r.body}`);
  return { id: ws.id, slug: ws.slug };
}

interface Req {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

/** A multipart/form-data body with text fields and files. */
function multipart(
  fields: Record<string, string>,
  files: { name: string; filename: string; type: string; content: string }[],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----authz${Math.random().toString(16).slice(2)}`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  for (const f of files)
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n${f.content}\r\n`,
    );
  parts.push(`--${boundary}--\r\n`);
  return { payload: Buffer.from(parts.join('')), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
interface Sample {
  /**
   * Builds the request for `as` on workspace `ws` (path given with /api/v1). It may
   * create resources first through the API: with the acting member's session, or the
   * owner's for non-members (their target is the victim's data).
   */
  prepare(ws: Ws, as: Actor): Promise<Req> | Req;
  /** Changes state: a fresh workspace per actor. */
  destructive?: boolean;
  /** Expected status per member role when allowed (default: any 2xx). */
  expect?: Partial<Record<Member, number>>;
  /** When allowed, only assert that access was granted (not 401/403): the outcome depends on set-up outside this test. */
  accessOnly?: boolean;
}

const hdr = (as: Actor, ws: Ws) => ({ ...session(as).headers, 'x-workspace-id': ws.id });
const creator = (as: Actor): Session => (MEMBERS.includes(as as Member) ? session(as) : owner);

/** A register draft of the workspace (started by the owner; the running one when there is one). */
async function profileDraft(ws: Ws): Promise<string> {
  const url = `/api/v1/workspaces/${ws.id}/profile-drafts`;
  const res = await app.inject({ method: 'POST', url, headers: owner.headers });
  if (res.statusCode === 202) return res.json().data.draft.id;
  const list = await app.inject({ method: 'GET', url, headers: owner.headers });
  const id = list.json().data?.drafts?.[0]?.id;
  if (!id) throw new Error(`fixture: draft ${res.statusCode} ${res.body}`);
  return id;
}

/** The id of the workspace's first contract (its sample profile has one). */
async function contractId(ws: Ws): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/api/v1/workspaces/${ws.id}/contracts`, headers: owner.headers });
  const id = res.json().data?.contracts?.[0]?.id;
  if (!id) throw new Error(`fixture: contracts ${res.statusCode} ${res.body}`);
  return id;
}
let references = 0;

async function conversation(ws: Ws, as: Actor): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/conversations',
    headers: hdr(MEMBERS.includes(as as Member) ? as : 'owner', ws),
    payload: { title: `${MARKER} conversation` },
  });
  if (res.statusCode !== 201) throw new Error(`conversation: ${res.body}`);
  return res.json().data.conversation.id;
}

async function questionnaire(ws: Ws): Promise<string> {
  // Created by the owner (writing questionnaires needs canManageSync, which viewers lack).
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/questionnaires',
    headers: hdr('owner', ws),
    payload: { title: `${MARKER} questionnaire`, template: TEMPLATE_IDS[0], vendorContact: { email: 'vendor@example.com' } },
  });
  if (res.statusCode !== 201) throw new Error(`questionnaire: ${res.body}`);
  return res.json().data.questionnaire.id;
}

/**
 * An MCP source of the workspace, created by the owner without a sync (a public IP
 * literal passes the network rules without DNS and is never contacted).
 */
async function mcpSource(ws: Ws, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/mcp-sources',
    headers: hdr('owner', ws),
    payload: {
      name: `${MARKER} MCP`,
      transport: 'http',
      url: 'https://93.184.215.14/mcp',
      headers: { Authorization: `Bearer ${MARKER}` },
      sync: false,
      ...extra,
    },
  });
  if (res.statusCode !== 201) throw new Error(`mcp source: ${res.body}`);
  return res.json().data.mcpSource.id;
}

/** A data source of the victim workspace (created by the owner); its id and first file id. */
async function dataSource(ws: Ws): Promise<{ id: string; fileId: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/data-sources',
    headers: hdr('owner', ws),
    payload: {
      name: `${MARKER} source`,
      documents: [{ filename: 'policy.md', format: 'markdown', content: `# ${MARKER} policy\n\nThe vendor keeps backups for 30 days.` }],
    },
  });
  if (res.statusCode !== 201) throw new Error(`data source: ${res.statusCode} ${res.body}`);
  const d = res.json().data.dataSource;
  return { id: d.id, fileId: d.files[0]?.id ?? NO_SUCH_ID };
}

/** An indexed document of the victim workspace (a data source ingested, read back by the owner). */
async function indexedDocument(ws: Ws): Promise<{ id: string; chunkId: string }> {
  const d = await dataSource(ws);
  const ready = await waitForDataSource(app, hdr('owner', ws), d.id, { timeoutMs: 60_000 });
  const documentId = ready.files[0]?.document?.id;
  if (!documentId) throw new Error(`fixture: document of ${d.id} (${ready.status})`);
  const chunk = await app.inject({ method: 'POST', url: '/api/v1/rag', headers: hdr('owner', ws), payload: { question: 'How long are backups kept?' } });
  const chunkId = (chunk.json().data?.sources as { id: string; documentId: string }[] | undefined)?.find((s) => s.documentId === documentId)?.id;
  return { id: documentId, chunkId: chunkId ?? NO_SUCH_ID };
}

/** `mark`: the victim's resources carry MARKER; sample request bodies must not (their echo is no leak). */
const assessmentUpload = (mark = MARKER) =>
  multipart({ name: `${mark} assessment` }, [
    {
      name: 'files',
      filename: 'soc2.md',
      type: 'text/markdown',
      content: `# ${mark} security policy\n\nIncidents are reported within 24 hours. An exit plan is tested yearly.`,
    },
  ]);

async function assessmentWithDocument(ws: Ws): Promise<{ id: string; documentId: string }> {
  const up = assessmentUpload();
  const res = await app.inject({ method: 'POST', url: '/api/v1/assessments', headers: { ...hdr('owner', ws), ...up.headers }, payload: up.payload });
  if (res.statusCode !== 201) throw new Error(`assessment: ${res.statusCode} ${res.body}`);
  const a = res.json().data.assessment;
  return { id: a.id, documentId: a.documents[0].id };
}
const assessment = async (ws: Ws) => (await assessmentWithDocument(ws)).id;
/** An assessment of the workspace whose analysis has completed (review steps need one). */
async function completedAssessment(ws: Ws): Promise<string> {
  const id = await assessment(ws);
  for (let i = 0; i < 600; i++) {
    const res = await app.inject({ method: 'GET', url: `/api/v1/assessments/${id}`, headers: hdr('owner', ws) });
    const status = res.json().data?.assessment?.status;
    if (status === 'completed') return id;
    if (status === 'failed') throw new Error(`fixture: assessment failed ${res.body}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('fixture: assessment did not complete');
}

/** Sample requests, keyed `METHOD /api/v1/path` exactly as the route is declared. */
const SAMPLES: Record<string, Sample> = {
  // workspaces (workspace from :id)
  'GET /api/v1/workspaces/:id': { prepare: (ws) => ({ url: `/api/v1/workspaces/${ws.id}` }) },
  'PATCH /api/v1/workspaces/:id': {
    destructive: true,
    prepare: (ws) => ({ url: `/api/v1/workspaces/${ws.id}`, payload: { workspaceName: `Renamed ${ws.slug}` } }),
  },
  'DELETE /api/v1/workspaces/:id': { destructive: true, prepare: (ws) => ({ url: `/api/v1/workspaces/${ws.id}` }) },
  'POST /api/v1/workspaces/:id/members': {
    destructive: true,
    expect: { owner: 201, admin: 201 },
    prepare: (ws) => ({ url: `/api/v1/workspaces/${ws.id}/members`, payload: { email: people.spare.email, role: 'viewer' } }),
  },
  'PATCH /api/v1/workspaces/:id/members/:userId': {
    destructive: true,
    prepare: (ws) => ({ url: `/api/v1/workspaces/${ws.id}/members/${people.spare.id}`, payload: { role: 'viewer' } }),
  },
  'DELETE /api/v1/workspaces/:id/members/:userId': { destructive: true, prepare: (ws) => ({ url: `/api/v1/workspaces/${ws.id}/members/${people.spare.id}` }) },
  'POST /api/v1/workspaces/:id/leave': { destructive: true, expect: { owner: 400 }, prepare: (ws) => ({ url: `/api/v1/workspaces/${ws.id}/leave` }) },
  'POST /api/v1/workspaces/:id/transfer': {
    destructive: true,
    prepare: (ws) => ({ url: `/api/v1/workspaces/${ws.id}/transfer`, payload: { newOwnerId: people.spare.id } }),
  },
  // conversations and RAG (workspace from X-Workspace-Id)
  'GET /api/v1/conversations': { prepare: () => ({ url: '/api/v1/conversations' }) },
  'POST /api/v1/conversations': {
    destructive: true,
    expect: { owner: 201, admin: 201, member: 201, viewer: 201 },
    prepare: () => ({ url: '/api/v1/conversations', payload: { title: 'New' } }),
  },
  'GET /api/v1/conversations/:id': { prepare: async (ws, as) => ({ url: `/api/v1/conversations/${await conversation(ws, as)}` }) },
  'PATCH /api/v1/conversations/:id': {
    destructive: true,
    prepare: async (ws, as) => ({ url: `/api/v1/conversations/${await conversation(ws, as)}`, payload: { status: 'archived' } }),
  },
  'DELETE /api/v1/conversations/:id': { destructive: true, prepare: async (ws, as) => ({ url: `/api/v1/conversations/${await conversation(ws, as)}` }) },
  'GET /api/v1/conversations/:id/messages': { prepare: async (ws, as) => ({ url: `/api/v1/conversations/${await conversation(ws, as)}/messages` }) },
  'DELETE /api/v1/conversations/:id/messages': {
    destructive: true,
    prepare: async (ws, as) => ({ url: `/api/v1/conversations/${await conversation(ws, as)}/messages` }),
  },
  'GET /api/v1/conversations/:id/export': {
    prepare: async (ws, as) => ({ url: `/api/v1/conversations/${await conversation(ws, as)}/export?format=markdown` }),
  },
  'POST /api/v1/conversations/:id/ask': {
    destructive: true,
    prepare: async (ws, as) => ({
      url: `/api/v1/conversations/${await conversation(ws, as)}/ask`,
      payload: { question: 'What must a register of information contain?' },
    }),
  },
  'POST /api/v1/rag': { destructive: true, prepare: () => ({ url: '/api/v1/rag', payload: { question: 'What must a register of information contain?' } }) },
  'POST /api/v1/rag/query': {
    destructive: true,
    prepare: () => ({ url: '/api/v1/rag/query', payload: { question: 'What must a register of information contain?' } }),
  },
  'POST /api/v1/rag/stream': {
    destructive: true,
    prepare: () => ({ url: '/api/v1/rag/stream', payload: { question: 'What must a register of information contain?' } }),
  },
  // questionnaires
  'GET /api/v1/questionnaires': { prepare: () => ({ url: '/api/v1/questionnaires' }) },
  'POST /api/v1/questionnaires': { destructive: true, prepare: () => ({ url: '/api/v1/questionnaires', payload: { title: 'Q', template: TEMPLATE_IDS[0] } }) },
  'GET /api/v1/questionnaires/:id': { prepare: async (ws) => ({ url: `/api/v1/questionnaires/${await questionnaire(ws)}` }) },
  'PATCH /api/v1/questionnaires/:id': {
    destructive: true,
    prepare: async (ws) => ({ url: `/api/v1/questionnaires/${await questionnaire(ws)}`, payload: { title: 'Renamed' } }),
  },
  'DELETE /api/v1/questionnaires/:id': { destructive: true, prepare: async (ws) => ({ url: `/api/v1/questionnaires/${await questionnaire(ws)}` }) },
  'POST /api/v1/questionnaires/:id/send': { destructive: true, prepare: async (ws) => ({ url: `/api/v1/questionnaires/${await questionnaire(ws)}/send` }) },
  'POST /api/v1/questionnaires/:id/prefill': {
    destructive: true,
    accessOnly: true,
    prepare: async (ws) => ({ url: `/api/v1/questionnaires/${await questionnaire(ws)}/prefill` }),
  },
  // MCP sources (no MCP server is contacted: sources are created without a sync; test-connection is refused by the network rules)
  'GET /api/v1/mcp-sources': { prepare: () => ({ url: '/api/v1/mcp-sources' }) },
  'POST /api/v1/mcp-sources': {
    destructive: true,
    expect: { owner: 201, admin: 201, member: 201 },
    prepare: () => ({ url: '/api/v1/mcp-sources', payload: { name: 'Docs', transport: 'http', url: 'https://93.184.215.14/mcp', sync: false } }),
  },
  'POST /api/v1/mcp-sources/test-connection': {
    expect: { owner: 400, admin: 400, member: 400 },
    prepare: () => ({ url: '/api/v1/mcp-sources/test-connection', payload: { transport: 'http', url: 'http://127.0.0.1:9/mcp' } }),
  },
  'GET /api/v1/mcp-sources/:id': { prepare: async (ws) => ({ url: `/api/v1/mcp-sources/${await mcpSource(ws)}` }) },
  'PATCH /api/v1/mcp-sources/:id': {
    destructive: true,
    prepare: async (ws) => ({ url: `/api/v1/mcp-sources/${await mcpSource(ws)}`, payload: { name: 'Renamed' } }),
  },
  'DELETE /api/v1/mcp-sources/:id': { destructive: true, prepare: async (ws) => ({ url: `/api/v1/mcp-sources/${await mcpSource(ws)}` }) },
  'POST /api/v1/mcp-sources/:id/sync': {
    destructive: true,
    expect: { owner: 409, admin: 409, member: 409 },
    prepare: async (ws) => ({ url: `/api/v1/mcp-sources/${await mcpSource(ws, { enabled: false })}/sync` }),
  },
  'GET /api/v1/mcp-sources/:id/syncs/:syncId': {
    expect: { owner: 404, admin: 404, member: 404, viewer: 404 },
    prepare: async (ws) => ({ url: `/api/v1/mcp-sources/${await mcpSource(ws)}/syncs/00000000-0000-4000-8000-000000000000` }),
  },
  'GET /api/v1/mcp-sources/:id/stats': { prepare: async (ws) => ({ url: `/api/v1/mcp-sources/${await mcpSource(ws)}/stats` }) },
  // data sources
  'POST /api/v1/data-sources': {
    destructive: true,
    prepare: () => ({
      url: '/api/v1/data-sources',
      payload: { name: 'Policies', documents: [{ filename: 'a.md', format: 'markdown', content: '# A\n\nText.' }] },
    }),
  },
  'GET /api/v1/data-sources': { prepare: () => ({ url: '/api/v1/data-sources' }) },
  // sync state of the workspace (data sources and MCP sources)
  'GET /api/v1/sync-status': { prepare: () => ({ url: '/api/v1/sync-status' }) },
  'GET /api/v1/data-sources/:id': { prepare: async (ws) => ({ url: `/api/v1/data-sources/${(await dataSource(ws)).id}` }) },
  'GET /api/v1/documents/:id': {
    prepare: async (ws) => {
      const d = await indexedDocument(ws);
      return { url: `/api/v1/documents/${d.id}?chunk=${d.chunkId}` };
    },
  },
  // document metadata (docs/inventory.md): read with canViewSources, set with canManageSync
  'GET /api/v1/document-metadata': { prepare: () => ({ url: '/api/v1/document-metadata' }) },
  'PATCH /api/v1/documents/:id/metadata': {
    prepare: async (ws) => ({ url: `/api/v1/documents/${(await indexedDocument(ws)).id}/metadata`, payload: { version: '2.1' } }),
  },
  'GET /api/v1/data-sources/:id/files/:fileId': {
    prepare: async (ws) => {
      const d = await dataSource(ws);
      return { url: `/api/v1/data-sources/${d.id}/files/${d.fileId}` };
    },
  },
  'POST /api/v1/data-sources/:id/sync': {
    destructive: true,
    accessOnly: true,
    prepare: async (ws) => ({ url: `/api/v1/data-sources/${(await dataSource(ws)).id}/sync` }),
  },
  'DELETE /api/v1/data-sources/:id': { destructive: true, prepare: async (ws) => ({ url: `/api/v1/data-sources/${(await dataSource(ws)).id}` }) },
  // assessments
  'GET /api/v1/assessments': { prepare: () => ({ url: '/api/v1/assessments' }) },
  'POST /api/v1/assessments': {
    destructive: true,
    prepare: () => {
      const up = assessmentUpload('Plain');
      return { url: '/api/v1/assessments', payload: up.payload, headers: up.headers };
    },
  },
  'GET /api/v1/assessments/:id': { prepare: async (ws) => ({ url: `/api/v1/assessments/${await assessment(ws)}` }) },
  'DELETE /api/v1/assessments/:id': { destructive: true, prepare: async (ws) => ({ url: `/api/v1/assessments/${await assessment(ws)}` }) },
  'GET /api/v1/assessments/:id/documents/:documentId': {
    prepare: async (ws) => {
      const a = await assessmentWithDocument(ws);
      return { url: `/api/v1/assessments/${a.id}/documents/${a.documentId}` };
    },
  },
  // the report needs a finished analysis (a job): only access is asserted here
  'PUT /api/v1/assessments/:id/results/:obligationId/verdict': {
    destructive: true,
    prepare: async (ws) => ({
      url: `/api/v1/assessments/${await completedAssessment(ws)}/results/A28.6/verdict`,
      payload: { status: 'partial', reason: 'Limited' },
    }),
  },
  'DELETE /api/v1/assessments/:id/results/:obligationId/verdict': {
    destructive: true,
    prepare: async (ws) => {
      const id = await completedAssessment(ws);
      const url = `/api/v1/assessments/${id}/results/A28.6/verdict`;
      await app.inject({ method: 'PUT', url, headers: hdr('owner', ws), payload: { status: 'missing', reason: 'fixture' } });
      return { url };
    },
  },
  'POST /api/v1/assessments/:id/results/:obligationId/comments': {
    destructive: true,
    prepare: async (ws) => ({ url: `/api/v1/assessments/${await completedAssessment(ws)}/results/A28.6/comments`, payload: { text: 'A comment' } }),
  },
  'POST /api/v1/assessments/:id/sign-off': {
    destructive: true,
    prepare: async (ws) => ({ url: `/api/v1/assessments/${await completedAssessment(ws)}/sign-off`, payload: { note: 'Reviewed' } }),
  },
  'GET /api/v1/assessments/:id/reviews': { prepare: async (ws) => ({ url: `/api/v1/assessments/${await assessment(ws)}/reviews` }) },
  'GET /api/v1/assessments/:id/report': { accessOnly: true, prepare: async (ws) => ({ url: `/api/v1/assessments/${await assessment(ws)}/report` }) },
  // register drafting (the draft runs as a job: deciding is only asserted for access)
  'POST /api/v1/workspaces/:id/profile-drafts': {
    destructive: true,
    expect: { owner: 202, admin: 202, member: 202 },
    prepare: (ws) => ({ url: `/api/v1/workspaces/${ws.id}/profile-drafts` }),
  },
  'GET /api/v1/workspaces/:id/profile-drafts': { prepare: (ws) => ({ url: `/api/v1/workspaces/${ws.id}/profile-drafts` }) },
  'GET /api/v1/workspaces/:id/profile-drafts/:draftId': {
    prepare: async (ws) => ({ url: `/api/v1/workspaces/${ws.id}/profile-drafts/${await profileDraft(ws)}` }),
  },
  'POST /api/v1/workspaces/:id/profile-drafts/:draftId/decisions': {
    destructive: true,
    accessOnly: true,
    prepare: async (ws) => ({
      url: `/api/v1/workspaces/${ws.id}/profile-drafts/${await profileDraft(ws)}/decisions`,
      payload: { decisions: [{ field: 'governingLaw', action: 'reject' }] },
    }),
  },
  // contracts (docs/register-of-information.md)
  'GET /api/v1/workspaces/:id/contracts': { prepare: (ws) => ({ url: `/api/v1/workspaces/${ws.id}/contracts` }) },
  'POST /api/v1/workspaces/:id/contracts': {
    destructive: true,
    expect: { owner: 201, admin: 201, member: 201 },
    prepare: (ws) => {
      references += 1;
      return { url: `/api/v1/workspaces/${ws.id}/contracts`, payload: { reference: `AUTHZ-${references}`, startDate: '2025-01-01' } };
    },
  },
  'PATCH /api/v1/workspaces/:id/contracts/:contractId': {
    destructive: true,
    prepare: async (ws) => ({ url: `/api/v1/workspaces/${ws.id}/contracts/${await contractId(ws)}`, payload: { governingLaw: 'IE' } }),
  },
  'POST /api/v1/workspaces/:id/contracts/:contractId/end': {
    destructive: true,
    prepare: async (ws) => ({
      url: `/api/v1/workspaces/${ws.id}/contracts/${await contractId(ws)}/end`,
      payload: { endDate: '2027-12-31', terminationReason: 'expired' },
    }),
  },
  'DELETE /api/v1/workspaces/:id/contracts/:contractId': {
    destructive: true,
    prepare: async (ws) => ({ url: `/api/v1/workspaces/${ws.id}/contracts/${await contractId(ws)}` }),
  },
  // evaluation (built-in metrics)
  'POST /api/v1/ragas/evaluate': {
    destructive: true,
    prepare: () => ({
      url: '/api/v1/ragas/evaluate',
      payload: {
        question: 'How long are backups kept?',
        answer: 'Backups are kept for 30 days.',
        contexts: ['The vendor keeps backups for 30 days.'],
        evaluator: 'builtin',
      },
    }),
  },
  // analytics
  'GET /api/v1/analytics/queries': { prepare: () => ({ url: '/api/v1/analytics/queries' }) },
  'GET /api/v1/analytics/usage': { prepare: () => ({ url: '/api/v1/analytics/usage' }) },
  'GET /api/v1/analytics/sources': { prepare: () => ({ url: '/api/v1/analytics/sources' }) },
};

const routes = app.workspaceRoutes.map((r) => ({ ...r, key: `${r.method} ${r.url}` }));
const methodOf = (key: string) => key.split(' ')[0] as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

function leaks(res: LightMyRequestResponse, ws: Ws): string | null {
  const body = res.body;
  for (const needle of [MARKER, ws.id, ws.slug]) if (body.includes(needle)) return needle;
  return null;
}

const shared = await victimWorkspace();

// Organization API keys (docs/api-keys.md), made by the owner (org_admin): one limited to
// each workspace it is tried on (canQuery and canViewSources: no canManageSync), one limited
// to another workspace of the same organization, one of the other organization, one revoked.
const KEY_FLAGS = { canQuery: true, canViewSources: true };
async function makeKey(by: Session, org: string, workspaces: string[], permissions: Record<string, boolean> = KEY_FLAGS): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/organizations/${org}/api-keys`,
    headers: by.headers,
    payload: { name: 'Matrix key', expiresAt: new Date(Date.now() + 86_400_000).toISOString(), workspaces, permissions },
  });
  if (res.statusCode !== 201) throw new Error(`fixture: api key ${res.statusCode} ${res.body}`);
  return res.json().data.key;
}
const keysByWorkspace = new Map<string, string>();
const keyFor = async (ws: Ws) => {
  if (!keysByWorkspace.has(ws.id)) keysByWorkspace.set(ws.id, await makeKey(owner, orgId, [ws.id]));
  return keysByWorkspace.get(ws.id)!;
};
const elsewhere = await victimWorkspace();
const keyElsewhere = await makeKey(owner, orgId, [elsewhere.id], { canQuery: true, canViewSources: true, canManageSync: true });
const outsiderOrg = (await app.inject({ method: 'GET', url: '/api/v1/organizations/me', headers: outsider.headers })).json().data.organization.id;
const outsiderKey = await makeKey(outsider, outsiderOrg, [outsiderWs.id], { canQuery: true, canViewSources: true, canManageSync: true });
const revokedKey = await makeKey(owner, orgId, [shared.id]);
{
  const list = await app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/api-keys`, headers: owner.headers, query: { limit: '100' } });
  const revoked = list.json().data.apiKeys.find((k: { prefix: string }) => revokedKey.startsWith(k.prefix));
  const res = await app.inject({ method: 'DELETE', url: `/api/v1/organizations/${orgId}/api-keys/${revoked.id}`, headers: owner.headers });
  if (res.statusCode !== 200) throw new Error(`fixture: revoke ${res.body}`);
}
const KEY_DENIED_FLAGS = ['canManageSync', 'canInvite', 'canEditSettings', 'canDeleteWorkspace'];

t.test('every workspace-scoped route has a sample request', async (t) => {
  t.ok(routes.length >= 8, `${routes.length} workspace-scoped routes`);
  const missing = routes.filter((r) => !SAMPLES[r.key]).map((r) => r.key);
  t.same(missing, [], 'routes without a sample in test/authz-matrix.test.ts');
  const stale = Object.keys(SAMPLES).filter((k) => !routes.some((r) => r.key === k));
  if (stale.length) t.comment(`samples for routes that no longer exist: ${stale.join(', ')}`);
});

for (const route of routes) {
  const sample = SAMPLES[route.key];
  if (!sample) continue;
  t.test(route.key, async (t) => {
    for (const as of ACTORS) {
      const isMember = as !== 'removed' && as !== 'outsider';
      const allowed = isMember && (route.permission ? ROLE_PERMISSIONS[as][route.permission] : true);
      // Only a request that gets through changes anything: it gets a workspace of its own.
      const ws = sample.destructive && allowed ? await victimWorkspace() : shared;
      const req = await sample.prepare(ws, as);
      const res = await app.inject({
        method: methodOf(route.key),
        url: req.url,
        headers: { ...hdr(as, ws), ...req.headers },
        ...(req.payload !== undefined ? { payload: req.payload as object } : {}),
      });
      const where = `${as}: ${res.statusCode} ${res.body.slice(0, 200)}`;
      if (!isMember) {
        t.equal(res.statusCode, 403, where);
        t.equal(res.json().message, 'Access denied to this workspace', where);
        t.equal(res.json().error?.code, 'WORKSPACE_ACCESS_DENIED', where);
        t.equal(leaks(res, ws), null, `${as} sees no data of the workspace`);
        continue;
      }
      if (!allowed) {
        t.equal(res.statusCode, 403, where);
        t.equal(res.json().error?.code, 'INSUFFICIENT_PERMISSION', where);
        t.equal(leaks(res, ws), null, `${as} without ${route.permission} sees no data`);
        continue;
      }
      const expected = sample.expect?.[as];
      if (expected !== undefined) t.equal(res.statusCode, expected, where);
      else if (sample.accessOnly) t.ok(res.statusCode !== 401 && res.statusCode !== 403, where);
      else t.ok(res.statusCode >= 200 && res.statusCode < 300, where);
    }

    // API keys: a key limited to another workspace (of this organization or another) is
    // refused here, a revoked key is refused at once, and a key limited to this workspace
    // gets no more than its flags, and never changes the workspace itself.
    {
      const ws = sample.destructive ? await victimWorkspace() : shared;
      const req = await sample.prepare(ws, 'owner');
      const call = (key: string) =>
        app.inject({
          method: methodOf(route.key),
          url: req.url,
          headers: { authorization: `Bearer ${key}`, 'x-workspace-id': ws.id, ...req.headers },
          ...(req.payload !== undefined ? { payload: req.payload as object } : {}),
        });
      for (const [label, key] of [
        ['key of another workspace', keyElsewhere],
        ['key of another organization', outsiderKey],
      ] as const) {
        const res = await call(key);
        const where = `${label}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        t.equal(res.statusCode, 403, where);
        t.equal(res.json().error?.code, 'WORKSPACE_ACCESS_DENIED', where);
        t.equal(leaks(res, ws), null, `${label} sees no data of the workspace`);
      }
      const revoked = await call(revokedKey);
      t.equal(revoked.statusCode, 401, `revoked key: ${revoked.statusCode}`);
      t.equal(leaks(revoked, ws), null, 'a revoked key sees no data');
      const own = await call(await keyFor(ws));
      const where = `key of this workspace: ${own.statusCode} ${own.body.slice(0, 200)}`;
      const changesWorkspace = route.workspaceParam !== null && methodOf(route.key) !== 'GET';
      if (changesWorkspace || (route.permission && KEY_DENIED_FLAGS.includes(route.permission))) {
        t.equal(own.statusCode, 403, where);
        t.ok(['INSUFFICIENT_PERMISSION', 'API_KEY_NOT_ALLOWED'].includes(own.json().error?.code), where);
        t.equal(leaks(own, ws), null, 'a key beyond its flags sees no data');
      } else t.ok(own.statusCode !== 401 && own.statusCode !== 403, where);
    }

    // An outsider who names their own workspace in the header reaches none of the
    // victim's resources through ids in the path or body.
    if (!route.workspaceParam) {
      const req = await sample.prepare(shared, 'outsider');
      const res = await app.inject({
        method: methodOf(route.key),
        url: req.url,
        headers: { ...outsider.headers, 'x-workspace-id': outsiderWs.id, ...req.headers },
        ...(req.payload !== undefined ? { payload: req.payload as object } : {}),
      });
      t.ok(res.statusCode < 500, `outsider in own workspace: ${res.statusCode}`);
      if (route.url.includes('/:')) t.ok(res.statusCode >= 400, `outsider in own workspace cannot reach the victim's resource: ${res.statusCode}`);
      t.equal(leaks(res, shared), null, 'outsider in own workspace sees no data of the victim workspace');

      const missing = await app.inject({
        method: methodOf(route.key),
        url: req.url,
        headers: { ...owner.headers, ...req.headers },
        ...(req.payload !== undefined ? { payload: req.payload as object } : {}),
      });
      t.equal(missing.statusCode, 400, 'X-Workspace-Id is required');
      t.equal(missing.json().error?.code, 'VALIDATION_ERROR');
    }
  });
}
