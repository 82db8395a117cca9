import t from 'tap';
import {
  EEA,
  isOnboarding,
  portfolioConcentration,
  vendorImpact,
  type PortfolioFunction,
  type PortfolioVendor,
} from '../../src/compliance/concentration/portfolio.js';
import { nameKey, providerResolver } from '../../src/compliance/concentration/providers.js';
import type { Evidence, FieldSource } from '../../src/domain/profileDrafts.js';
import type { VendorProfile } from '../../src/domain/vendorProfile.js';

// The pure concentration figures (docs/concentration.md): provider keys, the chain, per-provider
// figures, the HHI, third-country exposure, exits, and what a vendor would add.

const TODAY = '2026-06-30';

t.test('provider keys: legal suffixes, punctuation and the alias table make one provider', async (t) => {
  t.equal(nameKey('Amazon Web Services, Inc.'), 'amazon web services');
  t.equal(nameKey('  SAP S.A. '), 'sap');
  t.equal(nameKey('Société Générale S.A.'), 'societe generale');
  t.equal(nameKey('Stripe Payments Europe Limited'), 'stripe payments europe');
  t.equal(nameKey('The Group'), 'group', 'a name is never stripped to nothing');
  const r = providerResolver();
  const aws = [
    'AWS',
    'Amazon Web Services',
    'Amazon Web Services, Inc.',
    'amazon web services EMEA SARL',
    'Amazon Web Services (AWS)',
    'AWS (Amazon Web Services)',
  ];
  for (const n of aws) t.same(r.resolve(n).key, 'amazon web services', n);
  t.equal(r.resolve('AWS').name, 'Amazon Web Services');
  t.equal(r.resolve('Microsoft Azure').key, 'microsoft');
  t.not(r.resolve('Acme Hosting GmbH').key, r.resolve('Acme Cloud GmbH').key, 'unknown names stay apart');
  t.equal(r.resolve('Acme Hosting GmbH').via, 'name');
});

t.test('provider keys: an analyst merges and splits names over the table', async (t) => {
  const r = providerResolver([
    { nameKey: 'acme hosting', action: 'merge', providerKey: 'acme', providerName: 'Acme' },
    { nameKey: 'acme', action: 'merge', providerKey: 'acme group holding', providerName: 'Acme Group Holding' },
    { nameKey: 'heroku', action: 'split', providerKey: 'heroku', providerName: 'Heroku' },
  ]);
  t.same(r.resolve('Acme Hosting Ltd').key, 'acme group holding', 'a merge into a merged name follows it');
  t.same(r.resolve('Heroku, Inc.'), { key: 'heroku', name: 'Heroku', via: 'split' }, 'split off the table entry (Salesforce)');
  t.equal(providerResolver().resolve('Heroku').key, 'salesforce', 'without the split: the table');
  const loop = providerResolver([
    { nameKey: 'a', action: 'merge', providerKey: 'b', providerName: 'B' },
    { nameKey: 'b', action: 'merge', providerKey: 'a', providerName: 'A' },
  ]);
  t.ok(['a', 'b'].includes(loop.resolve('a').key), 'a cycle stops');
});

const ev = (quote: string, i = 0): Evidence => ({
  documentId: `doc${i}`,
  dataSourceId: null,
  chunkId: `chunk${i}`,
  title: 'Subprocessors',
  section: 'List',
  page: null,
  quote,
  link: `/documents/doc${i}#chunk${i}`,
});
const src = (field: string, evidence: Evidence[]): FieldSource =>
  ({ field, value: null, action: 'accepted', draftId: 'd1', evidence, decidedBy: 'u', decidedAt: TODAY }) as unknown as FieldSource;

function vendor(id: string, profile: VendorProfile, sources?: Record<string, FieldSource>): PortfolioVendor {
  return { workspaceId: id, name: profile.legalName ?? id, profile, sources };
}
const contract = (ref: string, functionIds: string[], startDate = '2024-01-01') => ({ reference: ref, startDate, functionIds });

const FNS: PortfolioFunction[] = [
  { id: 'f1', code: 'F1', name: 'Payments', criticality: 'yes' },
  { id: 'f2', code: 'F2', name: 'Lending', criticality: 'yes' },
  { id: 'f3', code: 'F3', name: 'Marketing', criticality: 'no' },
  { id: 'f4', code: 'F4', name: 'Trading', criticality: 'yes' },
];

