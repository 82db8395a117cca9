import { Type } from 'typebox';
import { PROFILE_DRAFT_STATUSES } from '../../db/schema/profileDrafts.js';
import { DraftFieldSchema, DraftSummarySchema, FieldSourcesSchema } from '../../domain/profileDrafts.js';
import { Envelope, errorResponses } from '../../lib/envelope.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';
import { VendorProfileSchema } from '../../domain/vendorProfile.js';

/** One named schema per route of the register drafts (docs/register-drafting.md). */
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const DraftParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), draftId: Type.String({ minLength: 1, maxLength: 100 }) });

const DraftBase = {
  id: Type.String(),
  workspaceId: Type.String(),
  status: Type.Enum([...PROFILE_DRAFT_STATUSES]),
  extractor: Type.String({ description: '`offline` (rules) or `anthropic`' }),
  summary: Type.Union([DraftSummarySchema, Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  startedAt: Type.Union([Type.String(), Type.Null()]),
  completedAt: Type.Union([Type.String(), Type.Null()]),
};
const DraftListItem = Type.Object(DraftBase);
const Draft = Type.Object({ ...DraftBase, fields: Type.Array(DraftFieldSchema) });

export const startDraft = {
  operationId: 'startProfileDraft',
  tags: ['register'],
  summary: "Draft the vendor profile's register fields from the workspace's documents (a job; 202 with the queued draft; a notification when it ends)",
  params: IdParams,
  response: { 202: Envelope(Type.Object({ draft: DraftListItem })), ...errorResponses },
};

export const listDrafts = {
  operationId: 'listProfileDrafts',
  tags: ['register'],
  summary: "The workspace's register drafts, newest first (without their fields)",
  params: IdParams,
  querystring: Type.Object(pageQuery(), { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ drafts: Type.Array(DraftListItem), pagination: PaginationSchema })), ...errorResponses },
};

export const getDraft = {
  operationId: 'getProfileDraft',
  tags: ['register'],
  summary:
    'One register draft: per field the proposed value, its passages (document, section, page, verbatim quote, link) and confidence; conflicts with every candidate; fields not found; decisions taken',
  params: DraftParams,
  response: { 200: Envelope(Type.Object({ draft: Draft })), ...errorResponses },
};

export const decideDraft = {
  operationId: 'decideProfileDraft',
  tags: ['register'],
  summary: 'Accept, edit or reject fields of a completed draft; accepted and edited values go into the vendor profile with their source (all or nothing)',
  params: DraftParams,
  body: Type.Object(
    {
      decisions: Type.Array(
        Type.Object(
          {
            field: Type.String({ minLength: 1, maxLength: 100 }),
            action: Type.Enum(['accept', 'edit', 'reject']),
            value: Type.Optional(Type.Unknown()),
            candidate: Type.Optional(Type.Integer({ minimum: 0, maximum: 50 })),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 50 },
      ),
      contract: Type.Optional(
        Type.Object(
          {
            startDate: Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
            reference: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })),
          },
          {
            additionalProperties: false,
            description:
              'The contract to create when the vendor has none and a decision records a contract field; the reference defaults to the title of the document the value comes from, made unique',
          },
        ),
      ),
    },
    { additionalProperties: false },
  ),
  response: { 200: Envelope(Type.Object({ draft: Draft, vendorProfile: VendorProfileSchema, vendorProfileSources: FieldSourcesSchema })), ...errorResponses },
};
