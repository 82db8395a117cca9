import t from 'tap';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { DORA_TEMPLATE } from '../../src/compliance/questionnaire-template.js';
import { CERTIFICATION_HEADERS, GAP_HEADERS, PROVIDER_HEADERS } from '../../src/compliance/register/workbook.js';
import { buildTestApp, registerUser, type Session } from '../helpers/app.js';
import { createAssessment, unzip, vendorDocs, waitForAssessment } from '../helpers/assessments.js';
import { addOrgMember, createOrgAndWorkspace, createWorkspace, wsHeaders } from '../helpers/workspaces.js';

const API = '/api/v1';
const today = () => new Date().toISOString().slice(0, 10);
const iso = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 10) : d);

/** An LEI with valid ISO 17442 check digits for an 18-character prefix (synthetic). */
function lei(prefix18: string): string {
  let rem = 0;
  for (const ch of `${prefix18}00`) for (const d of /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55)) rem = (rem * 10 + Number(d)) % 97;
  return `${prefix18}${String(98 - rem).padStart(2, '0')}`;
}
const GITHUB_LEI = lei('TESTGITHUBINC00001');
const BASECAMP_LEI = lei('TEST37SIGNALSLLC01');
const ENTITY_LEI = lei('TESTACMEBANKAG0001');

const githubProfile = {
  legalName: 'GitHub, Inc.',
  identifier: { type: 'LEI', value: GITHUB_LEI },
  country: 'US',
  ictServiceType: 'S19',
  criticalityTier: 'critical',
  supportsCriticalFunction: true,
  description: 'Source code hosting and CI for the payments platform',
  contracts: [
    {
      reference: 'CTR-GH-2024-01',
      ictServiceType: 'S19',
      startDate: '2024-01-01',
      endDate: '2026-12-31',
      noticePeriodDaysEntity: 30,
      noticePeriodDaysProvider: 90,
      governingLaw: 'IE',
      annualCost: { amount: 120000, currency: 'EUR' },
      storesData: true,
      dataStorageLocations: ['US'],
      dataProcessingLocations: ['US', 'IE'],
      dataSensitivity: 'high',
    },
  ],
  certifications: [
    { type: 'SOC 2 Type II', issuer: 'Independent auditor', validUntil: '2030-06-30', status: 'valid' },
    { type: 'ISO/IEC 27001', status: 'pending' },
  ],
  substitutability: 'highly_complex',
  discontinuationImpact: 'high',
  exitPlan: { exists: true, reintegrationPossibility: 'difficult', alternativeProvidersIdentified: true, alternativeProviders: ['GitLab', 'Bitbucket'] },
  nextReviewDate: '2030-03-31',
};
const basecampProfile = {
  legalName: '37signals LLC',
  identifier: { type: 'LEI', value: BASECAMP_LEI },
  country: 'US',
  ictServiceType: 'S19',
  criticalityTier: 'low',
  supportsCriticalFunction: false,
  contracts: [
    {
      reference: 'CTR-BC-2023-07',
      startDate: '2023-07-01',
      storesData: true,
      dataStorageLocations: ['US'],
      annualCost: { amount: 3588, currency: 'USD' },
      governingLaw: 'US',
      noticePeriodDaysEntity: 0,
      noticePeriodDaysProvider: 30,
    },
  ],
  certifications: [{ type: 'PCI DSS SAQ A', validUntil: '2030-01-31', status: 'valid' }],
  substitutability: 'easily_substitutable',
  discontinuationImpact: 'low',
  exitPlan: { exists: false, alternativeProvidersIdentified: true },
  nextReviewDate: '2030-09-30',
};

async function setProfile(app: FastifyInstance, owner: Session, id: string, vendorProfile: unknown) {
  const res = await app.inject({ method: 'PATCH', url: `${API}/workspaces/${id}`, headers: owner.headers, payload: { vendorProfile } });
  if (res.statusCode !== 200) throw new Error(`profile: ${res.statusCode} ${res.body}`);
}

