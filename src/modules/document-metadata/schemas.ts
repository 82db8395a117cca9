import { Type } from 'typebox';
import { DOCUMENT_TYPES } from '../../domain/documentMetadata.js';
import { Envelope, errorResponses, Nullable } from '../../lib/envelope.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';

const tags = ['data-sources'];
const DateText = Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const DocType = Type.Enum([...DOCUMENT_TYPES], { description: 'contract, dpa, sla, soc_report, policy, certificate or other' });
const MetadataView = Type.Object({
  documentId: Type.String(),
  title: Type.String(),
  type: Nullable(DocType),
  effectiveDate: Nullable(Type.String()),
  expiryDate: Nullable(Type.String()),
  version: Nullable(Type.String()),
  expired: Type.Boolean(),
  editedFields: Type.Array(Type.String(), { description: 'Fields set by an analyst; the others are proposed from the text' }),
});

export const ListDocumentMetadata = {
  operationId: 'listDocumentMetadata',
  tags,
  summary: "The workspace's documents with their type, effective date, expiry and version",
  querystring: Type.Object(
    {
      ...pageQuery({ defaultLimit: 100 }),
      type: Type.Optional(DocType),
      expired: Type.Optional(Type.Boolean({ description: 'true: past the expiry date; false: not expired' })),
      expiringWithinDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650, description: 'Expiry between today and today + N days' })),
    },
    { additionalProperties: false },
  ),
  response: { 200: Envelope(Type.Object({ documents: Type.Array(MetadataView), pagination: PaginationSchema })), ...errorResponses },
};

export const UpdateDocumentMetadata = {
  operationId: 'updateDocumentMetadata',
  tags,
  summary: "Sets a document's type, effective date, expiry or version (null clears one); a later sync keeps what is set here",
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
  body: Type.Object(
    {
      type: Type.Optional(Nullable(DocType)),
      effectiveDate: Type.Optional(Nullable(DateText)),
      expiryDate: Type.Optional(Nullable(DateText)),
      version: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 40, pattern: '\\S' }))),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  response: { 200: Envelope(Type.Object({ document: MetadataView })), ...errorResponses },
};
