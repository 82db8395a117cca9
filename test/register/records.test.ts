import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, registerUser, type Session } from '../helpers/app.js';
import { addOrgMember, createOrgAndWorkspace, createWorkspace, makeLei } from '../helpers/workspaces.js';

// The register's own records (docs/register-of-information.md): entity settings per
// organization (org_admin, audited, the ROI_* variables as defaults), business functions,
// exchange rates, and a vendor's contracts as records (create, change, end, delete; references
// unique across the organization).
const API = '/api/v1';
const ENTITY_LEI = makeLei('5299000DORABANK001');
const ENV_LEI = makeLei('5299000ENVBANK0001');

function call(app: FastifyInstance, method: string, url: string, who: Session, payload?: unknown) {
  return app.inject({ method: method as 'GET', url: `${API}${url}`, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

const FN = {
  name: 'Payments processing',
  licensedActivity: 'eba_TA:x162',
  criticality: 'yes',
  lastAssessmentDate: '2025-06-30',
  rtoHours: 4,
  rpoHours: 1,
  impact: 'high',
};

t.test('entity settings: stored per organization over the defaults, org_admin only, audited', async (t) => {
  const ctx = await buildTestApp({ roi: { entityLei: ENV_LEI, entityCountry: 'FR', currency: 'EUR', scope: 'CON', competentAuthority: 'ACPR' } });
  t.teardown(ctx.close);
  const { app } = ctx;
  const admin = await registerUser(app, { name: 'Ada Admin' });
  const ws = await createOrgAndWorkspace(app, admin, 'GitHub');
  const analyst = await addOrgMember(app, admin, ws.orgId, 'analyst', { name: 'Ann Analyst' });
  const viewer = await addOrgMember(app, admin, ws.orgId, 'viewer');

  const get = async (who: Session) => {
    const r = await call(app, 'GET', '/register/entity', who);
    t.equal(r.statusCode, 200, r.body);
    return r.json().data.entity as { settings: { key: string; value: unknown; source: string }[]; canEdit: boolean };
  };
  const setting = (e: Awaited<ReturnType<typeof get>>, key: string) => e.settings.find((s) => s.key === key)!;
  let e = await get(admin);
  t.same(
    setting(e, 'lei'),
    { key: 'lei', label: 'LEI of the entity', value: ENV_LEI, source: 'environment', variable: 'ROI_ENTITY_LEI' },
    'nothing stored: the environment',
  );
  t.equal(setting(e, 'competentAuthority').value, 'ACPR');
  t.equal(setting(e, 'entityType').source, 'unset');
  t.match(setting(e, 'referenceDate').value, /^\d{4}-12-31$/, 'default reference date: 31 December of last year');
  t.equal(e.canEdit, true);
  t.equal((await get(viewer)).canEdit, false, 'every member reads them');

  // An org_admin stores them; the LEI's check digits are verified; nobody else may.
  const bad = await call(app, 'PUT', '/register/entity', admin, { lei: `${ENTITY_LEI.slice(0, 19)}${(Number(ENTITY_LEI[19]) + 1) % 10}` });
  t.equal(bad.statusCode, 400);
  t.same(bad.json().error.details, ['lei: not a valid LEI (20 characters, ISO 17442 check digits)']);
  t.equal((await call(app, 'PUT', '/register/entity', admin, { lei: 'short' })).statusCode, 400, 'the pattern too');
  t.equal((await call(app, 'PUT', '/register/entity', admin, { entityType: 'eba_CT:x999' })).statusCode, 400, 'a type outside the closed list');
  t.equal((await call(app, 'PUT', '/register/entity', admin, {})).statusCode, 400, 'an empty change');
  const denied = await call(app, 'PUT', '/register/entity', analyst, { lei: ENTITY_LEI });
  t.equal(denied.statusCode, 403);
  t.equal(denied.json().error.code, 'INSUFFICIENT_PERMISSION');
  const saved = await call(app, 'PUT', '/register/entity', admin, {
    lei: ENTITY_LEI,
    country: 'DE',
    entityType: 'eba_CT:x12',
    competentAuthority: 'BaFin',
    totalAssets: 1_500_000_000,
    referenceDate: '2025-12-31',
  });
  t.equal(saved.statusCode, 200, saved.body);
  e = saved.json().data.entity;
  t.same(setting(e, 'lei'), { key: 'lei', label: 'LEI of the entity', value: ENTITY_LEI, source: 'stored', variable: 'ROI_ENTITY_LEI' });
  t.equal(setting(e, 'totalAssets').value, 1_500_000_000);
  // Null clears a stored value: the default applies again.
  await call(app, 'PUT', '/register/entity', admin, { competentAuthority: null });
  t.same([setting(await get(admin), 'competentAuthority').value, setting(await get(admin), 'competentAuthority').source], ['ACPR', 'environment']);
  await call(app, 'PUT', '/register/entity', admin, { competentAuthority: 'BaFin', country: 'DE' });

  // The audit: who, when, old and new value, newest first; readable by the organization.
  const audit = await call(app, 'GET', '/register/audit?kind=entity&limit=50', viewer);
  t.equal(audit.statusCode, 200);
  const entries = audit.json().data.entries as {
    field: string;
    oldValue: string | null;
    newValue: string | null;
    changedBy: { name: string };
    changedAt: string;
  }[];
  const rows = entries.map((x) => [x.field, x.oldValue, x.newValue]);
  t.same(
    rows.slice(0, 2),
    [
      ['competentAuthority', null, 'BaFin'],
      ['competentAuthority', 'BaFin', null],
    ],
    'newest first; an unchanged value (country DE again) is not audited',
  );
  t.same(
    rows.slice(2).sort(),
    [
      ['competentAuthority', null, 'BaFin'],
      ['country', null, 'DE'],
      ['entityType', null, 'eba_CT:x12'],
      ['lei', null, ENTITY_LEI],
      ['referenceDate', null, '2025-12-31'],
      ['totalAssets', null, '1500000000'],
    ],
    'one entry per value stored',
  );
  t.ok(entries.every((x) => x.changedBy.name === 'Ada Admin' && !Number.isNaN(Date.parse(x.changedAt))));

  // Another organization sees its own settings, not these.
  const other = await registerUser(app);
  await createOrgAndWorkspace(app, other, 'Other vendor', 'Other Bank');
  t.equal(setting(await get(other), 'lei').value, ENV_LEI);
  t.equal((await call(app, 'GET', '/register/audit', other)).json().data.entries.length, 0);
  t.equal((await app.inject({ method: 'GET', url: `${API}/register/entity` })).statusCode, 401);
});

t.test('business functions, exchange rates and contracts as records', async (t) => {
  const ctx = await buildTestApp({ workers: 0 });
  t.teardown(ctx.close);
  const { app } = ctx;
  const admin = await registerUser(app, { name: 'Ada Admin' });
  const gh = await createOrgAndWorkspace(app, admin, 'GitHub');
  const bc = await createWorkspace(app, admin, 'Basecamp');
  const analyst = await addOrgMember(app, admin, gh.orgId, 'analyst');
  const viewer = await addOrgMember(app, admin, gh.orgId, 'viewer');

  // Functions: identifiers assigned in order, all fields required, viewers read only.
  const f1 = await call(app, 'POST', '/register/functions', analyst, FN);
  t.equal(f1.statusCode, 201, f1.body);
  const fn1 = f1.json().data.function;
  t.equal(fn1.code, 'F1');
  const f2 = (await call(app, 'POST', '/register/functions', admin, { ...FN, name: 'Collaboration', criticality: 'no', impact: 'low' })).json().data.function;
  t.equal(f2.code, 'F2');
  const missing = await call(app, 'POST', '/register/functions', admin, { ...FN, rtoHours: undefined });
  t.equal(missing.statusCode, 400, 'the recovery time objective is required');
  t.match(JSON.stringify(missing.json().error.details), /rtoHours/);
  t.equal((await call(app, 'POST', '/register/functions', admin, { ...FN, licensedActivity: 'eba_TA:x0' })).statusCode, 400);
  t.equal((await call(app, 'POST', '/register/functions', viewer, FN)).statusCode, 403);
  const changed = await call(app, 'PATCH', `/register/functions/${fn1.id}`, admin, { rtoHours: 2 });
  t.equal(changed.json().data.function.rtoHours, 2);
  t.equal((await call(app, 'PATCH', '/register/functions/nope', admin, { rtoHours: 2 })).statusCode, 404);

  // Contracts: created on the vendor with an id, linked to functions that exist; references unique in the organization.
  const c = await call(app, 'POST', `/workspaces/${gh.workspaceId}/contracts`, analyst, {
    reference: 'CTR-GH-1',
    startDate: '2024-01-01',
    ictServiceType: 'S19',
    functionIds: [fn1.id],
    annualCost: { amount: 120000, currency: 'USD' },
  });
  t.equal(c.statusCode, 201, c.body);
  const contract = c.json().data.contract;
  t.type(contract.id, 'string');
  t.same(c.json().data.vendorProfile.contracts, [contract]);
  const taken = await call(app, 'POST', `/workspaces/${bc.id}/contracts`, admin, { reference: 'CTR-GH-1', startDate: '2024-01-01' });
  t.equal(taken.statusCode, 409);
  t.equal(taken.json().error.code, 'CONTRACT_REFERENCE_TAKEN');
  t.match(taken.json().message, /CTR-GH-1 is already used by GitHub/);
  const viaProfile = await call(app, 'PATCH', `/workspaces/${bc.id}`, admin, {
    vendorProfile: { contracts: [{ reference: 'CTR-GH-1', startDate: '2024-01-01' }] },
  });
  t.equal(viaProfile.statusCode, 409, 'the profile route refuses it too');
  const unknownFn = await call(app, 'POST', `/workspaces/${bc.id}/contracts`, admin, { reference: 'CTR-BC-1', startDate: '2024-01-01', functionIds: ['nope'] });
  t.equal(unknownFn.statusCode, 400);
  t.match(unknownFn.json().error.details[0], /functionIds: nope is not a business function/);
  const sub = await call(app, 'POST', `/workspaces/${bc.id}/contracts`, admin, {
    reference: 'CTR-BC-1',
    startDate: '2024-01-01',
    arrangementType: 'subsequent',
  });
  t.equal(sub.statusCode, 400, 'a subsequent arrangement names its overarching one');
  t.equal((await call(app, 'POST', `/workspaces/${bc.id}/contracts`, viewer, { reference: 'CTR-BC-1', startDate: '2024-01-01' })).statusCode, 403);
  const bcC = await call(app, 'POST', `/workspaces/${bc.id}/contracts`, admin, {
    reference: 'CTR-BC-1',
    startDate: '2024-01-01',
    arrangementType: 'subsequent',
    overarchingReference: 'CTR-GH-1',
    functionIds: [f2.id],
  });
  t.equal(bcC.statusCode, 201, bcC.body);
  const bcId = bcC.json().data.contract.id;

  // Edit: set and clear fields; the reference stays unique.
  const edited = await call(app, 'PATCH', `/workspaces/${bc.id}/contracts/${bcId}`, admin, { governingLaw: 'US', arrangementType: 'standalone' });
  t.equal(edited.statusCode, 200, edited.body);
  t.same(
    [edited.json().data.contract.governingLaw, edited.json().data.contract.overarchingReference],
    ['US', undefined],
    'no longer subsequent: no overarching arrangement',
  );
  t.equal((await call(app, 'PATCH', `/workspaces/${bc.id}/contracts/${bcId}`, admin, { governingLaw: null })).json().data.contract.governingLaw, undefined);
  t.equal((await call(app, 'PATCH', `/workspaces/${bc.id}/contracts/${bcId}`, admin, { reference: 'CTR-GH-1' })).statusCode, 409);
  t.equal((await call(app, 'PATCH', `/workspaces/${bc.id}/contracts/nope`, admin, { governingLaw: 'US' })).statusCode, 404);
  t.equal(
    (await call(app, 'PATCH', `/workspaces/${bc.id}/contracts/${contract.id}`, admin, { governingLaw: 'US' })).statusCode,
    404,
    "another vendor's contract",
  );

  // End: the end date and the reason (B_02.02 c0080, c0090).
  const ended = await call(app, 'POST', `/workspaces/${bc.id}/contracts/${bcId}/end`, admin, { endDate: '2025-06-30', terminationReason: 'expired' });
  t.equal(ended.statusCode, 200, ended.body);
  t.same([ended.json().data.contract.endDate, ended.json().data.contract.terminationReason], ['2025-06-30', 'expired']);
  t.equal(
    (await call(app, 'POST', `/workspaces/${bc.id}/contracts/${bcId}/end`, admin, { endDate: '2023-01-01', terminationReason: 'expired' })).statusCode,
    400,
    'before the start',
  );
  t.equal(
    (await call(app, 'POST', `/workspaces/${bc.id}/contracts/${bcId}/end`, admin, { endDate: '2025-06-30', terminationReason: 'bored' })).statusCode,
    400,
  );

  // A function a contract supports cannot be deleted; the list says which contracts support each function.
  const inUse = await call(app, 'DELETE', `/register/functions/${fn1.id}`, admin);
  t.equal(inUse.statusCode, 409);
  t.equal(inUse.json().error.code, 'FUNCTION_IN_USE');
  t.same(inUse.json().error.details, ['CTR-GH-1 (GitHub)']);
  const fns = (await call(app, 'GET', '/register/functions', viewer)).json().data.functions;
  t.same(
    fns.map((f: { code: string; contracts: { reference: string; vendor: string }[] }) => [f.code, f.contracts.map((x) => `${x.reference} ${x.vendor}`)]),
    [
      ['F1', ['CTR-GH-1 GitHub']],
      ['F2', ['CTR-BC-1 Basecamp']],
    ],
  );
  t.equal((await call(app, 'DELETE', `/workspaces/${bc.id}/contracts/${bcId}`, admin)).statusCode, 200);
  t.equal((await call(app, 'DELETE', `/register/functions/${f2.id}`, admin)).statusCode, 200, 'no longer supported: deleted');
  t.equal((await call(app, 'GET', `/workspaces/${bc.id}/contracts`, viewer)).json().data.contracts.length, 0);

  // Exchange rates into the reporting currency, by date; replacing one is audited with the old value.
  t.equal((await call(app, 'PUT', '/register/fx-rates', analyst, { currency: 'USD', date: '2025-12-31', rate: 0.95 })).statusCode, 200);
  const replaced = await call(app, 'PUT', '/register/fx-rates', admin, { currency: 'USD', date: '2025-12-31', rate: 0.9 });
  t.equal(replaced.json().data.rate.rate, 0.9);
  t.equal((await call(app, 'PUT', '/register/fx-rates', admin, { currency: 'EUR', date: '2025-12-31', rate: 1 })).statusCode, 400, 'not the base currency');
  t.equal((await call(app, 'PUT', '/register/fx-rates', admin, { currency: 'ABC', date: '2025-12-31', rate: 1 })).statusCode, 400);
  t.equal((await call(app, 'PUT', '/register/fx-rates', admin, { currency: 'USD', date: '2025-12-31', rate: 0 })).statusCode, 400);
  t.equal((await call(app, 'PUT', '/register/fx-rates', viewer, { currency: 'USD', date: '2025-12-31', rate: 1 })).statusCode, 403);
  const rates = (await call(app, 'GET', '/register/fx-rates', viewer)).json().data;
  t.same(
    [rates.baseCurrency, rates.rates.map((r: { currency: string; date: string; rate: number }) => [r.currency, r.date, r.rate])],
    ['EUR', [['USD', '2025-12-31', 0.9]]],
  );
  const fx = (await call(app, 'GET', '/register/audit?kind=fx_rate', admin)).json().data.entries;
  t.same(
    fx.map((x: { subject: string; oldValue: string | null; newValue: string | null }) => [x.subject, x.oldValue, x.newValue]),
    [
      ['USD 2025-12-31', '0.95', '0.9'],
      ['USD 2025-12-31', null, '0.95'],
    ],
  );
  t.equal((await call(app, 'DELETE', '/register/fx-rates/USD/2025-12-31', admin)).statusCode, 200);
  t.equal((await call(app, 'DELETE', '/register/fx-rates/USD/2025-12-31', admin)).statusCode, 404);
  const fnAudit = (await call(app, 'GET', '/register/audit?kind=function&limit=100', admin)).json().data.entries;
  t.ok(
    fnAudit.some(
      (x: { subject: string; field: string; oldValue: string; newValue: string }) =>
        x.subject === 'F1' && x.field === 'rtoHours' && x.oldValue === '4' && x.newValue === '2',
    ),
    'a changed function is audited',
  );
  const codes = (await call(app, 'GET', '/register/code-lists', viewer)).json().data;
  t.ok(codes.entityTypes.some((o: { value: string }) => o.value === 'eba_CT:x12'));
  t.ok(codes.licensedActivities.length > 100);
});
