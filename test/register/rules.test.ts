import t from 'tap';
import { compileRule, holds } from '../../src/compliance/register/dpmxl.js';
import { checkKeysAndReferences, checkRules, EBA_RULES, RULES_SOURCE } from '../../src/compliance/register/ebaRules.js';
import { preflight } from '../../src/compliance/register/preflight.js';
import type { RegisterEntity, RegisterFunction, RegisterInput, RegisterVendor } from '../../src/compliance/register/types.js';
import type { VendorProfile } from '../../src/domain/vendorProfile.js';
import { makeLei } from '../helpers/workspaces.js';

// The EBA's validation rules of the DORA register, kept as data (src/compliance/register/ebaRules.json)
// and evaluated by a small DPM-XL reader, and the pre-flight built on them: it says "ready" only
// when the tables it would file pass every active rule and the taxonomy's keys and references.

const ENTITY: RegisterEntity = {
  name: 'Acme Bank AG',
  lei: makeLei('5299000DORABANK001'),
  country: 'DE',
  type: 'eba_CT:x12',
  competentAuthority: 'BaFin',
  currency: 'EUR',
  scope: 'CON',
  referenceDate: '2025-12-31',
  totalAssets: 1e9,
};
const F1: RegisterFunction = {
  id: 'fn-1',
  code: 'F1',
  name: 'Payments',
  licensedActivity: 'eba_TA:x162',
  criticality: 'yes',
  reasons: null,
  lastAssessmentDate: '2025-06-30',
  rtoHours: 4,
  rpoHours: 1,
  impact: 'high',
};
const vendor = (id: string, profile: VendorProfile): RegisterVendor => ({
  workspaceId: id,
  workspaceSlug: id,
  name: id,
  profile,
  assessment: null,
  questionnaire: null,
});
const input = (vendors: RegisterVendor[], over: Partial<RegisterInput> = {}): RegisterInput => ({
  entity: ENTITY,
  vendors,
  functions: [F1],
  rates: [],
  reportDate: '2026-01-15',
  ...over,
});
const GH_LEI = makeLei('5493001GITHUB00001');
const complete: VendorProfile = {
  legalName: 'GitHub, Inc.',
  identifier: { type: 'LEI', value: GH_LEI },
  country: 'US',
  ictServiceType: 'S19',
  criticalityTier: 'critical',
  substitutability: 'medium_complexity',
  exitPlan: { exists: true, alternativeProvidersIdentified: true },
  lastAuditDate: '2025-09-30',
  contracts: [
    {
      id: 'c1',
      reference: 'CTR-1',
      startDate: '2024-01-01',
      annualCost: { amount: 1000, currency: 'EUR' },
      functionIds: ['fn-1'],
      serviceLocations: ['US'],
      storesData: false,
      processesData: false,
      governingLaw: 'IE',
      noticePeriodDaysEntity: 30,
      noticePeriodDaysProvider: 30,
    },
  ],
};
const issuesOf = (r: ReturnType<typeof preflight>) => [...r.entity, ...r.functions.flatMap((f) => f.issues), ...r.vendors.flatMap((v) => v.issues)];

t.test('the rules as data: 63 rules, 55 active, the 8 the EBA deactivated, each read by the evaluator', async (t) => {
  t.equal(EBA_RULES.length, 63);
  t.same(
    EBA_RULES.filter((r) => !r.active)
      .map((r) => r.id)
      .sort(),
    ['e23681_e', 'v8816_m', 'v8817_m', 'v8818_m', 'v8821_m', 'v8823_m', 'v8824_m', 'v8887_m'],
  );
  t.same([RULES_SOURCE.total, RULES_SOURCE.active, RULES_SOURCE.commit], [63, 55, 'cb092b0ae406ffea931258d6962ce192444d93ed']);
  for (const r of EBA_RULES) t.equal(r.compiled.table, r.template, `${r.id} applies to ${r.template}`);
  t.match(EBA_RULES.find((r) => r.id === 'v8881_m')!.expression, /then \( \( not \( isnull \(\{c0080\}\) \) \)\) endif$/, 'verbatim DPM-XL');
});

