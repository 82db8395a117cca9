import { Type } from 'typebox';
import { FieldSourcesSchema } from '../../domain/profileDrafts.js';
import { TERMINATION_REASONS } from '../../domain/registerCodes.js';
import { ContractSchema, VendorProfileSchema } from '../../domain/vendorProfile.js';
import { Envelope, errorResponses, MessageEnvelope } from '../../lib/envelope.js';

/** One named schema per route of a vendor's contracts (docs/register-of-information.md, "Contracts"). */

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const ContractParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), contractId: Type.String({ minLength: 1, maxLength: 64 }) });
const Input = Type.Omit(ContractSchema, ['id']);
const optional = Object.fromEntries(
  Object.entries(Input.properties).map(([k, v]) => [
    k,
    k === 'reference' || k === 'startDate' ? Type.Optional(v as never) : Type.Optional(Type.Union([v as never, Type.Null()])),
  ]),
);
const Result = Envelope(
  Type.Object({
    contract: ContractSchema,
    vendorProfile: VendorProfileSchema,
    vendorProfileSources: FieldSourcesSchema,
  }),
);
const tags = ['register'];

export const listContracts = {
  operationId: 'listContracts',
  tags,
  summary: "The vendor's contractual arrangements",
  params: IdParams,
  response: { 200: Envelope(Type.Object({ contracts: Type.Array(ContractSchema) })), ...errorResponses },
};

export const createContract = {
  operationId: 'createContract',
  tags,
  summary: 'Adds a contractual arrangement; its reference must be unused in the organization (409 CONTRACT_REFERENCE_TAKEN)',
  params: IdParams,
  body: Type.Object(Input.properties, { additionalProperties: false }),
  response: { 201: Result, ...errorResponses },
};

export const updateContract = {
  operationId: 'updateContract',
  tags,
  summary: "Changes a contract's fields; null clears an optional field",
  params: ContractParams,
  body: Type.Object(optional, { additionalProperties: false, minProperties: 1 }),
  response: { 200: Result, ...errorResponses },
};

export const endContract = {
  operationId: 'endContract',
  tags,
  summary: 'Ends a contract: the date it ended (or ends) and why (B_02.02 c0080, c0090)',
  params: ContractParams,
  body: Type.Object(
    {
      endDate: Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
      terminationReason: Type.Enum(Object.keys(TERMINATION_REASONS)),
    },
    { additionalProperties: false },
  ),
  response: { 200: Result, ...errorResponses },
};

export const deleteContract = {
  operationId: 'deleteContract',
  tags,
  summary: 'Deletes a contract recorded by mistake (end a real one instead: it stays in the register)',
  params: ContractParams,
  response: { 200: MessageEnvelope, ...errorResponses },
};
