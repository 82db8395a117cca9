import type { FastifyRequest } from 'fastify';

/**
 * Secrets that travel in URLs (vendor questionnaire links carry their token in the
 * path) are masked before a URL is logged.
 */
const PATH_SECRETS = /(\/vendor-questionnaires\/)[^/?#]+/g;
const QUERY_SECRETS = /([?&](?:token)=)[^&#]+/gi;

export function redactUrl(url: string): string {
  return url.replace(PATH_SECRETS, '$1[redacted]').replace(QUERY_SECRETS, '$1[redacted]');
}

/** Fastify's request log serializer, with the URL redacted. */
export function requestSerializer(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: req.headers?.['accept-version'] as string | undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
