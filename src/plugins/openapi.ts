import type { RouteOptions } from 'fastify';
import { ErrorEnvelope } from '../lib/envelope.js';
import { API_PREFIX } from './routeGuards.js';

/** The tags of the document, each with a description (Redocly `tag-description`). */
export const OPENAPI_TAGS = [
  { name: 'health', description: 'Liveness and database reachability' },
  { name: 'auth', description: 'Accounts and sessions (docs/auth.md)' },
  { name: 'compliance', description: 'DORA reference: domains and articles' },
  { name: 'organizations', description: 'Organizations, members, invitations and API keys (docs/organizations-and-workspaces.md, docs/api-keys.md)' },
  { name: 'workspaces', description: 'Vendor workspaces, members and the Register of Information' },
  { name: 'data-sources', description: 'Uploaded vendor documents and their ingestion (docs/data-sources.md)' },
  { name: 'mcp-sources', description: 'MCP servers as document sources (docs/mcp-sources.md)' },
  { name: 'sync', description: 'Sync state of a workspace (docs/sync-status.md)' },
  { name: 'questionnaires', description: 'Vendor questionnaires (docs/questionnaires.md)' },
  { name: 'vendor questionnaires', description: "The vendor's side of a questionnaire, by link token" },
  { name: 'assessments', description: 'DORA gap assessments (docs/assessments.md)' },
  { name: 'register', description: 'Register drafting from documents (docs/register-drafting.md)' },
  {
    name: 'concentration',
    description: 'Concentration risk across the portfolio: providers, chains, figures, what a vendor would add (docs/concentration.md)',
  },
  { name: 'conversations', description: 'Conversations and their messages (docs/conversations.md)' },
  { name: 'rag', description: 'Questions answered from the documents and DORA (docs/rag.md)' },
  { name: 'analytics', description: 'Query log reports and the vendor portfolio (docs/analytics.md)' },
  { name: 'notifications', description: 'In-app notifications (docs/notifications.md)' },
  { name: 'evaluation', description: 'Answer quality metrics (docs/evaluation.md)' },
];

type Schema = { hide?: boolean; body?: unknown; response?: unknown };

/**
 * Shapes each operation of the OpenAPI document (docs/api-conventions.md, "OpenAPI"):
 * - the dashboard's routes (`/`, `/{*}`: static files of the browser app) are left out;
 * - every API operation declares every error status it can answer, in the error envelope:
 *   besides the shared 400/401/403/404/409/429 of its schema, 413 and 415 when it takes a
 *   body (JSON over 1 MiB, another content type), 422 where the service refuses content it
 *   understood (uploads, `Idempotency-Key` reuse), and 503 (the database unreachable).
 */
export function openapiTransform<S extends Schema>({ schema, url, route }: { schema: S; url: string; route: RouteOptions }): { schema: S; url: string } {
  if (!url.startsWith(`${API_PREFIX}/`) && url !== '/health') return { schema: { ...schema, hide: true }, url };
  if (!schema || schema.hide) return { schema, url };
  const cfg = (route.config ?? {}) as { idempotent?: boolean };
  const response: Record<string, unknown> = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
  const add = (code: string) => {
    if (!(code in response)) response[code] = ErrorEnvelope;
  };
  // A NUL in the query string is a 400 on every route, /health included (docs/api-conventions.md).
  add('400');
  if (!url.startsWith(`${API_PREFIX}/`)) return { schema: { ...schema, response }, url };
  for (const code of ['401', '403', '404', '429']) add(code);
  if (schema.body || route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH') {
    add('413');
    add('415');
  }
  if (cfg.idempotent) add('422');
  add('503');
  return { schema: { ...schema, response }, url };
}