t.test('the DPM-XL reader', async (t) => {
  const cols = ['c0010', 'c0020', 'c0030'];
  const rule = (e: string) => compileRule(e);
  const existence = rule('with {tB_99.99, default: null, interval: false}: not ( isnull ({(c0010, c0020)}) )');
  t.equal(holds(existence, { c0010: 'a', c0020: 'b' }, cols), true);
  t.equal(holds(existence, { c0010: 'a', c0020: '' }, cols), false, 'every selected column must be there');
  const all = rule('with {tB_99.99, default: null, interval: false}: not ( isnull ({c*}) )');
  t.equal(holds(all, { c0010: 'a', c0020: 'b', c0030: '' }, cols), false);
  const range = rule('with {tB_99.99, default: null, interval: false}: not ( isnull ({c0020-0030}) )');
  t.equal(holds(range, { c0010: '', c0020: 'b', c0030: 'c' }, cols), true);
  const cond = rule(
    'with {tB_99.99, default: null, interval: false}: if ( not ( isnull ({c0010}) ) ) or not (( isnull ({c0020}) )) then ( ( not ( isnull ({c0030}) ) )) endif',
  );
  t.equal(holds(cond, { c0010: '', c0020: '', c0030: '' }, cols), true, 'an empty row: the condition is false, the rule holds');
  t.equal(holds(cond, { c0010: '', c0020: 'x', c0030: '' }, cols), false);
  t.equal(holds(cond, { c0010: '', c0020: 'x', c0030: 'y' }, cols), true);
  const item = rule(
    'with {tB_99.99, default: 0, interval: false}: if({c0010} != [eba_CT:x318] and {c0010} != [eba_CT:x317]) then (not (isnull ({c0020}))) endif',
  );
  t.equal(holds(item, { c0010: 'eba_CT:x12', c0020: '' }, cols), false, 'default 0 does not make isnull vacuous');
  t.equal(holds(item, { c0010: 'eba_CT:x318', c0020: '' }, cols), true);
  t.equal(holds(rule('with {tB_99.99, default: null, interval: false}: {c0010} >= 0'), { c0010: '-5' }, cols), false);
  t.equal(holds(rule('with {tB_99.99, default: null, interval: false}: {c0010} >= 0'), { c0010: '' }, cols), true, 'null compares to null: holds');
  t.equal(holds(rule('match({tB_99.99, c0010}, "^[A-Z0-9]{18}[0-9]{2}$")'), { c0010: 'ABC' }, cols), false);
  t.equal(holds(rule('match({tB_99.99, c0010}, "^[A-Z0-9]{18}[0-9]{2}$")'), { c0010: GH_LEI }, cols), true);
  const inSet = rule('with {tB_99.99, default: 0, interval: false}: if ({c0010} = [eba_CT:x212]) then ({c0020} in {[eba_qCO:qx2000], [eba_qCO:qx2002]}) endif');
  t.equal(holds(inSet, { c0010: 'eba_CT:x212', c0020: 'eba_qCO:qx2004' }, cols), false);
  t.equal(holds(inSet, { c0010: 'eba_CT:x212', c0020: 'eba_qCO:qx2000' }, cols), true);
  t.throws(() => rule('with {tB_99.99, default: null}: not ( isnull ({c0010} )'), 'an unreadable rule fails at start');
});

t.test('a complete register is ready, and its tables pass every active rule, key and reference', async (t) => {
  const r = preflight(input([vendor('GitHub', complete)]));
  t.same(
    issuesOf(r).filter((i) => i.severity === 'error'),
    [],
  );
  t.equal(r.ready, true);
  t.same(
    [...checkRules(r.tables.rows), ...checkKeysAndReferences(r.tables.rows)].filter((f) => f.active),
    [],
  );
});

t.test('the case of the issue: a contract, an LEI, a country and a service type are not enough, and the pre-flight says what is missing', async (t) => {
  const thin: VendorProfile = {
    identifier: { type: 'LEI', value: GH_LEI },
    country: 'US',
    ictServiceType: 'S19',
    contracts: [{ id: 'c1', reference: 'CTR-1', startDate: '2024-01-01' }],
  };
  const r = preflight(input([vendor('GitHub', thin)], { functions: [] }));
  t.equal(r.ready, false);
  const errors = issuesOf(r).filter((i) => i.severity === 'error');
  const messages = errors.map((i) => i.message);
  t.same(
    [...new Set(errors.flatMap((i) => i.rules))].sort(),
    ['e23674_e', 'e23680_e', 'e23792_e', 'v8851_m', 'v8852_m', 'v8866_m'],
    'the EBA rules that would fail',
  );
  t.ok(messages.includes('Link contract CTR-1 of GitHub to the business function(s) it supports'), messages.join('\n'));
  t.ok(messages.includes('Enter the annual cost of contract CTR-1 of GitHub'));
  t.ok(messages.includes("Enter GitHub's legal name on the vendor profile"));
  t.ok(messages.includes('Record the countries where the service of contract CTR-1 of GitHub is provided'));
  t.ok(messages.includes('Record where the data of contract CTR-1 of GitHub is stored, or that the service stores no data'));
  t.ok(messages.includes('Record where the data of contract CTR-1 of GitHub is processed, or that the service processes no data'));
  const keyIssue = errors.find((i) => i.message.startsWith('Record the countries'))!;
  t.same([keyIssue.check, keyIssue.template, keyIssue.column], ['key', 'B_02.02', 'c0130'], 'a key of the taxonomy, with the cell as detail');
});

