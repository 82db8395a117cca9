/**
 * Register of Information export for N vendors (default 1,000): the workbook and the
 * xBRL-CSV package, timed through the HTTP API, with peak RSS and heap.
 *
 *   npx tsx bench/roi-export.ts [vendors]            embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/roi-export.ts   a fresh PostgreSQL database
 *
 * Set-up goes through the services directly for speed: N workspaces with full vendor
 * profiles, one completed assessment each (the real gap analysis of the GitHub SLA and
 * security team description, its results stored per vendor) and one completed
 * questionnaire each.
 */
import './lib/load.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { applicableObligations } from '../src/compliance/obligations.js';
import { runGapAnalysis } from '../src/compliance/gapAnalysis.js';
import { riskRating } from '../src/compliance/risk.js';
import { parseFile } from '../src/ingest/parse.js';
import { assessmentsRepository } from '../src/modules/assessments/repository.js';
import { questionnairesRepository } from '../src/modules/questionnaires/repository.js';
import { testConfig, freshDatabase, registerUser } from '../test/helpers/app.js';
import { createOrg } from '../test/helpers/workspaces.js';

const N = Number(process.argv[2] ?? 1000);

let peakRss = 0;
let peakHeap = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
};
const sampler = setInterval(sample, 5);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

function lei(prefix18: string): string {
  let rem = 0;
  for (const ch of `${prefix18}00`) for (const d of /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55)) rem = (rem * 10 + Number(d)) % 97;
  return `${prefix18}${String(98 - rem).padStart(2, '0')}`;
}

const config = testConfig({
  workers: 0,
  roi: {
    entityLei: lei('BENCHBANK000000001'),
    entityCountry: 'DE',
    entityType: 'eba_CT:x12',
    competentAuthority: 'BaFin',
    currency: 'EUR',
    scope: 'CON',
    referenceDate: '2025-12-31',
    totalAssets: 1e9,
    licensedActivity: 'eba_TA:x162',
  },
});
const { database, drop } = await freshDatabase();
const app = await buildApp({ config, database });
await app.services.compliance.loadReferenceData();
await app.ready();

try {
  const t0 = performance.now();
  const owner = await registerUser(app);
  await createOrg(app, owner, 'Bench Bank');
  // The register's own records: one critical function every contract supports (B_06.01, B_02.02 c0050).
  const caller = await app.services.register.records.caller(owner.id);
  const fn = await app.services.register.records.createFunction(caller, {
    name: 'Payments processing',
    licensedActivity: 'eba_TA:x162',
    criticality: 'yes',
    lastAssessmentDate: '2025-06-30',
    rtoHours: 4,
    rpoHours: 1,
    impact: 'high',
  });

  // One real analysis; its results are stored for every vendor.
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../data/vendor-docs/github');
  const docs = [];
  for (const f of ['github-enterprise-service-level-agreement.md', 'github-sirt-description-rfc-2350.md']) {
    const { doc } = await parseFile(readFileSync(path.join(dir, f)), f, null, config.ingest);
    docs.push({ id: f, filename: f, title: doc.title, blocks: doc.blocks });
  }
  const obligations = applicableObligations(null);
  const { results, sentenceCount } = await runGapAnalysis({ obligations, documents: docs, embedder: app.services.embedder });
  const risk = riskRating(results, { critical: true });

  const assessments = assessmentsRepository(database.db);
  const questionnaires = questionnairesRepository(database.db);
  const types = ['S19', 'S17', 'S18', 'S07', 'S04'] as const;
  const tiers = ['critical', 'high', 'medium', 'low'] as const;
  for (let i = 0; i < N; i++) {
    const ws = await app.services.workspaces.create(owner.id, {
      workspaceName: `Vendor ${String(i + 1).padStart(4, '0')}`,
      vendorProfile: {
        legalName: `Vendor ${i + 1} Ltd`,
        identifier: { type: 'LEI', value: lei(`BENCHVENDOR${String(i).padStart(7, '0')}`) },
        country: ['US', 'IE', 'DE', 'FR'][i % 4],
        ictServiceType: types[i % types.length],
        criticalityTier: tiers[i % tiers.length],
        supportsCriticalFunction: i % 4 < 2,
        contracts: [
          {
            reference: `CTR-${i + 1}`,
            ictServiceType: types[i % types.length],
            startDate: '2024-01-01',
            endDate: i % 3 ? '2027-12-31' : undefined,
            noticePeriodDaysEntity: 30,
            noticePeriodDaysProvider: 90,
            governingLaw: 'IE',
            annualCost: { amount: 1000 + i, currency: 'EUR' },
            storesData: true,
            serviceLocations: ['IE'],
            dataStorageLocations: ['IE'],
            dataProcessingLocations: ['IE'],
            dataSensitivity: 'medium',
            functionIds: [fn.id],
          },
        ],
        lastAuditDate: '2025-09-30',
        certifications: [
          { type: 'ISO/IEC 27001', validUntil: '2030-01-01', status: 'valid' },
          { type: 'SOC 2 Type II', status: 'pending' },
        ],
        substitutability: 'medium_complexity',
        discontinuationImpact: 'medium',
        exitPlan: { exists: true, reintegrationPossibility: 'difficult', alternativeProvidersIdentified: true, alternativeProviders: ['Alt Co'] },
        nextReviewDate: '2030-06-30',
      },
    });
    const a = await assessments.insert({ workspaceId: ws.id, name: `Assessment ${i + 1}`, createdBy: owner.id }, []);
    await assessments.complete(a.id, {
      score: risk.score,
      riskRating: risk.rating,
      summary: {
        obligations: results.length,
        covered: 0,
        partial: 0,
        missing: 0,
        documents: docs.length,
        sentences: sentenceCount,
        missingKey: [],
        riskReasons: risk.reasons,
        embedder: app.services.embedder.id,
      },
      results,
    });
    await questionnaires.insert({
      workspaceId: ws.id,
      title: 'DORA ICT third-party questionnaire',
      sections: [],
      questions: [],
      status: 'complete',
      score: 50 + (i % 50),
      completedAt: new Date(),
      createdBy: owner.id,
    });
  }
  const setup = (performance.now() - t0) / 1000;
  const gaps = results.filter((r) => r.status !== 'covered').length;
  console.log(`database: ${database.kind}; vendors: ${N}; gaps per vendor: ${gaps}; set-up ${setup.toFixed(1)} s`);

  for (const [label, url] of [
    ['xlsx workbook', '/api/v1/workspaces/roi-export'],
    ['xbrl-csv package', '/api/v1/workspaces/roi-export?format=xbrl-csv'],
    ['pre-flight', '/api/v1/workspaces/roi-preflight'],
  ] as const) {
    global.gc?.();
    peakRss = 0;
    peakHeap = 0;
    sample();
    const s = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: owner.headers });
    const secs = (performance.now() - s) / 1000;
    sample();
    if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 500)}`);
    console.log(`${label}: ${secs.toFixed(2)} s, ${(res.rawPayload.length / 1024).toFixed(0)} KB, peak RSS ${mb(peakRss)}, peak heap ${mb(peakHeap)}`);
  }
} finally {
  clearInterval(sampler);
  await app.close();
  await drop();
}
