import t from 'tap';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { DORA_TEMPLATE } from '../../src/compliance/questionnaire-template.js';
import { CERTIFICATION_HEADERS, GAP_HEADERS, PROVIDER_HEADERS } from '../../src/compliance/register/workbook.js';
import { buildTestApp, registerUser, type Session } from '../helpers/app.js';
import { createAssessment, vendorDocs, waitForAssessment } from '../helpers/assessments.js';
import { failuresOf, readPackage, type TemplateId } from '../helpers/register.js';
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

const SUB_LEI = lei('TESTAMAZONWEBSRV01');

/** The entity's settings, as an org_admin stores them on the register page. */
const ENTITY = {
  name: 'Acme Bank AG',
  lei: ENTITY_LEI,
  country: 'DE',
  entityType: 'eba_CT:x12',
  competentAuthority: 'BaFin',
  currency: 'EUR',
  totalAssets: 1_500_000_000,
  referenceDate: '2025-12-31',
};
const PAYMENTS = {
  name: 'Payments processing',
  licensedActivity: 'eba_TA:x162',
  criticality: 'yes',
  reasons: 'Customer payments stop without it',
  lastAssessmentDate: '2025-06-30',
  rtoHours: 4,
  rpoHours: 1,
  impact: 'high',
};
const COLLAB = { ...PAYMENTS, name: 'Internal collaboration', criticality: 'no', reasons: null, rtoHours: 48, rpoHours: 24, impact: 'low' };

const githubProfile = {
  legalName: 'GitHub, Inc.',
  identifier: { type: 'LEI', value: GITHUB_LEI },
  country: 'US',
  ictServiceType: 'S19',
  criticalityTier: 'critical',
  supportsCriticalFunction: true,
  description: 'Source code hosting and CI for the payments platform',
  certifications: [
    { type: 'SOC 2 Type II', issuer: 'Independent auditor', validUntil: '2030-06-30', status: 'valid' },
    { type: 'ISO/IEC 27001', status: 'pending' },
  ],
  substitutability: 'highly_complex',
  discontinuationImpact: 'high',
  lastAuditDate: '2025-09-30',
  exitPlan: { exists: true, reintegrationPossibility: 'difficult', alternativeProvidersIdentified: true, alternativeProviders: ['GitLab', 'Bitbucket'] },
  nextReviewDate: '2030-03-31',
  subcontractors: [
    { name: 'Amazon Web Services, Inc.', role: 'Hosting', country: 'US', identifier: { type: 'LEI', value: SUB_LEI } },
    { name: 'Fastly', role: 'CDN', country: 'US' },
  ],
};
const githubContract = {
  reference: 'CTR-GH-2024-01',
  ictServiceType: 'S19',
  startDate: '2024-01-01',
  endDate: '2026-12-31',
  noticePeriodDaysEntity: 30,
  noticePeriodDaysProvider: 90,
  governingLaw: 'IE',
  annualCost: { amount: 120000, currency: 'USD' },
  serviceLocations: ['US', 'IE'],
  storesData: true,
  dataStorageLocations: ['US', 'DE'],
  dataProcessingLocations: ['US', 'IE'],
  dataSensitivity: 'high',
};
const basecampProfile = {
  legalName: '37signals LLC',
  identifier: { type: 'LEI', value: BASECAMP_LEI },
  country: 'US',
  ictServiceType: 'S19',
  criticalityTier: 'low',
  supportsCriticalFunction: false,
  certifications: [{ type: 'PCI DSS SAQ A', validUntil: '2030-01-31', status: 'valid' }],
  nextReviewDate: '2030-09-30',
};
const basecampContract = {
  reference: 'CTR-BC-2023-07',
  startDate: '2023-07-01',
  serviceLocations: ['US'],
  storesData: true,
  dataStorageLocations: ['US'],
  processesData: false,
  annualCost: { amount: 3588, currency: 'EUR' },
  governingLaw: 'US',
  noticePeriodDaysEntity: 0,
  noticePeriodDaysProvider: 30,
};