t.test('what the pre-flight blocks, in words', async (t) => {
  const c = complete.contracts![0]!;
  // Two vendors with one identification code and one contract reference.
  const dup = preflight(input([vendor('GitHub', complete), vendor('Basecamp', { ...complete, legalName: '37signals LLC', contracts: [{ ...c, id: 'c2' }] })]));
  const dupMessages = issuesOf(dup).map((i) => i.message);
  t.ok(
    dupMessages.some((m) => /Contract reference CTR-1 is used more than once \(GitHub, Basecamp\): give each contract its own reference/.test(m)),
    dupMessages.join('\n'),
  );
  t.ok(dupMessages.includes(`Identification code ${GH_LEI} is given to two providers (GitHub, Basecamp): correct it on the vendor profile`));
  // A critical function no contract supports.
  const lonely = preflight(input([vendor('GitHub', { ...complete, contracts: [{ ...c, functionIds: [] }] })]));
  t.ok(lonely.functions[0]!.issues.some((i) => i.severity === 'error' && /Link the contracts that support function F1 \(Payments\) to it/.test(i.message)));
  // No vendor at all.
  const none = preflight(input([vendor('GitHub', { ...complete, contracts: [] })], { functions: [] }));
  t.equal(none.ready, false);
  t.match(none.entity.find((i) => i.field === 'contracts')!.message, /a package without an ICT third-party service provider cannot be filed/);
  // A subcontractor with an identifier but no country: B_05.01 c0080 (e23674_e).
  const sub = preflight(
    input([vendor('GitHub', { ...complete, subcontractors: [{ name: 'Hetzner', identifier: { type: 'LEI', value: makeLei('5299000HETZNER0001') } }] })]),
  );
  const subIssue = issuesOf(sub).find((i) => i.field === 'vendorProfile.subcontractors.0.country')!;
  t.same([subIssue.severity, subIssue.message], ['error', 'Set the country of Hetzner, subcontractor of GitHub, on the vendor profile']);
  // A rule the EBA deactivated is not applied: v8887_m (B_07.01 c0090, possibility of reintegration) fails on these tables, and nothing says so.
  const r = preflight(input([vendor('GitHub', complete)]));
  t.ok(
    checkRules(r.tables.rows).some((f) => f.rule === 'v8887_m' && !f.active),
    'the deactivated rule fails on the tables',
  );
  t.notOk(
    issuesOf(r).some((i) => i.rules.includes('v8887_m')),
    'and is no issue',
  );
  t.equal(r.ready, true);
});

t.test('ready never disagrees with the checks: random registers', async (t) => {
  // A deterministic generator: each register leaves out a random subset of what a package needs.
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const drop = <T extends object>(o: T, keys: (keyof T)[]) => {
    const out = { ...o };
    for (const k of keys) if (rnd() < 0.15) delete out[k];
    return out;
  };
  let ready = 0;
  for (let n = 0; n < 200; n++) {
    const contract = drop({ ...complete.contracts![0]! }, ['annualCost', 'functionIds', 'serviceLocations', 'storesData', 'processesData', 'ictServiceType']);
    const profile = drop({ ...complete, contracts: [contract] }, [
      'legalName',
      'identifier',
      'country',
      'ictServiceType',
      'substitutability',
      'exitPlan',
      'lastAuditDate',
    ]);
    const entity = drop({ ...ENTITY }, ['lei', 'country', 'type', 'competentAuthority', 'totalAssets']);
    const r = preflight(input([vendor('GitHub', profile)], { entity: entity as RegisterEntity }));
    const failing = [...checkRules(r.tables.rows), ...checkKeysAndReferences(r.tables.rows)].filter((f) => f.active);
    if (r.ready) ready++;
    if (r.ready && failing.length) t.fail(`ready with ${failing.map((f) => f.rule ?? f.check).join(', ')}`);
    if (!r.ready && !failing.length && !issuesOf(r).some((i) => i.check === 'register' && i.severity === 'error')) t.fail('not ready without a reason');
  }
  t.ok(ready > 5 && ready < 195, `${ready} of 200 registers ready`);
});
