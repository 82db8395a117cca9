import t from 'tap';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { SHEETS, SUPPLY_CHAIN_HEADERS } from '../../src/compliance/register/workbook.js';
import { buildTestApp, registerUser, type Session } from '../helpers/app.js';
import { createAssessment, docxText, vendorDocs, waitForAssessment } from '../helpers/assessments.js';
import { createTextSource } from '../helpers/dataSources.js';
import { addOrgMember, createOrgAndWorkspace, createWorkspace, wsHeaders } from '../helpers/workspaces.js';

// Concentration risk across the portfolio (docs/concentration.md): the API over the register's
// vendors, functions and drafted subcontractors (with their passages), the analyst's merges and
// splits, what an onboarding vendor would add, and the workbook's RT.06 sheets.
const API = '/api/v1';

const SUBPROCESSORS = `# PayCo Subprocessors

These subprocessors are all located in the United States:

* [Amazon Web Services, Inc.](https://example.com/aws). Cloud hosting provider.
* [Snowflake Computing](https://example.com/snowflake). Data warehouse.
`;

function call(app: FastifyInstance, method: string, url: string, who: Session, payload?: unknown) {
  return app.inject({ method: method as 'GET', url: `${API}${url}`, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}
async function must(res: Awaited<ReturnType<typeof call>>, status = 200) {
  if (res.statusCode !== status) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json();
}

async function draftAndAccept(app: FastifyInstance, who: Session, ws: string, fields: string[]) {
  const queued = (await must(await call(app, 'POST', `/workspaces/${ws}/profile-drafts`, who), 202)).data.draft;
  const deadline = Date.now() + 60_000;
  let d: { status: string; error: string | null };
  for (;;) {
    d = (await must(await call(app, 'GET', `/workspaces/${ws}/profile-drafts/${queued.id}`, who))).data.draft;
    if (d.status === 'completed' || d.status === 'failed' || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  if (d.status !== 'completed') throw new Error(`draft ${d.status}: ${d.error}`);
  await must(
    await call(app, 'POST', `/workspaces/${ws}/profile-drafts/${queued.id}/decisions`, who, {
      decisions: fields.map((field) => ({ field, action: 'accept' })),
    }),
  );
}

const fn = (name: string, criticality: string) => ({
  name,
  licensedActivity: 'eba_TA:x162',
  criticality,
  lastAssessmentDate: '2025-06-30',
  rtoHours: 4,
  rpoHours: 1,
  impact: 'high',
});
const contract = (reference: string, functionIds: string[], startDate = '2024-01-01') => ({ reference, startDate, functionIds });

t.test('the portfolio: AWS through two vendors with the passages, merges and splits, what an onboarding vendor adds, the workbook', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const admin = await registerUser(app, { name: 'Ada Admin' });
  const payco = await createOrgAndWorkspace(app, admin, 'PayCo');
  const analyst = await addOrgMember(app, admin, payco.orgId, 'analyst', { name: 'Ann Analyst' });
  const viewer = await addOrgMember(app, admin, payco.orgId, 'viewer');

  const payments = (await must(await call(app, 'POST', '/register/functions', admin, fn('Payments processing', 'yes')), 201)).data.function;
  const lending = (await must(await call(app, 'POST', '/register/functions', admin, fn('Lending', 'yes')), 201)).data.function;
  const trading = (await must(await call(app, 'POST', '/register/functions', admin, fn('Trading', 'yes')), 201)).data.function;

  // PayCo: subcontractors drafted from its subprocessor list (each with its passage).
  await createTextSource(app, wsHeaders(admin, payco.workspaceId), [{ title: 'PayCo Subprocessors', content: SUBPROCESSORS, format: 'markdown' }]);
  await draftAndAccept(app, admin, payco.workspaceId, ['subcontractors']);
  await must(
    await call(app, 'PATCH', `/workspaces/${payco.workspaceId}`, admin, {
      vendorProfile: { legalName: 'PayCo SAS', country: 'FR', contracts: [contract('C-PAY', [payments.id])] },
    }),
  );
  // LendTech: subcontractors entered by hand, one of them AWS under another name.
  const lend = await createWorkspace(app, admin, 'LendTech', {
    vendorProfile: {
      legalName: 'LendTech GmbH',
      country: 'DE',
      contracts: [contract('C-LEND', [lending.id])],
      subcontractors: [
        { name: 'AWS', country: 'DE' },
        { name: 'Acme Hosting Ltd', country: 'DE' },
      ],
      exitPlan: { exists: false },
    },
  });

  let res = await call(app, 'GET', '/concentration', viewer);
  const c = (await must(res)).data.concentration;
  const aws = c.providers.find((p: { key: string }) => p.key === 'amazon web services');
  t.ok(aws, 'Amazon Web Services, Inc. and AWS are one provider');
  t.same(aws.names, ['AWS', 'Amazon Web Services, Inc.']);
  t.same(
    aws.vendors.map((v: { name: string; rank: number }) => [v.name, v.rank]),
    [
      ['LendTech', 2],
      ['PayCo', 2],
    ],
  );
  t.same(aws.functions.map((f: { code: string }) => f.code).sort(), [payments.code, lending.code].sort());
  t.equal(aws.criticalFunctionCount, 2);
  t.equal(aws.criticalFunctionShare, 2 / 3);
  t.ok(aws.thirdCountry, 'stated in the US');
  const payLink = c.links.find((l: { id: string }) => l.id === aws.vendors.find((v: { name: string }) => v.name === 'PayCo').path[1]);
  t.equal(payLink.workspaceId, payco.workspaceId);
  t.match(payLink.evidence[0].quote, /Amazon Web Services, Inc\./, "the link opens the passage of PayCo's subprocessor list");
  t.match(payLink.evidence[0].link, /^\/|^http/);
  const lendLink = c.links.find((l: { id: string }) => l.id === aws.vendors.find((v: { name: string }) => v.name === 'LendTech').path[1]);
  t.same(lendLink.evidence, [], 'entered by hand: no passage');
  t.match(c.totals, { vendors: 2, criticalVendors: 2, criticalFunctions: 3 });
  t.ok(c.index.vendors.hhi > 0 && c.index.vendors.hhi <= 10000);
  t.same(c.exits.criticalVendorsWithoutTestedExit.map((v: { name: string }) => v.name).sort(), ['LendTech', 'PayCo']);
  // The same exit figures sit beside the inventory's KPIs on the analytics page.
  const kpis = (await must(await call(app, 'GET', '/analytics/kpis', viewer))).data;
  t.same(
    kpis.exits,
    {
      criticalFunctionsWithoutAlternative: c.exits.criticalFunctionsWithoutAlternative.length,
      criticalVendorsWithoutTestedExit: 2,
      concentratedAlternatives: c.exits.concentratedAlternatives.length,
    },
    'GET /analytics/kpis counts the exits the concentration page lists',
  );

  // "Which critical functions depend on AWS?" by any of its names.
  res = await call(app, 'GET', `/concentration?provider=${encodeURIComponent('Amazon Web Services EMEA SARL')}`, viewer);
  const only = (await must(res)).data.concentration;
  t.same(only.provider, { asked: 'Amazon Web Services EMEA SARL', key: 'amazon web services', name: 'Amazon Web Services', found: true });
  t.same(
    only.providers.map((p: { key: string }) => p.key),
    ['amazon web services'],
  );
  t.equal(only.links.length, 4, 'the links of its chains only');
  t.equal((await must(await call(app, 'GET', '/concentration?provider=Nobody%20Ltd', viewer))).data.concentration.provider.found, false);
  t.equal((await call(app, 'GET', '/concentration?limit=0', viewer)).statusCode, 400);
  const bare = (await must(await call(app, 'GET', '/concentration?view=table&limit=1', viewer))).data.concentration;
  t.same(
    [bare.links, bare.providers.length, bare.providers[0].vendors, bare.providers[0].vendorCount, bare.more],
    [[], 1, [], c.providers[0].vendorCount, c.providers.length - 1],
    'the table alone: counts without lists or links, one provider, the rest counted',
  );
  t.equal((await call(app, 'GET', '/concentration?provider=%20', viewer)).statusCode, 400, 'a name of blanks');

  // Merges and splits: analysts and org_admins; viewers read them.
  res = await call(app, 'POST', '/concentration/aliases/merge', viewer, { names: ['Acme Hosting'], into: 'AWS' });
  t.equal(res.statusCode, 403);
  t.equal(res.json().error.code, 'INSUFFICIENT_PERMISSION');
  res = await call(app, 'POST', '/concentration/aliases/merge', analyst, { names: ['Acme Hosting'], into: 'AWS' });
  t.same(
    (await must(res)).data.overrides.map((o: { nameKey: string; action: string; providerKey: string; createdBy: string }) => [
      o.nameKey,
      o.action,
      o.providerKey,
      o.createdBy,
    ]),
    [['acme hosting', 'merge', 'amazon web services', 'Ann Analyst']],
  );
  let after = (await must(await call(app, 'GET', '/concentration?provider=AWS', viewer))).data.concentration.providers[0];
  t.same(after.names, ['AWS', 'Acme Hosting Ltd', 'Amazon Web Services, Inc.'], 'Acme Hosting Ltd now counts as AWS');
  t.equal((await call(app, 'POST', '/concentration/aliases/merge', analyst, { names: ['AWS'], into: 'Amazon Web Services' })).statusCode, 400, 'already one');
  t.equal((await call(app, 'POST', '/concentration/aliases/merge', analyst, { names: ['...'], into: 'AWS' })).statusCode, 400, 'no letters');
  t.equal((await call(app, 'POST', '/concentration/aliases/merge', analyst, { names: [], into: 'AWS' })).statusCode, 400);

  res = await call(app, 'POST', '/concentration/aliases/split', admin, { name: 'AWS' });
  t.equal(res.statusCode, 200, res.body);
  after = (await must(await call(app, 'GET', '/concentration', viewer))).data.concentration.providers;
  t.same(after.find((p: { key: string }) => p.key === 'amazon web services').names, ['Acme Hosting Ltd', 'Amazon Web Services, Inc.']);
  t.same(
    after.find((p: { key: string }) => p.key === 'aws').vendors.map((v: { name: string }) => v.name),
    ['LendTech'],
    'AWS split off',
  );
  t.equal((await call(app, 'POST', '/concentration/aliases/split', admin, { name: 'Snowflake Computing Inc.' })).statusCode, 200);
  t.equal((await call(app, 'POST', '/concentration/aliases/split', admin, { name: 'Totally New Co' })).statusCode, 400, 'already its own provider');
  const aliases = (await must(await call(app, 'GET', '/concentration/aliases', viewer))).data.aliases;
  t.equal(aliases.canEdit, false);
  t.ok(aliases.table.some((p: { name: string; aliases: string[] }) => p.name === 'Amazon Web Services' && p.aliases.includes('AWS')));
  t.equal(aliases.overrides.length, 3);
  t.equal((await call(app, 'DELETE', '/concentration/aliases?name=AWS', viewer)).statusCode, 403);
  t.equal((await call(app, 'DELETE', '/concentration/aliases?name=AWS', admin)).statusCode, 200);
  t.equal((await call(app, 'DELETE', '/concentration/aliases?name=AWS', admin)).statusCode, 404, 'gone');
  t.equal(
    (await must(await call(app, 'GET', '/concentration?provider=AWS', viewer))).data.concentration.providers[0].vendorCount,
    2,
    'the table applies again',
  );

  // An onboarding vendor (its contract starts next year): what it would add.
  const trade = await createWorkspace(app, admin, 'TradeCloud', {
    vendorProfile: {
      legalName: 'TradeCloud Ltd',
      country: 'GB',
      contracts: [contract('C-TRADE', [trading.id], '2099-01-01')],
      subcontractors: [{ name: 'Amazon Web Services EMEA SARL', country: 'LU' }],
    },
  });
  for (const id of [trade.id, trade.slug]) {
    const impact = (await must(await call(app, 'GET', `/concentration/vendors/${id}`, viewer))).data.impact;
    t.equal(impact.onboarding, true);
    const p = impact.providers.find((x: { key: string }) => x.key === 'amazon web services');
    t.match(p, { alreadyDependedOn: true, vendorsBefore: 2, vendorsAfter: 3, criticalFunctionsBefore: 2, criticalFunctionsAfter: 3 });
    t.same(
      impact.newlyConcentratedFunctions.map((f: { code: string; providers: string[] }) => [f.code, f.providers]),
      [[trading.code, ['Amazon Web Services']]],
    );
    t.same(impact.newThirdCountries, ['GB']);
    t.ok(impact.links.some((l: { writtenName: string }) => l.writtenName === 'Amazon Web Services EMEA SARL'));
  }
  t.equal((await call(app, 'GET', '/concentration/vendors/nope', viewer)).statusCode, 404);
  // Another organization's user sees none of it.
  const stranger = await registerUser(app, { name: 'Stranger' });
  await createOrgAndWorkspace(app, stranger, 'Own Vendor', 'Other Bank');
  t.equal((await call(app, 'GET', `/concentration/vendors/${trade.id}`, stranger)).statusCode, 404);
  const theirs = (await must(await call(app, 'GET', '/concentration', stranger))).data.concentration;
  t.equal(theirs.totals.vendors, 1);
  t.notOk(theirs.providers.some((p: { key: string }) => p.key === 'amazon web services'));

  // The workbook: RT.06.01 with the figures per provider, RT.06.02 with each link's passage.
  res = await call(app, 'GET', '/workspaces/roi-export', admin);
  t.equal(res.statusCode, 200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = wb.getWorksheet(SHEETS.concentration)!;
  const rows: unknown[][] = [];
  sheet.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  const awsRow = rows.find((r) => r[1] === 'amazon web services')!;
  t.ok(awsRow, 'AWS has its row');
  t.same(awsRow.slice(4, 11), ['Yes', 3, 100, 0, 3, 3, 100], 'third country, vendors, share (%), direct, critical vendors, critical functions, share (%)');
  t.ok(rows.some((r) => r[0] === 'HHI over critical functions' && typeof r[1] === 'number'));
  const chain = wb.getWorksheet(SHEETS.supplyChain)!;
  const links: unknown[][] = [];
  chain.eachRow((r) => links.push((r.values as unknown[]).slice(1)));
  t.same(links[0], [...SUPPLY_CHAIN_HEADERS]);
  const q = SUPPLY_CHAIN_HEADERS.indexOf('Quote');
  const pay = links.find((r) => r[0] === 'PayCo' && r[4] === 'Amazon Web Services, Inc.')!;
  t.match(String(pay[q]), /Amazon Web Services, Inc\./, 'the passage in the workbook');
  t.equal(pay[2], 2);
  t.ok(lend.id);
});

t.test("the assessment report of an onboarding vendor says what it would add, citing Art. 28(4)(c) and 29; a vendor in force's does not", async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const admin = await registerUser(app, { name: 'Ada Admin' });
  const inForce = await createOrgAndWorkspace(app, admin, 'PayCo');
  const payments = (await must(await call(app, 'POST', '/register/functions', admin, fn('Payments processing', 'yes')), 201)).data.function;
  const trading = (await must(await call(app, 'POST', '/register/functions', admin, fn('Trading', 'yes')), 201)).data.function;
  await must(
    await call(app, 'PATCH', `/workspaces/${inForce.workspaceId}`, admin, {
      vendorProfile: { legalName: 'PayCo SAS', contracts: [contract('C-PAY', [payments.id])], subcontractors: [{ name: 'AWS', country: 'US' }] },
    }),
  );
  const onboarding = await createWorkspace(app, admin, 'TradeCloud', {
    vendorProfile: {
      legalName: 'TradeCloud Ltd',
      contracts: [contract('C-TRADE', [trading.id], '2099-01-01')],
      subcontractors: [{ name: 'Amazon Web Services, Inc.', country: 'US' }],
    },
  });
  const files = vendorDocs('github', ['github-sirt-description-rfc-2350.md']);
  const report = async (headers: Record<string, string>) => {
    const created = await createAssessment(app, headers, files, { name: 'Pre-contract review' });
    t.equal(created.statusCode, 201, created.body);
    const a = await waitForAssessment(app, headers, created.json().data.assessment.id);
    t.equal(a.status, 'completed');
    const rep = await app.inject({ method: 'GET', url: `${API}/assessments/${a.id}/report`, headers });
    t.equal(rep.statusCode, 200);
    return docxText(rep.rawPayload);
  };
  const text = await report(onboarding.headers);
  t.match(text, /Concentration risk before signing/);
  t.match(text, /Article 28\(4\)\(c\)/);
  t.match(text, /Article 29\(1\)/);
  t.match(text, /other vendors already depend on: Amazon Web Services \(1 vendors\)/);
  t.match(text, new RegExp(`newly concentrated: ${trading.code} Trading \\(on Amazon Web Services\\)`));
  t.match(text, /1 → 2/, 'vendors before and after');
  t.notMatch(await report(wsHeaders(admin, inForce.workspaceId)), /Concentration risk before signing/, 'a vendor under contract: no pre-signing section');
});
