import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { databaseUnavailable, isDatabaseUnavailable } from '../db/errors.js';
import { AppError } from '../lib/errors.js';

interface ValidationItem {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
  keyword?: string;
}

/** Turns one AJV validation item into `field: problem`. */
function describe(item: ValidationItem, context: string): string {
  let field = (item.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  let problem = item.message ?? 'is invalid';
  if (item.keyword === 'required' && item.params?.missingProperty) {
    field = field ? `${field}.${String(item.params.missingProperty)}` : String(item.params.missingProperty);
    problem = 'is required';
  } else if (item.keyword === 'additionalProperties' && item.params?.additionalProperty) {
    field = field ? `${field}.${String(item.params.additionalProperty)}` : String(item.params.additionalProperty);
    problem = 'is not allowed';
  } else if (item.keyword === 'enum' && Array.isArray(item.params?.allowedValues)) {
    problem = `must be one of: ${(item.params.allowedValues as unknown[]).join(', ')}`;
  }
  return `${field || context}: ${problem}`;
}

/**
 * The one error handler: every error leaves the service in the envelope
 * `{ status: 'error', message, error: { code, details } }`.
 */
export default fp(
  async function errorsPlugin(app: FastifyInstance) {
    app.setErrorHandler((err: FastifyError & { validation?: ValidationItem[]; validationContext?: string }, request, reply) => {
      if (err.validation) {
        const details = [...new Set(err.validation.map((v) => describe(v, err.validationContext ?? 'request')))];
        return reply.status(400).send({
          status: 'error',
          message: `Validation failed: ${details.join('; ')}`,
          error: { code: 'VALIDATION_ERROR', details },
        });
      }
      if (isDatabaseUnavailable(err)) {
        request.log.warn({ code: (err as { code?: string }).code, route: request.routeOptions.url }, 'database unavailable');
        const e = databaseUnavailable();
        return reply
          .status(503)
          .header('Retry-After', '2')
          .send({ status: 'error', message: e.message, error: { code: e.code, details: [] } });
      }
      if (err instanceof AppError) {
        return reply.status(err.statusCode).send({
          status: 'error',
          message: err.message,
          error: { code: err.code, details: err.details ?? [] },
        });
      }
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
      if (status >= 500) {
        request.log.error({ err }, 'request failed');
        return reply.status(status).send({ status: 'error', message: 'Internal server error', error: { code: 'INTERNAL_ERROR', details: [] } });
      }
      // Errors raised by Fastify itself or its plugins (bad JSON, body too large, unsupported media type...).
      const code =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'UNSUPPORTED_MEDIA_TYPE'
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'PAYLOAD_TOO_LARGE'
            : status === 400
              ? 'BAD_REQUEST'
              : (err.code ?? 'ERROR');
      const message = status === 400 ? `Validation failed: ${err.message}` : err.message;
      return reply.status(status).send({ status: 'error', message, error: { code: status === 400 ? 'VALIDATION_ERROR' : code, details: [err.message] } });
    });

    app.setNotFoundHandler((request, reply) => {
      reply.status(404).send({
        status: 'error',
        message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
        error: { code: 'NOT_FOUND', details: [] },
      });
    });
  },
  { name: 'errors' },
);
