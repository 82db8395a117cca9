import t from 'tap';
import { assessments } from '../../src/db/schema/assessments.js';
import { questionnaires } from '../../src/db/schema/questionnaires.js';
import { addDays, addMonths, contractEndOf, nextReviewAfter } from '../../src/domain/inventory.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { addOrgMember, createOrgAndWorkspace, createWorkspace } from '../helpers/workspaces.js';

/**
 * The vendor inventory (docs/inventory.md, issue 31): owner, lifecycle, review cycle from the
 * tier and moved by a sign-off; GET /workspaces with search, filters, a sort per column and
 * 400s in the envelope for bad parameters.
 */
const API = '/api/v1';

t.test('review cycle arithmetic', async (t) => {
  t.equal(addMonths('2026-08-31', 6), '2027-02-28', 'day clamped to the month');
  t.equal(addMonths('2028-08-31', 6), '2029-02-28');
  t.equal(addMonths('2027-08-31', 6), '2028-02-29', 'leap year');
  t.equal(addMonths('2026-01-15', 12), '2027-01-15');
  t.equal(nextReviewAfter('2026-01-15', 'critical'), '2026-07-15');
  t.equal(nextReviewAfter('2026-01-15', 'high'), '2027-01-15');
  t.equal(nextReviewAfter('2026-01-15', 'medium'), '2028-01-15');
  t.equal(nextReviewAfter('2026-01-15', 'low'), '2029-01-15');
  t.equal(nextReviewAfter('2026-01-15', undefined), '2028-01-15', 'no tier: as medium');
  t.equal(addDays('2026-12-30', 3), '2027-01-02');
  t.equal(contractEndOf({ contracts: [{ endDate: '2027-01-01' }, { endDate: null }, { endDate: '2028-06-30' }] }), '2028-06-30');
  t.equal(contractEndOf({ contracts: [{ endDate: null }] }), null);
  t.equal(contractEndOf({}), null);
});