function portfolio(): PortfolioVendor[] {
  return [
    vendor(
      'w1',
      {
        legalName: 'PayCo SAS',
        country: 'FR',
        contracts: [contract('C1', ['f1'])],
        subcontractors: [
          { name: 'Amazon Web Services, Inc.', country: 'US', role: 'hosting' },
          { name: 'Stripe Payments Europe Limited', country: 'IE' },
        ],
        exitPlan: { exists: true, lastTestedDate: '2025-01-01', alternativeProviders: ['Adyen'] },
      },
      {
        subcontractors: src('subcontractors', [ev('Amazon Web Services, Inc. (United States): hosting', 1), ev('Stripe Payments Europe Limited, Ireland', 2)]),
      },
    ),
    vendor('w2', {
      legalName: 'LendTech GmbH',
      country: 'DE',
      contracts: [contract('C2', ['f2', 'f3'])],
      subcontractors: [{ name: 'AWS', country: 'DE' }, { name: 'Stripe' }],
      exitPlan: { exists: false },
    }),
    // Stripe is a vendor too; its documents name its own subprocessors (rank 3 for PayCo and LendTech).
    vendor(
      'w3',
      {
        legalName: 'Stripe Payments Europe Ltd',
        country: 'IE',
        contracts: [contract('C3', [])],
        subcontractors: [{ name: 'Snowflake Computing', country: 'US' }],
      },
      { subcontractors: src('subcontractors', [ev('Snowflake Computing Inc. processes analytics data in the US', 3)]) },
    ),
    vendor('w4', { legalName: 'Nordic Hosting AS', country: 'NO', contracts: [contract('C4', ['f4'])], subcontractors: [], supportsCriticalFunction: true }),
  ];
}

t.test('the portfolio: providers with the vendors and functions depending on them, directly or through a chain', async (t) => {
  const c = portfolioConcentration({ vendors: portfolio(), functions: FNS }, providerResolver(), TODAY);
  const aws = c.providers.find((p) => p.name === 'Amazon Web Services')!;
  t.ok(aws, 'AWS keyed as one provider');
  t.same(aws.names, ['AWS', 'Amazon Web Services, Inc.']);
  t.same(
    aws.vendors.map((v) => [v.name, v.rank]),
    [
      ['LendTech GmbH', 2],
      ['PayCo SAS', 2],
    ],
  );
  t.same(
    aws.functions.map((f) => f.code),
    ['F1', 'F2', 'F3'],
    'critical functions first',
  );
  t.equal(aws.criticalFunctionCount, 2);
  t.equal(aws.criticalFunctionShare, 2 / 3);
  t.equal(aws.vendorShare, 2 / 4);
  t.same(aws.countries, ['DE', 'US']);
  t.ok(aws.thirdCountry);
  t.same(
    c.providers.slice(0, 3).map((p) => p.key),
    ['snowflake', 'stripe', 'amazon web services'],
    'most depended on first: Snowflake carries as many critical functions as AWS, through Stripe, and one vendor more',
  );

  const snow = c.providers.find((p) => p.name === 'Snowflake')!;
  t.same(snow.vendors.map((v) => [v.name, v.rank]).sort(), [
    ['LendTech GmbH', 3],
    ['PayCo SAS', 3],
    ['Stripe Payments Europe Ltd', 2],
  ]);
  const payco = snow.vendors.find((v) => v.name === 'PayCo SAS')!;
  const path = payco.path.map((id) => c.links.find((l) => l.id === id)!);
  t.same(
    path.map((l) => l.writtenName),
    ['PayCo SAS', 'Stripe Payments Europe Limited', 'Snowflake Computing'],
    'the chain link by link',
  );
  t.same(
    path[2]!.evidence.map((e) => e.quote),
    ['Snowflake Computing Inc. processes analytics data in the US'],
    'a deeper link carries the passage of the document that names it',
  );
  t.same(
    path[1]!.evidence.map((e) => e.chunkId),
    ['chunk2'],
    'each subcontractor its own passage',
  );
  const stripe = c.providers.find((p) => p.key === 'stripe')!;
  t.equal(stripe.directVendorCount, 1);
  t.equal(stripe.vendorCount, 3, 'Stripe itself and the two vendors running on it');
  t.ok(stripe.isVendor);

  t.same(c.totals, { vendors: 4, criticalVendors: 3, functions: 4, criticalFunctions: 3, providers: 6, links: 9, linksWithPassage: 3 });
  t.equal(c.thirdCountry.vendors, 3, 'PayCo, LendTech (through Stripe) and Stripe reach the US; Nordic Hosting does not');
  t.equal(c.thirdCountry.criticalFunctions, 2);
  t.same(c.thirdCountry.countries, [{ country: 'US', providers: 2, vendors: 3 }]);
  t.ok(EEA.has('NO') && !EEA.has('GB') && !EEA.has('CH'));
});