/** Sends the DORA questionnaire, answers it through the mailed tokenized link, submits, and completes it. */
async function completeQuestionnaire(app: FastifyInstance, headers: Record<string, string>, email: string): Promise<number> {
  const created = await app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers,
    payload: { template: 'dora-ict-tpp', vendorContact: { email, name: 'Vendor' }, dueDate: '2030-01-31' },
  });
  if (created.statusCode !== 201) throw new Error(`questionnaire: ${created.statusCode} ${created.body}`);
  const q = created.json().data.questionnaire;
  const sent = await app.inject({ method: 'POST', url: `${API}/questionnaires/${q.id}/send`, headers });
  if (sent.statusCode !== 200) throw new Error(`send: ${sent.statusCode} ${sent.body}`);
  const mail = [...app.mailer.sent].reverse().find((m) => m.to === email);
  const token = mail && new URL(/(https?:\/\/\S+vendor-questionnaire\?token=\S+)/.exec(mail.text)![1]!).searchParams.get('token');
  if (!token) throw new Error('no questionnaire link');
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const answers = DORA_TEMPLATE.questions.flatMap((qq): { questionId: string; value: unknown }[] => {
    const q = qq as { id: string; type: string; required?: boolean; options?: { value: string }[] | string[] };
    if (q.type === 'yes_no') return [{ questionId: q.id, value: 'yes' }];
    if (q.type === 'text') return q.required ? [{ questionId: q.id, value: `Answer to ${q.id}` }] : [];
    if (q.type === 'number') return [{ questionId: q.id, value: 4 }];
    if (q.type === 'date') return [{ questionId: q.id, value: daysAgo(100) }];
    if (q.type === 'choice') {
      const o = q.options?.[0];
      return o ? [{ questionId: q.id, value: typeof o === 'string' ? o : o.value }] : [];
    }
    return [];
  });
  // The vendor opens the link, saves a draft, then submits.
  const open = await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${token}` });
  if (open.statusCode !== 200) throw new Error(`open: ${open.statusCode} ${open.body}`);
  const draft = await app.inject({ method: 'PUT', url: `${API}/vendor-questionnaires/${token}/answers`, payload: { answers: answers.slice(0, 5) } });
  if (draft.statusCode !== 200) throw new Error(`draft: ${draft.statusCode} ${draft.body}`);
  const submit = await app.inject({ method: 'PUT', url: `${API}/vendor-questionnaires/${token}/answers`, payload: { answers, submit: true } });
  if (submit.statusCode !== 200) throw new Error(`submit: ${submit.statusCode} ${submit.body}`);
  const done = await app.inject({ method: 'PATCH', url: `${API}/questionnaires/${q.id}`, headers, payload: { status: 'complete' } });
  if (done.statusCode !== 200) throw new Error(`complete: ${done.statusCode} ${done.body}`);
  return done.json().data.questionnaire.score;
}

async function readWorkbook(buf: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const rows = (name: string) => {
    const ws = wb.getWorksheet(name);
    if (!ws) throw new Error(`sheet ${name} missing`);
    const out: unknown[][] = [];
    const width = ws.columnCount;
    ws.eachRow({ includeEmpty: true }, (row) => {
      const cells = Array.from({ length: width }, (_, i) => iso(row.getCell(i + 1).value ?? null));
      while (cells.length && cells.at(-1) === null) cells.pop();
      out.push(cells);
    });
    return out;
  };
  return { names: wb.worksheets.map((w) => w.name), rows };
}

t.test('register workbook and xBRL-CSV package of the demo vendors', async (t) => {
  const ctx = await buildTestApp({
    institutionName: 'Acme Bank AG',
    roi: {
      entityLei: ENTITY_LEI,
      entityCountry: 'DE',
      entityType: 'eba_CT:x12',
      competentAuthority: 'BaFin',
      currency: 'EUR',
      scope: 'CON',
      referenceDate: '2025-12-31',
      totalAssets: 1_500_000_000,
      licensedActivity: 'eba_TA:x162',
    },
  });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const gh = await createOrgAndWorkspace(app, owner, 'GitHub');
  const bc = await createWorkspace(app, owner, 'Basecamp');
  await setProfile(app, owner, gh.workspaceId, githubProfile);
  await setProfile(app, owner, bc.id, basecampProfile);

  const ghA = await createAssessment(
    app,
    gh.headers,
    vendorDocs('github', ['github-enterprise-service-level-agreement.md', 'github-sirt-description-rfc-2350.md']),
  );
  const bcA = await createAssessment(app, bc.headers, vendorDocs('basecamp', ['security-overview.md', 'basecamp-big-sla.md']));
  const ghDone = await waitForAssessment(app, gh.headers, ghA.json().data.assessment.id);
  const bcDone = await waitForAssessment(app, bc.headers, bcA.json().data.assessment.id);
  t.equal(ghDone.status, 'completed');
  t.equal(bcDone.status, 'completed');
  const qScore = await completeQuestionnaire(app, gh.headers, 'security@github.example');
  t.type(qScore, 'number');

  // --- The workbook (the static path is not taken for a workspace id).
  const res = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export`, headers: owner.headers });
  t.equal(res.statusCode, 200, res.statusCode === 200 ? '' : res.body);
  t.equal(res.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  t.equal(res.headers['content-disposition'], `attachment; filename=DORA_Register_of_Information_${today()}.xlsx`);
  const wb = await readWorkbook(res.rawPayload);
  t.same(wb.names, ['RT.01.01 Summary', 'RT.02.01 ICT Providers', 'RT.03.01 Certifications', 'RT.04.01 Gap Summary', 'RT.05.01 Field Sources']);

  const summary = wb.rows('RT.01.01 Summary');
  t.same(summary[1], ['Institution name', 'Acme Bank AG']);
  t.same(summary[2], ['Report date', today()]);
  t.same(summary[3], ['Vendors', 2]);
  t.same(summary.slice(5), [
    ['Criticality tier', 'Vendors'],
    ['Critical', 1],
    ['High', 0],
    ['Medium', 0],
    ['Low', 1],
    ['Not assessed', 0],
  ]);

  const providers = wb.rows('RT.02.01 ICT Providers');
  t.same(providers[0], [...PROVIDER_HEADERS]);
  t.equal(providers.length, 3);
  const [bcRow, ghRow] = [providers[1]!, providers[2]!];
  t.same(ghRow, [
    'GitHub',
    gh.workspaceSlug,
    'GitHub, Inc.',
    'LEI',
    GITHUB_LEI,
    'US',
    'S19 Cloud services: SaaS',
    'CTR-GH-2024-01',
    '2024-01-01',
    '2026-12-31',
    'Critical',
    'Yes',
    qScore,
    ghDone.score,
    ghDone.riskRating.charAt(0).toUpperCase() + ghDone.riskRating.slice(1),
    '2030-03-31',
  ]);
  t.equal(bcRow[0], 'Basecamp');
  t.equal(bcRow[9], 'open-ended', 'a contract without an end date');
  t.equal(bcRow[12] ?? null, null, 'no completed questionnaire: no score');
  t.equal(bcRow[13], bcDone.score);

  const certs = wb.rows('RT.03.01 Certifications');
  t.same(certs[0], [...CERTIFICATION_HEADERS]);
  t.same(certs.slice(1), [
    ['Basecamp', bc.slug, 'PCI DSS SAQ A', null, '2030-01-31', 'Valid'],
    ['GitHub', gh.workspaceSlug, 'SOC 2 Type II', 'Independent auditor', '2030-06-30', 'Valid'],
    ['GitHub', gh.workspaceSlug, 'ISO/IEC 27001', null, null, 'Pending'],
  ]);

  const gaps = wb.rows('RT.04.01 Gap Summary');
  t.same(gaps[0], [...GAP_HEADERS]);
  const gapCount = (a: { results: { status: string }[] }) => a.results.filter((r) => r.status !== 'covered').length;
  t.equal(gaps.length - 1, gapCount(ghDone) + gapCount(bcDone), 'one row per gap of each latest complete assessment');
  t.ok(gaps.slice(1).every((r) => r[6] === 'Partial' || r[6] === 'Missing'));
  t.ok(
    gaps.slice(1).some((r) => r[0] === 'GitHub' && r[4] === 'Article 28(5)'),
    'GitHub names no ISO 27001: a gap',
  );

  // --- Pre-flight: ready, with warnings listed per vendor.
  const pf = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-preflight`, headers: owner.headers });
  t.equal(pf.statusCode, 200);
  const report = pf.json().data.preflight;
  t.equal(report.ready, true, JSON.stringify(report.vendors.map((v: { issues: unknown[] }) => v.issues)));
  t.equal(report.errors, 0);
  t.equal(report.settings.find((x: { variable: string }) => x.variable === 'ROI_ENTITY_LEI').value, ENTITY_LEI, 'the configured LEI is shown');
  t.equal(report.vendors.length, 2);
  t.ok(
    report.vendors.every((v: { issues: { field: string }[] }) => v.issues.some((i) => i.field === 'function RTO/RPO')),
    'missing RTO/RPO listed per vendor',
  );

  // --- The xBRL-CSV package.
  const x = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export?format=xbrl-csv`, headers: owner.headers });
  t.equal(x.statusCode, 200, x.statusCode === 200 ? '' : x.body);
  t.equal(x.headers['content-type'], 'application/zip');
  const name = /^attachment; filename=(.+)\.zip$/.exec(String(x.headers['content-disposition']))?.[1];
  t.match(name, new RegExp(`^${ENTITY_LEI}\\.CON_DE_DORA010100_DORA_2025-12-31_\\d{17}$`));
  const files = await unzip(x.rawPayload);
  const csvFiles = [
    'b_01.01',
    'b_01.02',
    'b_01.03',
    'b_02.01',
    'b_02.02',
    'b_02.03',
    'b_03.01',
    'b_03.02',
    'b_03.03',
    'b_04.01',
    'b_05.01',
    'b_05.02',
    'b_06.01',
    'b_07.01',
    'b_99.01',
  ];
  t.same(
    [...files.keys()].sort(),
    [
      `${name}/META-INF/reportPackage.json`,
      ...csvFiles.map((f) => `${name}/reports/${f}.csv`),
      `${name}/reports/FilingIndicators.csv`,
      `${name}/reports/parameters.csv`,
      `${name}/reports/report.json`,
    ].sort(),
  );
  const json = (f: string) => JSON.parse(files.get(`${name}/${f}`)!.toString('utf8'));
  t.same(json('META-INF/reportPackage.json'), { documentInfo: { documentType: 'https://xbrl.org/report-package/2023' } });
  t.same(json('reports/report.json'), {
    documentInfo: { documentType: 'https://xbrl.org/2021/xbrl-csv', extends: ['http://www.eba.europa.eu/eu/fr/xbrl/crr/fws/dora/4.0/mod/dora.json'] },
  });
  const table = (f: string) => parse(files.get(`${name}/reports/${f}.csv`)!, { columns: true }) as Record<string, string>[];
  const raw = (f: string) => files.get(`${name}/reports/${f}.csv`)!.toString('utf8');
  t.match(raw('b_05.01'), /^c0010,c0020,c0030,c0040,c0050,c0060,c0070,c0080,c0090,c0100,c0110,c0120\r\n/);
  t.same(table('parameters'), [
    { name: 'entityID', value: `rs:${ENTITY_LEI}.CON` },
    { name: 'refPeriod', value: '2025-12-31' },
    { name: 'baseCurrency', value: 'iso4217:EUR' },
    { name: 'decimalsInteger', value: '0' },
    { name: 'decimalsMonetary', value: '-3' },
  ]);
  const indicators = Object.fromEntries(table('FilingIndicators').map((r) => [r.templateID, r.reported]));
  t.equal(indicators['B_05.01'], 'true');
  t.equal(indicators['B_01.03'], 'false', 'no branches');
  t.equal(Object.keys(indicators).length, 15);
  t.same(table('b_01.01'), [{ c0010: ENTITY_LEI, c0020: 'Acme Bank AG', c0030: 'eba_GA:DE', c0040: 'eba_CT:x12', c0050: 'BaFin', c0060: today() }]);
  const providersCsv = table('b_05.01');
  t.same(
    providersCsv.map((r) => r.c0010),
    [BASECAMP_LEI, GITHUB_LEI],
  );
  t.same(providersCsv[1], {
    c0010: GITHUB_LEI,
    c0020: 'eba_qCO:qx2000',
    c0030: '',
    c0040: '',
    c0050: 'GitHub, Inc.',
    c0060: 'GitHub, Inc.',
    c0070: 'eba_CT:x212',
    c0080: 'eba_GA:US',
    c0090: 'eba_CU:EUR',
    c0100: '120000',
    c0110: GITHUB_LEI,
    c0120: 'eba_qCO:qx2000',
  });
  const spec = table('b_02.02');
  const ghSpec = spec.find((r) => r.c0010 === 'CTR-GH-2024-01')!;
  t.same(
    [
      ghSpec.c0020,
      ghSpec.c0030,
      ghSpec.c0060,
      ghSpec.c0070,
      ghSpec.c0080,
      ghSpec.c0100,
      ghSpec.c0110,
      ghSpec.c0120,
      ghSpec.c0130,
      ghSpec.c0140,
      ghSpec.c0150,
      ghSpec.c0160,
      ghSpec.c0170,
      ghSpec.c0180,
    ],
    [
      ENTITY_LEI,
      GITHUB_LEI,
      'eba_TA:S19',
      '2024-01-01',
      '2026-12-31',
      '30',
      '90',
      'eba_GA:IE',
      'eba_GA:US',
      'eba_BT:x28',
      'eba_GA:US',
      'eba_GA:US',
      'eba_ZZ:x793',
      'eba_ZZ:x797',
    ],
  );
  t.equal(spec.find((r) => r.c0010 === 'CTR-BC-2023-07')!.c0080, '9999-12-31', 'open-ended contract');
  const functions = new Set(table('b_06.01').map((r) => r.c0010));
  t.ok(
    spec.every((r) => functions.has(r.c0050)),
    'every function identifier resolves in B_06.01',
  );
  t.same(
    table('b_02.01').map((r) => [r.c0010, r.c0020, r.c0040, r.c0050]),
    [
      ['CTR-BC-2023-07', 'eba_CO:x1', 'eba_CU:USD', '3588'],
      ['CTR-GH-2024-01', 'eba_CO:x1', 'eba_CU:EUR', '120000'],
    ],
  );
  const assessment = table('b_07.01').find((r) => r.c0010 === 'CTR-GH-2024-01')!;
  t.same(
    [assessment.c0050, assessment.c0060, assessment.c0070, assessment.c0080, assessment.c0090, assessment.c0100, assessment.c0110, assessment.c0120],
    ['eba_ZZ:x960', 'eba_ZZ:x964', ghDone.completedAt.slice(0, 10), 'eba_BT:x28', 'eba_ZZ:x966', 'eba_ZZ:x793', 'eba_BT:x28', 'GitLab; Bitbucket'],
  );
  t.equal(table('b_99.01').length, 1);
  t.equal(table('b_01.03').length, 0);

  // --- Errors make the package unfit: duplicate contract reference, reported per vendor; export refused.
  await setProfile(app, owner, bc.id, { ...basecampProfile, contracts: [{ ...basecampProfile.contracts[0], reference: 'CTR-GH-2024-01' }] });
  const bad = (await app.inject({ method: 'GET', url: `${API}/workspaces/roi-preflight`, headers: owner.headers })).json().data.preflight;
  t.equal(bad.ready, false);
  const bcIssues = bad.vendors.find((v: { name: string }) => v.name === 'Basecamp').issues;
  t.ok(
    bcIssues.some(
      (i: { severity: string; template: string; message: string }) =>
        i.severity === 'error' && i.template === 'B_02.01' && /duplicate key.*CTR-GH-2024-01.*GitHub/.test(i.message),
    ),
    JSON.stringify(bcIssues),
  );
  const refused = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export?format=xbrl-csv`, headers: owner.headers });
  t.equal(refused.statusCode, 422);
  t.equal(refused.json().error.code, 'ROI_PREFLIGHT_FAILED');
  t.ok(refused.json().error.details.some((d: string) => d.startsWith('Basecamp: vendorProfile.contracts.reference')));
  // The workbook is still available.
  t.equal((await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export`, headers: owner.headers })).statusCode, 200);
});