async function req(app: FastifyInstance, who: Session, method: string, url: string, payload?: unknown) {
  const res = await app.inject({
    method: method as 'GET',
    url: `${API}${url}`,
    headers: who.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

type Issue = { severity: string; check: string; rules: string[]; field: string; message: string; template: string; column: string };
const allIssues = (pf: { entity: Issue[]; functions: { issues: Issue[] }[]; vendors: { issues: Issue[] }[] }) => [
  ...pf.entity,
  ...pf.functions.flatMap((f) => f.issues),
  ...pf.vendors.flatMap((v) => v.issues),
];

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

t.test('register workbook and xBRL-CSV package of two vendors: every active EBA rule and the taxonomy checks pass', async (t) => {
  const ctx = await buildTestApp({});
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const gh = await createOrgAndWorkspace(app, owner, 'GitHub');
  const bc = await createWorkspace(app, owner, 'Basecamp');
  await req(app, owner, 'PUT', '/register/entity', ENTITY);
  const payments = (await req(app, owner, 'POST', '/register/functions', PAYMENTS)).function;
  const collab = (await req(app, owner, 'POST', '/register/functions', COLLAB)).function;
  await setProfile(app, owner, gh.workspaceId, githubProfile);
  await setProfile(app, owner, bc.id, basecampProfile);
  await req(app, owner, 'POST', `/workspaces/${gh.workspaceId}/contracts`, { ...githubContract, functionIds: [payments.id] });
  await req(app, owner, 'POST', `/workspaces/${bc.id}/contracts`, { ...basecampContract, functionIds: [collab.id] });

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

  // --- A USD contract without a USD rate: not converted silently, refused with what to do.
  let pf = await req(app, owner, 'GET', '/workspaces/roi-preflight');
  t.equal(pf.preflight.ready, false);
  const rateIssue = allIssues(pf.preflight).find((i) => i.field === 'fxRate:USD')!;
  t.ok(rateIssue, JSON.stringify(allIssues(pf.preflight)));
  t.equal(rateIssue.severity, 'error');
  t.equal(
    rateIssue.message,
    'Record the USD to EUR exchange rate as at 2025-12-31 (or an earlier date) on the register page: contract CTR-GH-2024-01 of GitHub costs 120000 USD',
  );
  t.same([rateIssue.template, rateIssue.rules.includes('e23792_e')], ['B_02.01', true], 'the EBA rule and cell as detail');
  const refused = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export?format=xbrl-csv`, headers: owner.headers });
  t.equal(refused.statusCode, 422);
  t.equal(refused.json().error.code, 'ROI_PREFLIGHT_FAILED');
  t.ok(refused.json().error.details.some((d: string) => d.startsWith('GitHub: Record the USD to EUR exchange rate')));
  await req(app, owner, 'PUT', '/register/fx-rates', { currency: 'USD', date: '2026-01-31', rate: 0.8 });
  t.equal((await req(app, owner, 'GET', '/workspaces/roi-preflight')).preflight.ready, false, 'a rate after the reference date does not apply');
  await req(app, owner, 'PUT', '/register/fx-rates', { currency: 'USD', date: '2025-12-31', rate: 0.92 });

  // --- Pre-flight: ready; only warnings (Fastly has no identification code: left out of the supply chain).
  pf = await req(app, owner, 'GET', '/workspaces/roi-preflight');
  const report = pf.preflight;
  t.equal(report.ready, true, JSON.stringify(allIssues(report)));
  t.equal(report.errors, 0);
  t.ok(
    report.vendors
      .find((v: { name: string }) => v.name === 'GitHub')
      .issues.some((i: Issue) => i.severity === 'warning' && /1 subcontractor\(s\) of GitHub have no identification code.*Fastly/.test(i.message)),
  );
  t.same(
    [report.package.vendors, report.package.contracts, report.package.functions, report.package.subcontractors],
    [2, 2, 2, 1],
    'what the package holds: two providers, their contracts, two functions, one subcontractor of rank 2',
  );
  t.same([report.rules.total, report.rules.active, report.rules.repository], [63, 55, 'artemeon/dpm-xl-validator']);
  t.equal(report.settings.find((x: { key: string }) => x.key === 'lei').value, ENTITY_LEI, 'the stored LEI is in force');

  // --- The xBRL-CSV package, read back and checked independently.
  const x = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export?format=xbrl-csv`, headers: owner.headers });
  t.equal(x.statusCode, 200, x.statusCode === 200 ? '' : x.body);
  t.equal(x.headers['content-type'], 'application/zip');
  const name = /^attachment; filename=(.+)\.zip$/.exec(String(x.headers['content-disposition']))?.[1];
  t.match(name, new RegExp(`^${ENTITY_LEI}\\.CON_DE_DORA010100_DORA_2025-12-31_\\d{17}$`));
  const pkg = await readPackage(x.rawPayload);
  t.equal(pkg.root, name);
  t.same([...pkg.files.keys()].filter((f) => !f.endsWith('.csv')).sort(), [`${name}/META-INF/reportPackage.json`, `${name}/reports/report.json`]);
  t.same(JSON.parse(pkg.text('reports/report.json')!), {
    documentInfo: { documentType: 'https://xbrl.org/2021/xbrl-csv', extends: ['http://www.eba.europa.eu/eu/fr/xbrl/crr/fws/dora/4.0/mod/dora.json'] },
  });
  t.same(pkg.parameters, {
    entityID: `rs:${ENTITY_LEI}.CON`,
    refPeriod: '2025-12-31',
    baseCurrency: 'iso4217:EUR',
    decimalsInteger: '0',
    decimalsMonetary: '-3',
  });
  const { failures, text } = failuresOf(pkg.tables);
  t.same(failures, [], `every active EBA rule, key and reference holds on the package: ${text}`);
  const tb = pkg.tables;
  t.same(
    tb['B_01.01'],
    [{ c0010: ENTITY_LEI, c0020: 'Acme Bank AG', c0030: 'eba_GA:DE', c0040: 'eba_CT:x12', c0050: 'BaFin', c0060: '2025-12-31' }],
    'the reference date as the date of the reporting',
  );
  t.same(
    tb['B_01.02'].map((r) => [r.c0010, r.c0060, r.c0090, r.c0100, r.c0110]),
    [[ENTITY_LEI, ENTITY_LEI, '9999-12-31', 'eba_CU:EUR', '1500000000']],
  );
  // Amounts in the base currency: 120,000 USD at 0.92.
  t.same(
    tb['B_02.01'].map((r) => [r.c0010, r.c0020, r.c0040, r.c0050]),
    [
      ['CTR-BC-2023-07', 'eba_CO:x1', 'eba_CU:EUR', '3588'],
      ['CTR-GH-2024-01', 'eba_CO:x1', 'eba_CU:EUR', '110400'],
    ],
  );
  const ghProvider = tb['B_05.01'].find((r) => r.c0010 === GITHUB_LEI)!;
  t.same([ghProvider.c0090, ghProvider.c0100, ghProvider.c0080], ['eba_CU:EUR', '110400', 'eba_GA:US']);
  // One B_02.02 row per service, storage and processing country: 2 x 2 x 2; none dropped, no key empty.
  const ghSpec = tb['B_02.02'].filter((r) => r.c0010 === 'CTR-GH-2024-01');
  t.equal(ghSpec.length, 8);
  t.same(
    ghSpec.map((r) => [r.c0130, r.c0150, r.c0160].join(' ')).sort(),
    ['eba_GA:IE', 'eba_GA:US'].flatMap((a) => ['eba_GA:DE', 'eba_GA:US'].flatMap((b) => ['eba_GA:IE', 'eba_GA:US'].map((c) => `${a} ${b} ${c}`))).sort(),
  );
  t.ok(
    ghSpec.every(
      (r) => r.c0050 === payments.code && r.c0030 === GITHUB_LEI && r.c0060 === 'eba_TA:S19' && r.c0170 === 'eba_ZZ:x793' && r.c0180 === 'eba_ZZ:x797',
    ),
  );
  const bcSpec = tb['B_02.02'].filter((r) => r.c0010 === 'CTR-BC-2023-07');
  t.same(
    bcSpec.map((r) => [r.c0050, r.c0080, r.c0130, r.c0150, r.c0160]),
    [[collab.code, '9999-12-31', 'eba_GA:US', 'eba_GA:US', 'eba_GA:qx2007']],
    'open-ended; no processing: not applicable',
  );
  t.same(
    tb['B_06.01'].map((r) => [r.c0010, r.c0020, r.c0030, r.c0040, r.c0050, r.c0070, r.c0080, r.c0090, r.c0100]),
    [
      [payments.code, 'eba_TA:x162', 'Payments processing', ENTITY_LEI, 'eba_BT:x28', '2025-06-30', '4', '1', 'eba_ZZ:x793'],
      [collab.code, 'eba_TA:x162', 'Internal collaboration', ENTITY_LEI, 'eba_BT:x29', '2025-06-30', '48', '24', 'eba_ZZ:x791'],
    ],
    'the functions with their recovery objectives and the date of their criticality assessment',
  );
  // The supply chain: the direct provider at rank 1, AWS at rank 2 under GitHub's contract, AWS in B_05.01.
  t.same(
    tb['B_05.02'].map((r) => [r.c0010, r.c0030, r.c0050, r.c0060]),
    [
      ['CTR-BC-2023-07', BASECAMP_LEI, '1', BASECAMP_LEI],
      ['CTR-GH-2024-01', GITHUB_LEI, '1', GITHUB_LEI],
      ['CTR-GH-2024-01', SUB_LEI, '2', GITHUB_LEI],
    ],
  );
  t.same(
    tb['B_05.01'].find((r) => r.c0010 === SUB_LEI),
    {
      c0010: SUB_LEI,
      c0020: 'eba_qCO:qx2000',
      c0030: '',
      c0040: '',
      c0050: 'Amazon Web Services, Inc.',
      c0060: 'Amazon Web Services, Inc.',
      c0070: 'eba_CT:x212',
      c0080: 'eba_GA:US',
      c0090: '',
      c0100: '',
      c0110: SUB_LEI,
      c0120: 'eba_qCO:qx2000',
    },
  );
  t.same(
    tb['B_04.01'][0],
    { c0010: 'CTR-BC-2023-07', c0020: ENTITY_LEI, c0030: 'eba_ZZ:x839', c0040: 'Not applicable' },
    'the key column filled (EBA Q&A 2024_7285)',
  );
  const ghAssessment = tb['B_07.01'].find((r) => r.c0010 === 'CTR-GH-2024-01')!;
  t.same(
    [
      ghAssessment.c0050,
      ghAssessment.c0060,
      ghAssessment.c0070,
      ghAssessment.c0080,
      ghAssessment.c0090,
      ghAssessment.c0100,
      ghAssessment.c0110,
      ghAssessment.c0120,
    ],
    ['eba_ZZ:x960', 'eba_ZZ:x964', '2025-09-30', 'eba_BT:x28', 'eba_ZZ:x966', 'eba_ZZ:x793', 'eba_BT:x28', 'GitLab; Bitbucket'],
  );
  t.equal(tb['B_07.01'].length, 1, 'Basecamp supports no critical function and was not assessed: no B_07.01 row');
  t.same(
    Object.fromEntries(pkg.indicators.map((r) => [r.templateID, r.reported])),
    Object.fromEntries(Object.entries(report.package.rows).map(([k, n]) => [k, (n as number) > 0 ? 'true' : 'false'])),
    'the filing indicators match what the pre-flight said the package holds',
  );
  for (const [k, n] of Object.entries(report.package.rows)) t.equal(tb[k as TemplateId].length, n, `${k}: ${n} rows, as the pre-flight said`);

  // The checks fail when the package does: a function without its recovery time objective, a provider that is named nowhere.
  const broken = structuredClone(tb);
  broken['B_06.01'][0]!.c0080 = '';
  broken['B_05.01'] = broken['B_05.01'].filter((r) => r.c0010 !== SUB_LEI);
  const found = failuresOf(broken).failures;
  t.same([...new Set(found.filter((f) => f.check === 'rule').map((f) => f.rule))].sort(), ['e23682_e', 'v8881_m']);
  t.ok(found.some((f) => f.check === 'reference' && f.template === 'B_05.02' && f.target === 'B_05.01'));

  // --- The workbook: the summary sheets, then the EBA templates exactly as filed.
  const res = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export`, headers: owner.headers });
  t.equal(res.statusCode, 200, res.statusCode === 200 ? '' : res.body);
  t.equal(res.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  t.equal(res.headers['content-disposition'], `attachment; filename=DORA_Register_of_Information_${today()}.xlsx`);
  const wb = await readWorkbook(res.rawPayload);
  t.same(wb.names, [
    'RT.01.01 Summary',
    'RT.02.01 ICT Providers',
    'RT.03.01 Certifications',
    'RT.04.01 Gap Summary',
    'RT.05.01 Field Sources',
    'RT.06.01 Concentration',
    'RT.06.02 Supply Chain',
    ...Object.keys(report.package.rows),
  ]);
  for (const tpl of Object.keys(report.package.rows) as TemplateId[]) {
    const sheet = wb.rows(tpl);
    t.same(
      sheet.slice(1).map((r) => Object.fromEntries((sheet[0] as string[]).map((c, i) => [c, r[i] === null || r[i] === undefined ? '' : String(r[i])]))),
      tb[tpl],
      `sheet ${tpl} holds the rows of ${tpl.toLowerCase()}.csv`,
    );
  }
  const summary = wb.rows('RT.01.01 Summary');
  t.same(summary[1], ['Institution name', 'Acme Bank AG'], 'the entity name stored on the register page');
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

  // Nothing filed yet: not ready, and every message says what to do, with the rule and the cell as detail.
  const pf = (await app.inject({ method: 'GET', url: `${API}/workspaces/roi-preflight`, headers: owner.headers })).json().data.preflight;
  t.equal(pf.ready, false, 'no vendor in the package: never ready');
  const lei = pf.entity.find((i: Issue) => i.field === 'entity.lei');
  t.same(
    [lei.severity, lei.message, lei.template, lei.rules.includes('e23677_e')],
    ['error', "Set the entity's LEI on the register page", 'B_01.01', true],
    'the real cause, in words; the rule as detail',
  );
  t.ok(pf.entity.some((i: Issue) => i.severity === 'error' && i.field === 'contracts' && /Record a contract with at least one vendor/.test(i.message)));
  t.notOk(
    allIssues(pf).some((i) => /empty key column|row \d+/.test(i.message)),
    'no jargon in the messages',
  );
  t.same(
    pf.vendors.map((v: { name: string; included: boolean }) => [v.name, v.included]),
    [['GitHub', false]],
  );
  t.match(pf.vendors[0].issues[0].message, /GitHub has no contract recorded and is left out of the package/);
  t.same(pf.package.vendors, 0);
  const setting = (k: string) => pf.settings.find((x: { key: string }) => x.key === k);
  t.same(setting('lei'), { key: 'lei', label: 'LEI of the entity', value: null, source: 'unset', variable: 'ROI_ENTITY_LEI' });
  t.same(setting('currency'), { key: 'currency', label: 'Reporting currency', value: 'EUR', source: 'default', variable: 'ROI_CURRENCY' });
  const refused = await app.inject({ method: 'GET', url: `${API}/workspaces/roi-export?format=xbrl-csv`, headers: owner.headers });
  t.equal(refused.statusCode, 422);
  t.ok(
    refused
      .json()
      .error.details.some(
        (d: string) => d === "entity: Set the entity's LEI on the register page (e23677_e, v8891_m)" || d.startsWith("entity: Set the entity's LEI"),
      ),
  );

  // A critical function no contract supports blocks too.
  await req(app, owner, 'POST', '/register/functions', PAYMENTS);
  const withFn = (await app.inject({ method: 'GET', url: `${API}/workspaces/roi-preflight`, headers: owner.headers })).json().data.preflight;
  t.match(
    withFn.functions[0].issues.find((i: Issue) => i.severity === 'error').message,
    /Link the contracts that support function F1 \(Payments processing\) to it/,
  );

  // GET /workspaces/:id still answers for real workspaces.
  t.equal((await app.inject({ method: 'GET', url: `${API}/workspaces/${ws.workspaceId}`, headers: owner.headers })).statusCode, 200);
});