t.test('the inventory list', async (t) => {
  const ctx = await buildTestApp({ workers: 0 }, { seed: false });
  t.teardown(ctx.close);
  const { app } = ctx;
  const db = ctx.database.db;
  const today = new Date().toISOString().slice(0, 10);
  const owner = await registerUser(app, { name: 'Olivia Owner' });
  const first = await createOrgAndWorkspace(app, owner, 'GitHub');
  const analyst = await addOrgMember(app, owner, first.orgId, 'analyst', { name: 'Ann Analyst' });
  const stranger = await registerUser(app);
  const get = (qs: string) => app.inject({ method: 'GET', url: `${API}/workspaces${qs}`, headers: owner.headers });
  const patch = (id: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'PATCH', url: `${API}/workspaces/${id}`, headers: owner.headers, payload });

  // Vendors: tier, contracts, next review, exit plan.
  const contract = (reference: string, endDate: string | null) => ({ reference, startDate: '2024-01-01', endDate });
  const vendors = {
    github: first.workspaceId,
    acme: (
      await createWorkspace(app, owner, 'Acme 100% Cloud', {
        vendorProfile: {
          criticalityTier: 'critical',
          supportsCriticalFunction: true,
          contracts: [contract('A-1', addDays(today, 20))],
          nextReviewDate: addDays(today, 10),
        },
      })
    ).id,
    basecamp: (
      await createWorkspace(app, owner, 'Basecamp', {
        vendorProfile: {
          criticalityTier: 'critical',
          supportsCriticalFunction: true,
          contracts: [contract('B-1', addDays(today, 200)), contract('B-2', addDays(today, 60))],
          nextReviewDate: addDays(today, -5),
          exitPlan: { exists: true },
        },
      })
    ).id,
    zeta: (
      await createWorkspace(app, owner, 'Zeta Hosting', {
        vendorProfile: { criticalityTier: 'low', contracts: [contract('Z-1', null)], nextReviewDate: addDays(today, 20) },
        lifecycle: 'onboarding',
      })
    ).id,
    mid: (await createWorkspace(app, owner, 'Middleware', { vendorProfile: { criticalityTier: 'high', nextReviewDate: addDays(today, 400) } })).id,
  };

  await t.test('new fields, lifecycle and owner', async (t) => {
    const res = await get('');
    t.equal(res.statusCode, 200, res.body);
    const items = res.json().data.workspaces as Record<string, any>[];
    t.equal(items.length, 5);
    const acme = items.find((w) => w.id === vendors.acme)!;
    t.equal(acme.criticalityTier, 'critical');
    t.equal(acme.contractEnd, addDays(today, 20));
    t.equal(acme.nextReviewDate, addDays(today, 10));
    t.equal(acme.reviewCycleMonths, 6);
    t.equal(acme.lifecycle, 'active');
    t.equal(acme.exitPlan, false);
    t.equal(acme.vendorOwner, null);
    t.equal(items.find((w) => w.id === vendors.basecamp)!.contractEnd, addDays(today, 200), 'latest end of the contracts');
    t.equal(items.find((w) => w.id === vendors.zeta)!.contractEnd, null, 'an open-ended contract has no end');
    t.equal(items.find((w) => w.id === vendors.zeta)!.lifecycle, 'onboarding');

    const set = await patch(vendors.acme, { vendorOwnerId: analyst.id, lifecycle: 'exiting' });
    t.equal(set.statusCode, 200, set.body);
    t.equal(set.json().data.workspace.vendorOwnerId, analyst.id);
    t.equal(set.json().data.workspace.lifecycle, 'exiting');
    const listed = (await get('?vendorOwnerId=' + analyst.id)).json().data.workspaces;
    t.same(
      listed.map((w: any) => [w.id, w.vendorOwner]),
      [[vendors.acme, { id: analyst.id, name: 'Ann Analyst' }]],
    );

    const bad = await patch(vendors.acme, { vendorOwnerId: stranger.id });
    t.equal(bad.statusCode, 400, 'an owner without access to the vendor is refused');
    t.equal(bad.json().status, 'error');
    t.match(bad.json().message, /vendorOwnerId/);
    t.equal((await patch(vendors.acme, { lifecycle: 'paused' })).statusCode, 400, 'unknown lifecycle');
    const cleared = await patch(vendors.acme, { vendorOwnerId: null, lifecycle: 'active' });
    t.equal(cleared.json().data.workspace.vendorOwnerId, null);
  });

  await t.test('the tier sets the next review date', async (t) => {
    const res = await patch(vendors.github, { vendorProfile: { criticalityTier: 'high' } });
    t.equal(res.statusCode, 200, res.body);
    t.equal(res.json().data.workspace.vendorProfile.nextReviewDate, addMonths(today, 12));
    const up = await patch(vendors.github, { vendorProfile: { criticalityTier: 'critical', supportsCriticalFunction: true } });
    t.equal(up.json().data.workspace.vendorProfile.nextReviewDate, addMonths(today, 6), 'a shorter cycle brings it forward');
    const down = await patch(vendors.github, { vendorProfile: { criticalityTier: 'low', supportsCriticalFunction: false } });
    t.equal(down.json().data.workspace.vendorProfile.nextReviewDate, addMonths(today, 6), 'a longer cycle keeps the earlier date');
    const explicit = await patch(vendors.github, { vendorProfile: { criticalityTier: 'medium', nextReviewDate: '2030-01-01' } });
    t.equal(explicit.json().data.workspace.vendorProfile.nextReviewDate, '2030-01-01', 'a date given is kept');
    await patch(vendors.github, { vendorProfile: { criticalityTier: null, nextReviewDate: null } });
  });

  // Assessments and questionnaires, written directly (the analysis itself is tested elsewhere).
  const assessed = async (workspaceId: string, score: number, riskRating: 'low' | 'medium' | 'high' | 'critical', daysAgo: number) => {
    const at = new Date(Date.now() - daysAgo * 86_400_000);
    const [row] = await db
      .insert(assessments)
      .values({
        workspaceId,
        name: `a-${score}`,
        status: 'completed',
        score,
        riskRating,
        results: [],
        summary: { obligations: 0, covered: 0, partial: 0, missing: 0, documents: 0, sentences: 0, missingKey: [], riskReasons: [], embedder: null },
        completedAt: at,
        createdAt: at,
      })
      .returning();
    return row!.id;
  };
  await assessed(vendors.acme, 40, 'high', 30);
  await assessed(vendors.acme, 55, 'critical', 2); // the latest counts
  await assessed(vendors.basecamp, 80, 'low', 10);
  const midAssessment = await assessed(vendors.mid, 65, 'medium', 1);
  const questionnaire = (workspaceId: string, status: string, dueDate: string | null) =>
    db.insert(questionnaires).values({ workspaceId, title: 'Q', sections: [], questions: [], status: status as never, dueDate });
  await questionnaire(vendors.acme, 'sent', addDays(today, -3));
  await questionnaire(vendors.acme, 'in_progress', addDays(today, 10));
  await questionnaire(vendors.acme, 'complete', addDays(today, -30));
  await questionnaire(vendors.zeta, 'submitted', null);
  await questionnaire(vendors.zeta, 'draft', addDays(today, -30));

  await t.test('derived columns', async (t) => {
    const items = (await get('')).json().data.workspaces as Record<string, any>[];
    const acme = items.find((w) => w.id === vendors.acme)!;
    t.equal(acme.riskRating, 'critical');
    t.equal(acme.latestAssessment.score, 55);
    t.ok(acme.latestAssessment.completedAt);
    t.equal(acme.outstandingQuestionnaires, 2);
    t.equal(acme.overdueQuestionnaires, 1);
    const zeta = items.find((w) => w.id === vendors.zeta)!;
    t.equal(zeta.outstandingQuestionnaires, 1, 'a draft is not outstanding');
    t.equal(zeta.latestAssessment, null);
    t.equal(zeta.riskRating, null);
  });

  const ids = async (qs: string) => {
    const res = await get(qs);
    t.equal(res.statusCode, 200, `${qs}: ${res.body}`);
    return (res.json().data.workspaces as { id: string }[]).map((w) => w.id);
  };
  await t.test('filters', async (t) => {
    t.same(await ids('?tier=critical&dueWithinDays=30&sort=contractEnd'), [vendors.acme, vendors.basecamp], 'critical, review due in 30 days, by contract end');
    t.same(await ids('?tier=critical&dueWithinDays=30&sort=-contractEnd'), [vendors.basecamp, vendors.acme]);
    t.same(await ids('?tier=low&tier=high&sort=workspaceName'), [vendors.mid, vendors.zeta], 'a list filter repeated');
    t.same(await ids('?overdue=true'), [vendors.basecamp]);
    t.same((await ids('?overdue=false&sort=workspaceName')).length, 4);
    t.same(await ids('?q=100%25'), [vendors.acme], 'a % in the search is literal');
    t.same(await ids('?q=CAMP'), [vendors.basecamp], 'any case');
    t.same(await ids('?q=%25'), [vendors.acme]);
    t.same(await ids('?risk=critical&risk=low&sort=workspaceName'), [vendors.acme, vendors.basecamp], 'risk of the latest assessment');
    t.same(await ids('?risk=high'), [], 'an older rating does not count');
    t.same(await ids('?lifecycle=onboarding'), [vendors.zeta]);
    t.same(await ids('?contractEndWithinDays=30'), [vendors.acme]);
    t.same(await ids('?contractEndWithinDays=90&sort=workspaceName'), [vendors.acme], 'the latest end counts');
    t.same(await ids('?tier=critical&exitPlan=missing'), [vendors.acme]);
    t.same(await ids('?questionnaires=overdue'), [vendors.acme]);
    t.same(await ids('?questionnaires=outstanding&sort=workspaceName'), [vendors.acme, vendors.zeta]);
    t.same(await ids('?tier=critical&signedOff=missing&sort=workspaceName'), [vendors.acme, vendors.basecamp], 'nothing signed off yet');
    const paged = await get('?sort=workspaceName&limit=2&page=2');
    t.same(
      paged.json().data.workspaces.map((w: any) => w.workspaceName),
      ['GitHub', 'Middleware'],
    );
    t.same(paged.json().data.pagination, { page: 2, limit: 2, total: 5, pages: 3, hasMore: true });
    const filteredPage = await get('?tier=critical&limit=1&page=2&sort=workspaceName');
    t.same(filteredPage.json().data.pagination, { page: 2, limit: 1, total: 2, pages: 2, hasMore: false }, 'the total counts the filtered rows');
    const past = await get('?tier=critical&limit=1&page=9');
    t.same(past.json().data.pagination.total, 2, 'a page past the end keeps the filtered total');
  });

  await t.test('portfolio KPIs, each the count of its inventory link', async (t) => {
    const res = await app.inject({ method: 'GET', url: `${API}/analytics/kpis`, headers: owner.headers });
    t.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    const values = Object.fromEntries(data.kpis.map((k: any) => [k.key, k.value]));
    t.same(values, {
      contractsExpiring30: 1,
      contractsExpiring90: 1,
      reviewsOverdue: 1,
      reviewsDue30: 2,
      criticalWithoutExitPlan: 1,
      criticalWithoutSignOff: 2,
      questionnairesOutstanding: 2,
      questionnairesOverdue: 1,
      documentsExpired: 0,
    });
    t.equal(data.vendors, 5);
    t.equal(data.questionnairesOutstanding, 3);
    t.equal(data.questionnairesOverdue, 1);
    for (const k of data.kpis) {
      const list = await get(`?${k.query}&limit=100`);
      t.equal(list.statusCode, 200, `${k.key}: ${list.body}`);
      t.equal(list.json().data.pagination.total, k.value, `${k.key}: the link lists what the KPI counts`);
    }
    const other = await registerUser(app);
    t.equal((await app.inject({ method: 'GET', url: `${API}/analytics/kpis`, headers: other.headers })).statusCode, 403, 'no organization yet');
  });

  await t.test('every column sorts, missing values last in both directions', async (t) => {
    const rank: Record<string, number> = { low: 1, medium: 2, high: 3, critical: 4 };
    const life: Record<string, number> = { onboarding: 1, active: 2, exiting: 3, exited: 4 };
    const value: Record<string, (w: any) => unknown> = {
      workspaceName: (w) => w.workspaceName.toLowerCase(),
      createdAt: (w) => w.createdAt,
      criticalityTier: (w) => (w.criticalityTier ? rank[w.criticalityTier] : null),
      riskRating: (w) => (w.riskRating ? rank[w.riskRating] : null),
      assessmentScore: (w) => w.latestAssessment?.score ?? null,
      assessedAt: (w) => w.latestAssessment?.completedAt ?? null,
      contractEnd: (w) => w.contractEnd,
      nextReviewDate: (w) => w.nextReviewDate,
      outstandingQuestionnaires: (w) => w.outstandingQuestionnaires,
      lifecycle: (w) => life[w.lifecycle],
      vendorOwner: (w) => w.vendorOwner?.name.toLowerCase() ?? null,
    };
    await patch(vendors.zeta, { vendorOwnerId: analyst.id });
    await patch(vendors.mid, { vendorOwnerId: owner.id });
    for (const [field, of] of Object.entries(value)) {
      for (const desc of [false, true]) {
        const res = await get(`?sort=${desc ? '-' : ''}${field}`);
        t.equal(res.statusCode, 200, res.body);
        const vals = (res.json().data.workspaces as any[]).map(of);
        t.equal(vals.length, 5);
        const present = vals.filter((v) => v !== null && v !== undefined);
        t.same(vals.slice(0, present.length), present, `${field} ${desc ? 'desc' : 'asc'}: missing values last`);
        const sorted = [...present].sort((a: any, b: any) => (a < b ? -1 : a > b ? 1 : 0));
        if (desc) sorted.reverse();
        t.same(present, sorted, `${field} ${desc ? 'desc' : 'asc'}`);
      }
    }
  });

  await t.test('a sign-off moves the next review date', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: `${API}/assessments/${midAssessment}/sign-off`,
      headers: { ...owner.headers, 'x-workspace-id': vendors.mid },
      payload: { note: 'Reviewed the SOC report and the DPA.' },
    });
    t.equal(res.statusCode, 200, res.body);
    const item = (await get('?sort=workspaceName')).json().data.workspaces.find((w: any) => w.id === vendors.mid);
    t.equal(item.nextReviewDate, addMonths(today, 12), 'high: a year after the sign-off');
    t.ok(item.lastSignedOffAt);
    t.same(await ids('?tier=high&signedOff=missing'), [], 'signed off within the cycle');
  });

  await t.test('bad parameters: 400 in the envelope', async (t) => {
    for (const qs of [
      '?tier=bogus',
      '?sort=bogus',
      '?dueWithinDays=-1',
      '?dueWithinDays=x',
      '?overdue=maybe',
      '?risk=none',
      '?exitPlan=present',
      '?unknown=1',
      '?q=',
    ]) {
      const res = await get(qs);
      t.equal(res.statusCode, 400, qs);
      t.equal(res.json().status, 'error', qs);
      t.ok(res.json().message, qs);
    }
  });

  await t.test('another organization sees none of it', async (t) => {
    await createOrgAndWorkspace(app, stranger, 'Own vendor', 'Other Bank');
    const res = await app.inject({ method: 'GET', url: `${API}/workspaces?tier=critical`, headers: stranger.headers });
    t.same(res.json().data.workspaces, []);
  });
});
