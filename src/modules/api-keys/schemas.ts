import { Type } from 'typebox';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';
import { Envelope, MessageEnvelope, Nullable, errorResponses } from '../../lib/envelope.js';
import { PERMISSION_FLAGS } from '../workspaces/permissions.js';
import { API_KEY_FLAGS } from './service.js';

/** Request and response schemas of organization API keys: one named schema per route (routes.ts). */

const Id = Type.String({ minLength: 1, maxLength: 100 });
const OrgParams = Type.Object({ id: Id });
const Flags = Type.Object(
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, Type.Boolean()])) as Record<(typeof PERMISSION_FLAGS)[number], ReturnType<typeof Type.Boolean>>,
);
const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to tell keys apart (the key itself is shown once)' }),
  workspaces: Type.Array(Type.Object({ id: Type.String(), workspaceId: Type.String(), workspaceName: Type.String() })),
  permissions: Flags,
  status: Type.Enum(['active', 'expired', 'revoked']),
  createdBy: Nullable(Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() })),
  createdAt: Type.String(),
  expiresAt: Type.String(),
  revokedAt: Nullable(Type.String()),
  lastUsedAt: Nullable(Type.String({ description: 'Last request made with the key (recorded at most once a minute)' })),
});

export const createApiKey = {
  operationId: 'createApiKey',
  tags: ['organizations'],
  summary: 'Create an API key for a system (org_admin); the key is in the answer once and never again',
  params: OrgParams,
  body: Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100 }),
      expiresAt: Type.String({ format: 'date-time', description: 'When the key stops working (at most 366 days ahead)' }),
      workspaces: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        minItems: 1,
        maxItems: 100,
        description: 'Workspaces (id or workspaceId) the key may use; each must be one the admin can open',
      }),
      permissions: Type.Object(Object.fromEntries(API_KEY_FLAGS.map((f) => [f, Type.Optional(Type.Boolean())])), {
        additionalProperties: Type.Boolean(),
        description: `Flags the key holds in each of its workspaces: ${API_KEY_FLAGS.join(', ')} (never more than the admin holds)`,
      }),
    },
    { additionalProperties: false },
  ),
  response: {
    201: Envelope(Type.Object({ apiKey: ApiKey, key: Type.String({ description: 'The secret: send it as Authorization: Bearer <key>' }) })),
    ...errorResponses,
  },
};

export const listApiKeys = {
  operationId: 'listApiKeys',
  tags: ['organizations'],
  summary: "The organization's API keys with their last use, newest first (org_admin)",
  params: OrgParams,
  querystring: Type.Object(pageQuery(), { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ apiKeys: Type.Array(ApiKey), pagination: PaginationSchema })), ...errorResponses },
};

export const revokeApiKey = {
  operationId: 'revokeApiKey',
  tags: ['organizations'],
  summary: 'Revoke an API key (org_admin): refused from the next request on, on every instance',
  params: Type.Object({ id: Id, keyId: Id }),
  response: { 200: MessageEnvelope, ...errorResponses },
};
