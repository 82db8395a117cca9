import { Type } from 'typebox';
import { EvidenceSchema } from '../../domain/profileDrafts.js';
import { Envelope, errorResponses, MessageEnvelope } from '../../lib/envelope.js';

/** Request and response schemas of concentration risk (docs/concentration.md): one named schema per route (routes.ts). */

const tags = ['concentration'];
const Share = Type.Number({ minimum: 0, maximum: 1 });
const Index = Type.Object({
  hhi: Type.Integer({ minimum: 0, maximum: 10000, description: 'Herfindahl-Hirschman index over the providers’ shares of the dependencies counted' }),
  level: Type.Enum(['low', 'moderate', 'high'], { description: 'below 1000, 1000-2000, above 2000' }),
  pairs: Type.Integer({ description: 'dependencies counted' }),
});
const Link = Type.Object({
  id: Type.String(),
  workspaceId: Type.String({ description: 'the vendor whose documents (or profile) state the link' }),
  from: Type.String({ description: '`entity` (rank 1) or the provider key the link leaves' }),
  to: Type.String({ description: 'provider key' }),
  writtenName: Type.String({ description: 'the provider as the document writes it' }),
  rank: Type.Integer({ minimum: 1, maximum: 2 }),
  country: Type.Union([Type.String(), Type.Null()]),
  role: Type.Union([Type.String(), Type.Null()]),
  evidence: Type.Array(EvidenceSchema, { description: 'the passages the link came from; empty: entered by hand' }),
});
const FunctionRef = Type.Object({ id: Type.String(), code: Type.String(), name: Type.String() });
const Provider = Type.Object({
  key: Type.String(),
  name: Type.String(),
  names: Type.Array(Type.String(), { description: 'names the documents use' }),
  countries: Type.Array(Type.String()),
  thirdCountry: Type.Boolean({ description: 'a country outside the EEA' }),
  isVendor: Type.Boolean({ description: 'a vendor of the portfolio itself' }),
  vendors: Type.Array(
    Type.Object({
      workspaceId: Type.String(),
      name: Type.String(),
      rank: Type.Integer({ description: '1: the vendor itself; 2: its subcontractor; 3+: through a chain' }),
      critical: Type.Boolean(),
      path: Type.Array(Type.String(), { description: 'link ids from the entity to the provider' }),
    }),
  ),
  vendorCount: Type.Integer(),
  vendorShare: Share,
  directVendorCount: Type.Integer(),
  functions: Type.Array(
    Type.Object({ ...FunctionRef.properties, critical: Type.Boolean(), via: Type.Array(Type.String({ description: 'vendor workspace ids' })) }),
  ),
  criticalFunctionCount: Type.Integer(),
  criticalFunctionShare: Share,
  criticalVendorCount: Type.Integer(),
});
const Portfolio = Type.Object({
  generatedAt: Type.String(),
  provider: Type.Union([Type.Object({ asked: Type.String(), key: Type.String(), name: Type.String(), found: Type.Boolean() }), Type.Null()]),
  totals: Type.Object({
    vendors: Type.Integer(),
    criticalVendors: Type.Integer(),
    functions: Type.Integer(),
    criticalFunctions: Type.Integer(),
    providers: Type.Integer(),
    links: Type.Integer(),
    linksWithPassage: Type.Integer(),
  }),
  index: Type.Object({
    direct: Index,
    vendors: Index,
    criticalFunctions: Index,
    topProvider: Type.Union([Type.Object({ key: Type.String(), name: Type.String(), vendorShare: Share, criticalFunctionShare: Share }), Type.Null()]),
  }),
  thirdCountry: Type.Object({
    vendors: Type.Integer(),
    vendorShare: Share,
    criticalFunctions: Type.Integer(),
    criticalFunctionShare: Share,
    countries: Type.Array(Type.Object({ country: Type.String(), providers: Type.Integer(), vendors: Type.Integer() })),
  }),
  exits: Type.Object({
    criticalFunctionsWithoutAlternative: Type.Array(FunctionRef),
    criticalVendorsWithoutTestedExit: Type.Array(Type.Object({ workspaceId: Type.String(), name: Type.String() })),
    concentratedAlternatives: Type.Array(
      Type.Object({ workspaceId: Type.String(), vendor: Type.String(), alternative: Type.String(), provider: Type.String() }),
    ),
  }),
  providers: Type.Array(Provider),
  more: Type.Integer({ description: 'providers beyond `limit` left out' }),
  links: Type.Array(Link, { description: 'the links on the chains of the providers returned' }),
  vendors: Type.Array(
    Type.Object({
      workspaceId: Type.String(),
      slug: Type.String(),
      name: Type.String(),
      providerKey: Type.String(),
      critical: Type.Boolean(),
      onboarding: Type.Boolean({ description: 'lifecycle onboarding, or (not exiting or exited) no contract started yet' }),
      functionIds: Type.Array(Type.String()),
      thirdCountry: Type.Boolean(),
    }),
  ),
});
const Impact = Type.Object({
  workspaceId: Type.String(),
  name: Type.String(),
  onboarding: Type.Boolean(),
  providers: Type.Array(
    Type.Object({
      key: Type.String(),
      name: Type.String(),
      rank: Type.Integer(),
      thirdCountry: Type.Boolean(),
      vendorsBefore: Type.Integer(),
      vendorsAfter: Type.Integer(),
      criticalFunctionsBefore: Type.Integer(),
      criticalFunctionsAfter: Type.Integer(),
      alreadyDependedOn: Type.Boolean(),
      newlyConcentratedFunctions: Type.Array(FunctionRef),
      path: Type.Array(Type.String()),
    }),
  ),
  sharedProviders: Type.Integer(),
  newlyConcentratedFunctions: Type.Array(Type.Object({ ...FunctionRef.properties, providers: Type.Array(Type.String()) })),
  index: Type.Object({
    vendors: Type.Object({ before: Type.Integer(), after: Type.Integer() }),
    criticalFunctions: Type.Object({ before: Type.Integer(), after: Type.Integer() }),
  }),
  newThirdCountries: Type.Array(Type.String()),
  links: Type.Array(Link),
});
const Alias = Type.Object({
  nameKey: Type.String({ description: 'the normalized name' }),
  name: Type.String(),
  action: Type.Enum(['merge', 'split']),
  providerKey: Type.String(),
  providerName: Type.String(),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});
