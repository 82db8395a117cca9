/**
 * The vendor inventory at portfolio size (issue 31, docs/inventory.md): the demo (user
 * demo@dora.local, GitHub and Basecamp with their real documents, src/cli/demo.ts) grown to
 * N vendors (default 200), each with a tier, contracts, a next review date, an exit plan or
 * not, a lifecycle, an owner, two completed assessments (some signed off) and questionnaires
 * in every state. Then times GET /workspaces as the inventory screen asks for it: "critical,
 * review due in 30 days, by contract end", the default page, every sort, a search, and
 * GET /analytics/kpis. Prints median and p95 per request (the target: < 300 ms on PGlite).
 *
 *   npx tsx bench/inventory.ts [vendors] [requests]          embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/inventory.ts     a fresh PostgreSQL database
 *   NO_DEMO=1 ...                                              skip the demo's documents (faster set-up)
 */
import './lib/load.js';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { DEMO_USER, loadDemo } from '../src/cli/demo.js';
import { assessments } from '../src/db/schema/assessments.js';
import { questionnaires } from '../src/db/schema/questionnaires.js';
import { addDays } from '../src/domain/inventory.js';
import { freshDatabase, testConfig } from '../test/helpers/app.js';

const N = Number(process.argv[2] ?? 200);
const REQUESTS = Number(process.argv[3] ?? 30);
const withDemo = process.env.NO_DEMO !== '1';

const config = testConfig({ workers: withDemo ? 1 : 0, logLevel: 'warn' });
const { database, drop } = await freshDatabase();
const app = await buildApp({ config, database });
await app.ready();
const db = database.db;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
/** A deterministic pseudo-random sequence, so that every run grows the same portfolio. */
let seed = 31;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));

try {
  const t0 = performance.now();
  let userId: string;
  if (withDemo) {
    await app.services.dataSources.indexCorpus();
    const demo = await loadDemo(app.services, { log: () => {} });
    userId = demo.user.id;
  } else {
    const session = await app.services.auth.register(DEMO_USER);
    userId = session.user.id;
    await app.services.organizations.create(userId, { name: 'Demo Bank' });
  }
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: DEMO_USER.email, password: DEMO_USER.password } });
  if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
  const token = login.cookies.find((c) => c.name === 'accessToken')!.value;
  const headers = { authorization: `Bearer ${token}` };

  const today = new Date().toISOString().slice(0, 10);
  const existing = (await app.services.workspaces.list(userId)).length;
  const tiers = ['critical', 'critical', 'high', 'high', 'high', 'medium', 'medium', 'medium', 'low', 'low'] as const;
  const lifecycles = ['onboarding', 'active', 'active', 'active', 'active', 'active', 'exiting', 'exited'] as const;
  for (let i = existing; i < N; i++) {
    const tier = pick(tiers);
    const contracts = Array.from({ length: int(1, 2) }, (_, c) => ({
      reference: `INV-${i}-${c}`,
      startDate: addDays(today, -int(200, 1500)),
      endDate: rnd() < 0.15 ? null : addDays(today, int(-60, 900)),
    }));
    const ws = await app.services.workspaces.create(userId, {
      workspaceName: `Vendor ${String(i).padStart(3, '0')} ${pick(['Cloud', 'Hosting', 'Payments', 'Analytics', 'Security', 'Telecom'])}`,
      lifecycle: pick(lifecycles),
      vendorProfile: {
        criticalityTier: tier,
        ...(tier === 'critical' ? { supportsCriticalFunction: true } : {}),
        contracts,
        nextReviewDate: addDays(today, int(-60, 700)),
        ...(rnd() < 0.6 ? { exitPlan: { exists: true } } : {}),
      },
    });
    const scope = { workspaceId: ws.id, slug: ws.workspaceId, workspaceName: ws.workspaceName, orgId: ws.organizationId, userId };
    if (rnd() < 0.8) await app.services.workspaces.update(scope, { vendorOwnerId: userId });
    for (let a = 0; a < 2; a++) {
      const at = new Date(Date.now() - int(1, 700) * 86_400_000);
      const signed = rnd() < 0.4;
      await db.insert(assessments).values({
        workspaceId: ws.id,
        name: `Assessment ${a + 1}`,
        status: 'completed',
        score: int(20, 98),
        riskRating: pick(['low', 'medium', 'high', 'critical'] as const),
        results: [],
        summary: { obligations: 0, covered: 0, partial: 0, missing: 0, documents: 0, sentences: 0, missingKey: [], riskReasons: [], embedder: null },
        createdAt: at,
        completedAt: at,
        ...(signed ? { signedOffAt: at, signedOffBy: userId, signOffNote: 'Reviewed.' } : {}),
      });
    }
    for (let q = 0; q < int(0, 3); q++) {
      await db.insert(questionnaires).values({
        workspaceId: ws.id,
        title: `Questionnaire ${q + 1}`,
        sections: [],
        questions: [],
        status: pick(['draft', 'sent', 'in_progress', 'submitted', 'complete'] as const),
        dueDate: addDays(today, int(-30, 60)),
      });
    }
  }
  const vendors = (await app.services.workspaces.list(userId)).length;
  console.log(
    `set-up: ${vendors} vendors (${withDemo ? 'the demo grown' : 'no demo documents'}) in ${((performance.now() - t0) / 1000).toFixed(1)} s (${database.kind})`,
  );

  const f = (x: number) => `${x.toFixed(1)} ms`;
  async function time(label: string, url: string, n = REQUESTS) {
    const xs: number[] = [];
    let count = 0;
    for (let i = 0; i < n + 3; i++) {
      const a = performance.now();
      const res = await app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
      const ms = performance.now() - a;
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      count = res.json().data.pagination?.total ?? res.json().data.kpis?.length ?? 0;
      if (i >= 3) xs.push(ms);
    }
    console.log(`${label.padEnd(58)} median ${f(pct(xs, 50)).padStart(9)}, p95 ${f(pct(xs, 95)).padStart(9)}  (${count} matching)`);
    return pct(xs, 50);
  }
  const target = await time('critical, review due in 30 days, by contract end', '/workspaces?tier=critical&dueWithinDays=30&sort=contractEnd');
  await time('the default page (50 by name)', '/workspaces?limit=50&sort=workspaceName');
  await time('search "cloud", by next review', '/workspaces?q=cloud&sort=nextReviewDate&limit=50');
  await time('critical, no signed-off assessment this cycle', '/workspaces?tier=critical&signedOff=missing&limit=50');
  for (const sort of [
    'criticalityTier',
    'riskRating',
    'assessmentScore',
    'assessedAt',
    'contractEnd',
    'nextReviewDate',
    'outstandingQuestionnaires',
    'lifecycle',
    'vendorOwner',
  ]) {
    await time(`sort -${sort} (50 per page)`, `/workspaces?limit=50&sort=-${sort}`, Math.ceil(REQUESTS / 3));
  }
  await time('GET /analytics/kpis', '/analytics/kpis');
  console.log(`target (< 300 ms on PGlite): ${target < 300 ? 'met' : 'NOT met'} with a median of ${f(target)}`);
} finally {
  await app.close();
  await drop();
}
