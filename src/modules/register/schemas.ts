import { Type } from 'typebox';
import { TEMPLATES } from '../../compliance/register/taxonomy.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';
import { AuditEntrySchema, EntitySettingsSchema, FunctionInputSchema, FunctionSchema, FxRateInputSchema, FxRateSchema } from '../../domain/register.js';
import { Envelope, ErrorEnvelope, errorResponses, MessageEnvelope } from '../../lib/envelope.js';

/** Request and response schemas of the Register of Information: one named schema per route (routes.ts). */

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const Template = Type.Union([Type.Enum([...TEMPLATES]), Type.Null()]);
const Issue = Type.Object({
  severity: Type.Enum(['error', 'warning']),
  check: Type.Enum(['rule', 'key', 'unique', 'reference', 'register'], {
    description: '`rule`: an EBA validation rule; `key`, `unique`, `reference`: the taxonomy; `register`: the service',
  }),
  rules: Type.Array(Type.String(), { description: 'ids of the EBA rules behind the issue (e.g. v8881_m)' }),
  template: Template,
  column: Type.Union([Type.String(), Type.Null()]),
  field: Type.String({ description: 'where to fix it: entity.<setting>, function:<id>.<field>, fxRate:<currency>, vendorProfile.<path>, contracts' }),
  message: Type.String({ description: 'what to do, in words' }),
});
const Setting = Type.Object({
  key: Type.String(),
  label: Type.String(),
  value: Type.Union([Type.String(), Type.Number(), Type.Null()], { description: 'null: not set' }),
  source: Type.Enum(['stored', 'organization', 'environment', 'default', 'unset']),
  variable: Type.String({ description: 'the environment variable that gives the default' }),
});
const EntityView = Type.Object({ settings: Type.Array(Setting), canEdit: Type.Boolean(), updatedAt: Type.Union([Type.String(), Type.Null()]) });
const Preflight = Type.Object({
  ready: Type.Boolean(),
  errors: Type.Integer(),
  warnings: Type.Integer(),
  entity: Type.Array(Issue),
  functions: Type.Array(Type.Object({ id: Type.String(), code: Type.String(), name: Type.String(), issues: Type.Array(Issue) })),
  vendors: Type.Array(
    Type.Object({
      workspaceId: Type.String(),
      workspaceSlug: Type.String(),
      name: Type.String(),
      included: Type.Boolean(),
      issues: Type.Array(Issue),
      sources: Type.Array(
        Type.Object({ field: Type.String(), path: Type.String(), document: Type.String(), quote: Type.String(), link: Type.String(), action: Type.String() }),
        { description: "Profile values taken from the vendor's documents and where each came from (docs/register-drafting.md)" },
      ),
    }),
  ),
  package: Type.Object(
    {
      vendors: Type.Integer(),
      contracts: Type.Integer(),
      functions: Type.Integer(),
      subcontractors: Type.Integer({ description: 'rows of rank 2 in B_05.02' }),
      rows: Type.Record(Type.String(), Type.Integer()),
    },
    { description: 'what the xBRL-CSV package holds' },
  ),
  rules: Type.Object(
    {
      title: Type.String(),
      ebaVersion: Type.String(),
      repository: Type.String(),
      path: Type.String(),
      commit: Type.String(),
      url: Type.String(),
      total: Type.Integer(),
      active: Type.Integer(),
    },
    { description: 'the EBA validation rules applied, and where they are transcribed from' },
  ),
  settings: Type.Array(Setting, { description: 'the entity settings in force' }),
});

const tags = ['register'];

export const exportRegister = {
  operationId: 'exportRegisterOfInformation',
  tags: ['workspaces'],
  summary:
    'DORA Article 28(3) Register of Information: the XLSX workbook (default; summary sheets and the EBA templates) or the EBA xBRL-CSV report package (format=xbrl-csv)',
  querystring: Type.Object({ format: Type.Enum(['xlsx', 'xbrl-csv'], { default: 'xlsx' }) }, { additionalProperties: false }),
  produces: [XLSX, 'application/zip'],
  response: { 200: Type.Any({ description: 'The workbook, or the report package (zip)' }), 422: ErrorEnvelope, ...errorResponses },
};

export const preflightRegister = {
  operationId: 'checkRegisterOfInformation',
  tags: ['workspaces'],
  summary:
    "Pre-flight check of the xBRL-CSV register: the EBA's active validation rules, the taxonomy's keys and references (blocking) and the values the ITS asks for (warnings)",
  response: { 200: Envelope(Type.Object({ preflight: Preflight })), ...errorResponses },
};

