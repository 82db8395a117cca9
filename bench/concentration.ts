/**
 * Concentration risk over a portfolio of N vendors (default 200) with realistic subprocessor
 * lists: GET /concentration (the portfolio page), GET /concentration?provider=AWS ("which
 * critical functions depend on AWS, directly or through a chain?") and GET
 * /concentration/vendors/:id (what an onboarding vendor would add), timed through the HTTP API.
 *
 *   npx tsx bench/concentration.ts [vendors]                    embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/concentration.ts   a fresh PostgreSQL database
 *
 * The subprocessor lists draw 6 to 30 names from a pool of providers that SaaS vendors
 * publish (hyperscalers under their different names and legal suffixes, CDNs, e-mail,
 * monitoring, support desks, payment processors, data warehouses) with a long-tailed
 * popularity, plus vendor-specific names; a few vendors of the portfolio are themselves on
 * the pool (Stripe, Snowflake, Datadog...), so chains go deeper than rank 2. Every
 * subcontractor carries a passage (as an accepted draft value does). The target is < 500 ms.
 */
import './lib/load.js';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { workspaces } from '../src/db/schema/workspaces.js';
import type { FieldSource } from '../src/domain/profileDrafts.js';
import { testConfig, freshDatabase, registerUser } from '../test/helpers/app.js';
import { createOrg } from '../test/helpers/workspaces.js';

const N = Number(process.argv[2] ?? 200);
const RUNS = 7;

// Deterministic pseudo-random numbers (mulberry32).
let seed = 34;
const rnd = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;

/** [names as documents write them, country, role, how often a vendor lists it (0..1)]. */
const POOL: [string[], string, string, number][] = [
  [['Amazon Web Services, Inc.', 'AWS', 'Amazon Web Services EMEA SARL', 'Amazon Web Services (AWS)'], 'US', 'Cloud hosting', 0.62],
  [['Google Cloud Platform', 'Google LLC', 'Google Cloud EMEA Limited'], 'US', 'Cloud hosting and analytics', 0.3],
  [['Microsoft Azure', 'Microsoft Ireland Operations Limited', 'Microsoft Corporation'], 'IE', 'Cloud hosting, office productivity', 0.35],
  [['Cloudflare, Inc.', 'Cloudflare'], 'US', 'CDN and DDoS protection', 0.4],
  [['Datadog, Inc.', 'Datadog'], 'US', 'Monitoring', 0.3],
  [['Snowflake Computing', 'Snowflake Inc.'], 'US', 'Data warehouse', 0.15],
  [['Stripe Payments Europe Limited', 'Stripe, Inc.'], 'IE', 'Payment processing', 0.2],
  [['Twilio Inc.', 'SendGrid', 'Twilio SendGrid'], 'US', 'E-mail and SMS delivery', 0.3],
  [['Zendesk, Inc.', 'Zendesk'], 'US', 'Customer support', 0.25],
  [['Salesforce.com, Inc.', 'Salesforce', 'Slack Technologies, LLC'], 'US', 'CRM, messaging', 0.3],
  [['MongoDB, Inc.', 'MongoDB Atlas'], 'US', 'Database hosting', 0.15],
  [['Elastic N.V.', 'Elasticsearch B.V.'], 'NL', 'Search', 0.1],
  [['Okta, Inc.', 'Auth0'], 'US', 'Identity', 0.2],
  [['Atlassian Pty Ltd', 'Atlassian'], 'AU', 'Issue tracking', 0.25],
  [['Mailgun Technologies, Inc.'], 'US', 'E-mail delivery', 0.1],
  [['Hetzner Online GmbH'], 'DE', 'Hosting', 0.08],
  [['OVH SAS', 'OVHcloud'], 'FR', 'Hosting', 0.08],
  [['Equinix (Germany) GmbH', 'Equinix, Inc.'], 'DE', 'Colocation', 0.06],
  [['Fastly, Inc.'], 'US', 'CDN', 0.08],
  [['Intercom R&D Unlimited Company'], 'IE', 'Customer messaging', 0.1],
  [['HubSpot, Inc.'], 'US', 'Marketing', 0.12],
  [['Sentry (Functional Software, Inc.)'], 'US', 'Error tracking', 0.15],
  [['PagerDuty, Inc.'], 'US', 'Incident alerting', 0.1],
  [['DocuSign, Inc.'], 'US', 'E-signature', 0.08],
  [['Tata Consultancy Services Limited', 'TCS'], 'IN', 'Support operations', 0.05],
  [['Infosys Limited'], 'IN', 'Development', 0.04],
  [['Deutsche Telekom AG', 'T-Systems International GmbH'], 'DE', 'Telecom', 0.04],
];
/** Pool providers that are also vendors of the portfolio, with their own subprocessors (deeper chains). */
const POOL_VENDORS = ['Stripe Payments Europe Limited', 'Snowflake Computing', 'Datadog, Inc.', 'Zendesk, Inc.', 'Twilio Inc.', 'Atlassian Pty Ltd'];
const WORDS = ['Nordic', 'Alpine', 'Blue', 'Quantum', 'Harbor', 'Vertex', 'Atlas', 'Lumen', 'Cobalt', 'Meridian', 'Pioneer', 'Summit'];
const KINDS = ['Analytics', 'Payments', 'Ledger', 'Risk', 'KYC', 'Cloud', 'Data', 'Security', 'Treasury', 'Messaging'];
const SUFFIX = ['Ltd', 'GmbH', 'SAS', 'B.V.', 'Inc.', 'S.A.', 'AB', 'Oy'];
const COUNTRIES = ['US', 'IE', 'DE', 'FR', 'NL', 'GB', 'IN', 'SE', 'PL', 'CH'];