t.test('the HHI: a portfolio on one provider is 10000, on n equal providers 10000/n', async (t) => {
  const one = [1, 2, 3].map((i) => vendor(`w${i}`, { legalName: `V${i}`, subcontractors: [{ name: 'AWS' }] }));
  const c = portfolioConcentration({ vendors: one, functions: [] }, providerResolver(), TODAY);
  // Pairs: V1, V2, V3 (1 each) and AWS (3): shares 1/6, 1/6, 1/6, 3/6.
  t.equal(c.index.vendors.hhi, Math.round(3 * (100 / 6) ** 2 + 50 ** 2));
  t.equal(c.index.vendors.level, 'high');
  const apart = [1, 2, 3, 4, 5].map((i) => vendor(`w${i}`, { legalName: `V${i}`, subcontractors: [] }));
  t.equal(portfolioConcentration({ vendors: apart, functions: [] }, providerResolver(), TODAY).index.vendors.hhi, 2000);
  t.equal(portfolioConcentration({ vendors: [], functions: [] }, providerResolver(), TODAY).index.vendors.hhi, 0);
  t.same(c.index.topProvider, { key: 'amazon web services', name: 'Amazon Web Services', vendorShare: 1, criticalFunctionShare: 0 });
  // Rank 1: three vendors that are one provider (Microsoft under three names) and one other.
  const direct = ['Microsoft Corporation', 'Microsoft Azure', 'MSFT', 'Acme Ltd'].map((n, i) => vendor(`d${i}`, { legalName: n }));
  t.equal(portfolioConcentration({ vendors: direct, functions: [] }, providerResolver(), TODAY).index.direct.hhi, 75 ** 2 + 25 ** 2);
});

t.test('exits: critical functions without an alternative, critical vendors without a tested exit, alternatives on the same provider', async (t) => {
  const vs = portfolio();
  vs[3]!.profile.exitPlan = { exists: true, lastTestedDate: '2025-05-01', alternativeProviders: ['Amazon Web Services'] };
  vs[3]!.profile.subcontractors = [{ name: 'AWS', country: 'IE' }];
  const c = portfolioConcentration({ vendors: vs, functions: FNS }, providerResolver(), TODAY);
  t.same(
    c.exits.criticalFunctionsWithoutAlternative.map((f) => f.code),
    ['F2'],
  );
  t.same(
    c.exits.criticalVendorsWithoutTestedExit.map((v) => v.name),
    ['LendTech GmbH'],
  );
  t.same(c.exits.concentratedAlternatives, [
    { workspaceId: 'w4', vendor: 'Nordic Hosting AS', alternative: 'Amazon Web Services', provider: 'Amazon Web Services' },
  ]);
});

t.test('what a vendor would add: shared providers, newly concentrated functions, the index before and after', async (t) => {
  const vs = portfolio();
  vs.push(
    vendor('w5', {
      legalName: 'TradeCloud Ltd',
      country: 'GB',
      contracts: [contract('C5', ['f4'], '2027-01-01')],
      subcontractors: [
        { name: 'Amazon Web Services EMEA SARL', country: 'LU' },
        { name: 'Tiny Analytics', country: 'JP' },
      ],
    }),
  );
  const i = vendorImpact({ vendors: vs, functions: FNS }, 'w5', providerResolver(), TODAY)!;
  t.equal(i.onboarding, true, 'no contract started yet');
  const aws = i.providers.find((p) => p.key === 'amazon web services')!;
  t.match(aws, { alreadyDependedOn: true, vendorsBefore: 2, vendorsAfter: 3, criticalFunctionsBefore: 2, criticalFunctionsAfter: 3, rank: 2 });
  t.same(
    aws.newlyConcentratedFunctions.map((f) => f.code),
    ['F4'],
    'Trading joins Payments and Lending on AWS',
  );
  t.same(i.newlyConcentratedFunctions, [{ id: 'f4', code: 'F4', name: 'Trading', providers: ['Amazon Web Services'] }]);
  t.equal(i.sharedProviders, 1);
  t.equal(i.providers[0]!.key, 'amazon web services', 'shared providers first');
  // Critical function-provider pairs before: PayCo 1, LendTech 1, Stripe 2, AWS 2, Snowflake 2, Nordic 1 (9);
  // after: AWS 3, TradeCloud 1, Tiny Analytics 1 (12). Two new small providers dilute the index although AWS grows.
  t.same(i.index.criticalFunctions, { before: Math.round((15 / 81) * 10000), after: Math.round((22 / 144) * 10000) });
  t.same(i.newThirdCountries.sort(), ['GB', 'JP']);
  t.equal(vendorImpact({ vendors: vs, functions: FNS }, 'nope', providerResolver(), TODAY), null);
  t.equal(vendorImpact({ vendors: vs, functions: FNS }, 'w1', providerResolver(), TODAY)!.onboarding, false);
});

t.test('onboarding: the inventory lifecycle decides, the contracts when it does not', async (t) => {
  const started = { contracts: [{ startDate: '2026-01-01' }] } as unknown as VendorProfile;
  const none = {} as VendorProfile;
  t.equal(isOnboarding(none, '2026-11-27'), true, 'no contract started, no lifecycle: onboarding');
  t.equal(isOnboarding(started, '2026-11-27'), false, 'a contract started: not onboarding');
  t.equal(isOnboarding(started, '2026-11-27', 'onboarding'), true, 'the lifecycle says onboarding (a renewal being negotiated)');
  t.equal(isOnboarding(none, '2026-11-27', 'exited'), false, 'an exited vendor with no contract is not onboarding');
  t.equal(isOnboarding(none, '2026-11-27', 'exiting'), false, 'nor an exiting one');
  t.equal(isOnboarding(none, '2026-11-27', 'active'), true, 'an active vendor with no contract started still is');
});