export const getEntity = {
  operationId: 'getRegisterEntity',
  tags,
  summary: "The entity settings of the caller's organization in force, and where each value comes from",
  response: { 200: Envelope(Type.Object({ entity: EntityView })), ...errorResponses },
};

export const putEntity = {
  operationId: 'updateRegisterEntity',
  tags,
  summary: 'Stores entity settings (org_admin); a null value clears the stored one (the default applies again). Changes are audited.',
  body: Type.Partial(EntitySettingsSchema, { additionalProperties: false, minProperties: 1 }),
  response: { 200: Envelope(Type.Object({ entity: EntityView })), ...errorResponses },
};

const FunctionView = Type.Object({
  ...FunctionSchema.properties,
  contracts: Type.Array(
    Type.Object({ workspaceId: Type.String(), vendor: Type.String(), contractId: Type.Union([Type.String(), Type.Null()]), reference: Type.String() }),
    { description: 'the contracts that support the function' },
  ),
});
const FunctionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const listFunctions = {
  operationId: 'listBusinessFunctions',
  tags,
  summary: "The organization's business functions (B_06.01) in creation order, each with the contracts that support it",
  querystring: Type.Object(pageQuery({ defaultLimit: 50 }), { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ functions: Type.Array(FunctionView), pagination: PaginationSchema })), ...errorResponses },
};
export const createFunction = {
  operationId: 'createBusinessFunction',
  tags,
  summary: 'Adds a business function (org_admin, analyst); its identifier (F1, F2, …) is assigned',
  body: FunctionInputSchema,
  response: { 201: Envelope(Type.Object({ function: FunctionSchema })), ...errorResponses },
};
export const updateFunction = {
  operationId: 'updateBusinessFunction',
  tags,
  summary: 'Changes a business function (org_admin, analyst); audited',
  params: FunctionParams,
  body: Type.Partial(FunctionInputSchema, { additionalProperties: false, minProperties: 1 }),
  response: { 200: Envelope(Type.Object({ function: FunctionSchema })), ...errorResponses },
};
export const deleteFunction = {
  operationId: 'deleteBusinessFunction',
  tags,
  summary: 'Deletes a business function no contract supports (409 FUNCTION_IN_USE otherwise)',
  params: FunctionParams,
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const listRates = {
  operationId: 'listExchangeRates',
  tags,
  summary: 'The exchange rates recorded into the reporting currency, by currency, newest date first',
  querystring: Type.Object(pageQuery({ defaultLimit: 50 }), { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ baseCurrency: Type.String(), rates: Type.Array(FxRateSchema), pagination: PaginationSchema })), ...errorResponses },
};
export const putRate = {
  operationId: 'setExchangeRate',
  tags,
  summary: 'Records the rate of a currency into the reporting currency as at a date (org_admin, analyst); replaces the one of that date; audited',
  body: FxRateInputSchema,
  response: { 200: Envelope(Type.Object({ rate: FxRateSchema })), ...errorResponses },
};
export const deleteRate = {
  operationId: 'deleteExchangeRate',
  tags,
  summary: 'Deletes a recorded rate',
  params: Type.Object({
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    date: Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  }),
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const listAudit = {
  operationId: 'listRegisterAudit',
  tags,
  summary: 'Changes of the entity settings, functions and exchange rates: who, when, old and new value; newest first',
  querystring: Type.Object({ ...pageQuery(), kind: Type.Optional(Type.Enum(['entity', 'function', 'fx_rate'])) }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ entries: Type.Array(AuditEntrySchema), pagination: PaginationSchema })), ...errorResponses },
};

const Options = Type.Array(Type.Object({ value: Type.String(), label: Type.String() }));
export const codeLists = {
  operationId: 'getRegisterCodeLists',
  tags,
  summary: 'The EBA closed lists the register forms choose from (types of entity, licensed activities, reasons of termination)',
  response: {
    200: Envelope(
      Type.Object({
        entityTypes: Options,
        licensedActivities: Options,
        terminationReasons: Options,
        defaultLicensedActivity: Type.Union([Type.String(), Type.Null()], { description: 'ROI_LICENSED_ACTIVITY: proposed for a new function' }),
      }),
    ),
    ...errorResponses,
  },
};
