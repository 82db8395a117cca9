import { Type } from 'typebox';
import { TEMPLATES } from '../../compliance/register/xbrl.js';
import { Envelope, ErrorEnvelope, errorResponses } from '../../lib/envelope.js';

/** Request and response schemas of the Register of Information export and pre-flight: one named schema per route (routes.ts). */

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const Issue = Type.Object({
  severity: Type.Enum(['error', 'warning']),
  template: Type.Union([Type.Enum([...TEMPLATES]), Type.Null()]),
  column: Type.Union([Type.String(), Type.Null()]),
  field: Type.String(),
  message: Type.String(),
});
const Preflight = Type.Object({
  ready: Type.Boolean(),
  errors: Type.Integer(),
  warnings: Type.Integer(),
  entity: Type.Array(Issue),
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
  settings: Type.Array(
    Type.Object({
      variable: Type.String({ description: 'environment variable of the service that sets it' }),
      label: Type.String(),
      value: Type.Union([Type.String(), Type.Null()], { description: 'null: not configured' }),
      isDefault: Type.Boolean({ description: 'the value is the built-in default' }),
    }),
    { description: 'the entity settings in force (read-only: set by the service configuration)' },
  ),
});

export const exportRegister = {
  operationId: 'exportRegisterOfInformation',
  tags: ['workspaces'],
  summary: 'DORA Article 28(3) Register of Information: XLSX workbook (default) or the EBA xBRL-CSV report package (format=xbrl-csv)',
  querystring: Type.Object({ format: Type.Enum(['xlsx', 'xbrl-csv'], { default: 'xlsx' }) }, { additionalProperties: false }),
  produces: [XLSX, 'application/zip'],
  response: { 200: Type.Any({ description: 'The workbook, or the report package (zip)' }), 422: ErrorEnvelope, ...errorResponses },
};

export const preflightRegister = {
  operationId: 'checkRegisterOfInformation',
  tags: ['workspaces'],
  summary: 'Pre-flight check of the xBRL-CSV register: empty or duplicate keys, broken references (errors) and missing values (warnings), per vendor',
  response: { 200: Envelope(Type.Object({ preflight: Preflight })), ...errorResponses },
};