t.test('register access, defaults and bad input', async (t) => {
  const ctx = await buildTestApp({ workers: 0 });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub');
  await setProfile(app, owner, ws.workspaceId, { legalName: 'GitHub, Inc.', criticalityTier: 'high' });

  t.equal((await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export` })).statusCode, 401);
  t.equal((await app.inject({ method: 'GET', url: `${API}/workspaces/roi-preflight` })).statusCode, 401);
  const bad = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export?format=pdf`, headers: owner.headers });
  t.equal(bad.statusCode, 400);
  t.equal(bad.json().error.code, 'VALIDATION_ERROR');

  // Default institution name; a vendor with no assessment, questionnaire or contract still gets its row.
  const res = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export`, headers: owner.headers });
  t.equal(res.statusCode, 200);
  const wb = await readWorkbook(res.rawPayload);
  t.same(wb.rows('RT.01.01 Summary')[1], ['Institution name', 'Financial Entity']);
  const row = wb.rows('RT.02.01 ICT Providers')[1]!;
  t.same([row[0], row[2], row[10], row[12] ?? null, row[13] ?? null, row[14] ?? null], ['GitHub', 'GitHub, Inc.', 'High', null, null, null]);
  t.equal(wb.rows('RT.04.01 Gap Summary').length, 1, 'headers only');

  // Another organization sees none of these vendors.
  const stranger = await registerUser(app);
  await createOrgAndWorkspace(app, stranger, 'Other Vendor', 'Other Bank');
  const theirs = await readWorkbook((await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export`, headers: stranger.headers })).rawPayload);
  t.same(
    theirs
      .rows('RT.02.01 ICT Providers')
      .slice(1)
      .map((r) => r[0]),
    ['Other Vendor'],
  );
  t.same(theirs.rows('RT.01.01 Summary')[3], ['Vendors', 1]);

  // An organization viewer gets the register of every workspace it can see.
  const viewer = await addOrgMember(app, owner, ws.orgId, 'viewer');
  const vwb = await readWorkbook(
    (await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export`, headers: wsHeaders(viewer, ws.workspaceId) })).rawPayload,
  );
  t.same(
    vwb
      .rows('RT.02.01 ICT Providers')
      .slice(1)
      .map((r) => r[0]),
    ['GitHub'],
  );

  // Without entity settings the package cannot be built; the pre-flight says why and what is missing per vendor.
  const pf = (await app.inject({ method: 'GET', url: `${API}/workspaces/roi-preflight`, headers: owner.headers })).json();
  t.equal(pf.data.preflight.ready, false);
  t.ok(pf.data.preflight.entity.some((i: { field: string; severity: string }) => i.field === 'ROI_ENTITY_LEI' && i.severity === 'error'));
  t.same(
    pf.data.preflight.vendors.map((v: { name: string; included: boolean }) => [v.name, v.included]),
    [['GitHub', false]],
  );
  t.match(pf.data.preflight.vendors[0].issues[0].message, /no contractual arrangement/);
  const setting = (v: string) => pf.data.preflight.settings.find((x: { variable: string }) => x.variable === v);
  t.same(
    setting('ROI_ENTITY_LEI'),
    { variable: 'ROI_ENTITY_LEI', label: 'LEI of the entity', value: null, isDefault: false },
    'entity settings are listed with the variable that sets them',
  );
  t.same(setting('ROI_CURRENCY'), { variable: 'ROI_CURRENCY', label: 'Reporting currency', value: 'EUR', isDefault: true });
  const refused = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export?format=xbrl-csv`, headers: owner.headers });
  t.equal(refused.statusCode, 422);
  t.ok(refused.json().error.details.some((d: string) => d.includes('ROI_ENTITY_LEI')));

  // GET /workspaces/:id still answers for real workspaces.
  t.equal((await app.inject({ method: 'GET', url: `${API}/workspaces/${ws.workspaceId}`, headers: owner.headers })).statusCode, 200);
});
