import { Type, type Static } from 'typebox';
import { CRITICALITY, ENTITY_TYPES, FUNCTION_IMPACT, LICENSED_ACTIVITIES } from './registerCodes.js';
import { CountrySchema, LeiSchema } from './vendorProfile.js';

export * from './registerCodes.js';

/**
 * The Register of Information's own records (docs/register-of-information.md): the entity
 * settings of an organization, its business functions (B_06.01), the exchange rates the
 * analyst records, and the closed lists of the EBA DORA 4.0 taxonomy they draw from.
 */

const DateSchema = Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const CurrencySchema = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' });

/**
 * The entity settings an organization stores (PUT /register/entity). Every field may be null:
 * null (or absent) falls back to the organization's own LEI, country and the service's ROI_*
 * environment variables.
 */
export const EntitySettingsSchema = Type.Object(
  {
    name: Type.Union([Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' }), Type.Null()]),
    lei: Type.Union([LeiSchema, Type.Null()]),
    country: Type.Union([CountrySchema, Type.Null()]),
    entityType: Type.Union([Type.Enum(Object.keys(ENTITY_TYPES)), Type.Null()]),
    competentAuthority: Type.Union([Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }), Type.Null()]),
    currency: Type.Union([CurrencySchema, Type.Null()]),
    totalAssets: Type.Union([Type.Number({ minimum: 0, maximum: 1e16 }), Type.Null()]),
    referenceDate: Type.Union([DateSchema, Type.Null()]),
  },
  { additionalProperties: false },
);
export type EntitySettings = Static<typeof EntitySettingsSchema>;
export const ENTITY_SETTING_KEYS = Object.keys(EntitySettingsSchema.properties) as (keyof EntitySettings)[];

/** A business function of the entity (B_06.01), as created or replaced (POST, PATCH /register/functions). */
export const FunctionInputSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' }),
    licensedActivity: Type.Enum(Object.keys(LICENSED_ACTIVITIES)),
    criticality: Type.Enum([...CRITICALITY]),
    reasons: Type.Optional(Type.Union([Type.String({ maxLength: 300 }), Type.Null()])),
    lastAssessmentDate: DateSchema,
    rtoHours: Type.Integer({ minimum: 0, maximum: 87_600, description: 'Recovery time objective, hours' }),
    rpoHours: Type.Integer({ minimum: 0, maximum: 87_600, description: 'Recovery point objective, hours' }),
    impact: Type.Enum([...FUNCTION_IMPACT]),
  },
  { additionalProperties: false },
);
export type FunctionInput = Static<typeof FunctionInputSchema>;

export const FunctionSchema = Type.Object({
  id: Type.String(),
  /** The function identifier reported in B_06.01 c0010 and B_02.02 c0050 (`F1`, `F2`, …; assigned once). */
  code: Type.String(),
  ...FunctionInputSchema.properties,
  reasons: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type BusinessFunction = Static<typeof FunctionSchema>;

/** An exchange rate the analyst records: 1 unit of `currency` = `rate` units of the base currency, as at `date`. */
export const FxRateInputSchema = Type.Object(
  {
    currency: CurrencySchema,
    date: DateSchema,
    rate: Type.Number({ minimum: 1e-9, maximum: 1e9, description: 'Units of the currency per unit of the base currency (more than 0)' }),
  },
  { additionalProperties: false },
);
export const FxRateSchema = Type.Object({
  baseCurrency: Type.String(),
  currency: Type.String(),
  date: Type.String(),
  rate: Type.Number(),
  updatedAt: Type.String(),
});
export type FxRate = Static<typeof FxRateSchema>;

/** One change of the register's own records: who, when, old and new value. */
export const AuditEntrySchema = Type.Object({
  id: Type.String(),
  kind: Type.Enum(['entity', 'function', 'fx_rate']),
  subject: Type.String({ description: 'what changed: the setting, the function identifier, or `USD 2025-12-31`' }),
  field: Type.String(),
  oldValue: Type.Union([Type.String(), Type.Null()]),
  newValue: Type.Union([Type.String(), Type.Null()]),
  changedBy: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
  changedAt: Type.String(),
});
export type AuditEntry = Static<typeof AuditEntrySchema>;