const evidence = (name: string, country: string, role: string, i: number, j: number) => ({
  documentId: `doc-${i}`,
  dataSourceId: null,
  chunkId: `chunk-${i}-${Math.floor(j / 5)}`,
  title: `Vendor ${i + 1} Subprocessors`,
  section: 'Subprocessors',
  page: null,
  quote: `${name} (${country}): ${role}. Processes customer data on behalf of the vendor under a written agreement with equivalent data protection obligations.`,
  link: `/documents/doc-${i}#chunk-${i}-${Math.floor(j / 5)}`,
});

function exit() {
  const exists = rnd() < 0.6;
  return { exists, lastTestedDate: exists && rnd() < 0.6 ? '2025-03-31' : undefined, alternativeProviders: rnd() < 0.5 ? [pick(POOL)[0][0]!] : [] };
}

const config = testConfig({ workers: 0 });
const { database, drop } = await freshDatabase();
const app = await buildApp({ config, database });
await app.ready();

try {
  const t0 = performance.now();
  const owner = await registerUser(app);
  await createOrg(app, owner, 'Bench Bank');
  const caller = await app.services.register.records.caller(owner.id);
  const fns = [];
  for (let f = 0; f < 12; f++) {
    fns.push(
      await app.services.register.records.createFunction(caller, {
        name: `${pick(KINDS)} function ${f + 1}`,
        licensedActivity: 'eba_TA:x162',
        criticality: f < 5 ? 'yes' : 'no',
        lastAssessmentDate: '2025-06-30',
        rtoHours: 4,
        rpoHours: 1,
        impact: 'high',
      }),
    );
  }
  let links = 0;
  let onboardingId = '';
  for (let i = 0; i < N; i++) {
    const isPoolVendor = i < POOL_VENDORS.length;
    const legalName = isPoolVendor ? POOL_VENDORS[i]! : `${pick(WORDS)} ${pick(KINDS)} ${pick(SUFFIX)}`;
    const subs: { name: string; country: string; role: string }[] = [];
    for (const [names, country, role, p] of POOL) if (rnd() < p && !names.includes(legalName)) subs.push({ name: pick(names), country, role });
    const own = 2 + Math.floor(rnd() * 10);
    for (let k = 0; k < own; k++)
      subs.push({ name: `${pick(WORDS)}${pick(['soft', 'data', 'net', 'ware'])} ${pick(SUFFIX)}`, country: pick(COUNTRIES), role: 'Service provider' });
    const onboarding = i === N - 1;
    const tier = pick(['critical', 'high', 'medium', 'low'] as const);
    const ws = await app.services.workspaces.create(owner.id, {
      workspaceName: `Vendor ${String(i + 1).padStart(4, '0')}`,
      vendorProfile: {
        legalName,
        country: pick(COUNTRIES),
        criticalityTier: tier,
        supportsCriticalFunction: tier === 'critical' || rnd() < 0.3,
        contracts: [
          {
            reference: `CTR-${i + 1}`,
            startDate: onboarding ? '2099-01-01' : '2024-01-01',
            functionIds: [...new Set([pick(fns).id, pick(fns).id])],
          },
        ],
        subcontractors: subs,
        exitPlan: exit(),
      },
    });
    if (onboarding) onboardingId = ws.id;
    const sources: Record<string, FieldSource> = {
      subcontractors: {
        field: 'subcontractors',
        value: subs,
        action: 'accepted',
        draftId: `draft-${i}`,
        evidence: subs.map((s, j) => evidence(s.name, s.country, s.role, i, j)),
        decidedBy: owner.id,
        decidedAt: new Date().toISOString(),
      },
    };
    await database.db.update(workspaces).set({ fieldSources: sources }).where(eq(workspaces.id, ws.id));
    links += subs.length + 1;
  }
  console.log(`database: ${database.kind}; vendors: ${N}; links: ${links}; set-up ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  for (const [label, url] of [
    ['portfolio page: figures and table (GET /concentration?view=table)', '/api/v1/concentration?view=table'],
    ['portfolio with every link (GET /concentration)', '/api/v1/concentration'],
    ['which critical functions depend on AWS (GET /concentration?provider=AWS)', '/api/v1/concentration?provider=AWS'],
    ['what an onboarding vendor would add', `/api/v1/concentration/vendors/${onboardingId}`],
  ] as const) {
    const times: number[] = [];
    let bytes = 0;
    let body = '';
    for (let r = 0; r < RUNS; r++) {
      const s = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: owner.headers });
      times.push(performance.now() - s);
      if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 500)}`);
      bytes = res.rawPayload.length;
      body = res.body;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    console.log(
      `${label}: median ${median.toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms over ${RUNS} runs (first ${times[0]!.toFixed(0)}), ${(bytes / 1024).toFixed(0)} KB`,
    );
    const data = JSON.parse(body).data;
    if (data.concentration?.provider) {
      const p = data.concentration.providers[0];
      console.log(
        `  AWS: ${p.vendorCount} vendors (${(p.vendorShare * 100).toFixed(0)}%, ${p.vendors.filter((v: { rank: number }) => v.rank > 2).length} through a chain), ${p.criticalFunctionCount} of ${data.concentration.totals.criticalFunctions} critical functions; HHI direct ${data.concentration.index.direct.hhi}, vendors ${data.concentration.index.vendors.hhi}, critical functions ${data.concentration.index.criticalFunctions.hhi}`,
      );
    }
    if (url === '/api/v1/concentration')
      console.log(`  providers: ${data.concentration.totals.providers}; links with a passage: ${data.concentration.totals.linksWithPassage}`);
    if (data.impact)
      console.log(
        `  onboarding vendor: ${data.impact.sharedProviders} shared providers, ${data.impact.newlyConcentratedFunctions.length} functions newly concentrated`,
      );
    if (median >= 500) process.exitCode = 1;
  }
} finally {
  await app.close();
  await drop();
}