const Name = Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' });

export const getPortfolio = {
  operationId: 'getPortfolioConcentration',
  tags,
  summary:
    "Concentration risk across the caller's vendors: per provider (rank 1, 2 and deeper) the vendors and functions depending on it, the HHI, third-country exposure, exits; each link with its passage",
  querystring: Type.Object(
    {
      provider: Type.Optional(
        Type.String({ minLength: 1, maxLength: 300, description: 'keep this provider only (any of its names: AWS, Amazon Web Services, Inc.)' }),
      ),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'providers returned, most depended on first' })),
      view: Type.Optional(
        Type.Enum(['full', 'table'], {
          default: 'full',
          description: '`table`: the figures and per provider its counts only (no vendors, functions or links: a provider asked for by name brings them)',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  response: { 200: Envelope(Type.Object({ concentration: Portfolio })), ...errorResponses },
};

export const getVendorImpact = {
  operationId: 'getVendorConcentrationImpact',
  tags,
  summary:
    'What a vendor (typically in onboarding) would add to concentration: providers already depended on, functions newly concentrated, the index before and after',
  params: Type.Object({ workspaceId: Type.String({ minLength: 1, maxLength: 100, description: 'opaque id or slug' }) }),
  response: { 200: Envelope(Type.Object({ impact: Impact })), ...errorResponses },
};

export const listAliases = {
  operationId: 'listProviderAliases',
  tags,
  summary: "The organization's merges and splits of provider names, and the maintained alias table they override",
  response: {
    200: Envelope(
      Type.Object({
        aliases: Type.Object({
          overrides: Type.Array(Alias),
          table: Type.Array(Type.Object({ key: Type.String(), name: Type.String(), aliases: Type.Array(Type.String()) })),
          canEdit: Type.Boolean(),
        }),
      }),
    ),
    ...errorResponses,
  },
};

export const mergeAliases = {
  operationId: 'mergeProviderAliases',
  tags,
  summary: 'Merges provider names into one provider (org_admin, analyst)',
  body: Type.Object({ names: Type.Array(Name, { minItems: 1, maxItems: 50 }), into: Name }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ overrides: Type.Array(Alias) })), ...errorResponses },
};

export const splitAlias = {
  operationId: 'splitProviderAlias',
  tags,
  summary: 'Splits a provider name off the provider it resolves to: it becomes its own provider (org_admin, analyst)',
  body: Type.Object({ name: Name }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ overrides: Type.Array(Alias) })), ...errorResponses },
};

export const deleteAlias = {
  operationId: 'deleteProviderAlias',
  tags,
  summary: "Removes the organization's merge or split of a name: the maintained alias table applies again (org_admin, analyst)",
  querystring: Type.Object({ name: Name }, { additionalProperties: false }),
  response: { 200: MessageEnvelope, ...errorResponses },
};
