import { Type } from 'typebox';
import { Envelope } from '../../lib/envelope.js';

/** Request and response schemas of the health check: one named schema per route (routes.ts). */

export const health = {
  operationId: 'getHealth',
  tags: ['health'],
  summary: 'Liveness and database reachability',
  response: {
    200: Envelope(
      Type.Object({
        status: Type.Literal('up'),
        timestamp: Type.String(),
        uptime: Type.Number(),
        database: Type.String(),
        queryLog: Type.Optional(
          Type.Object(
            { pending: Type.Integer(), written: Type.Integer(), dropped: Type.Integer(), retries: Type.Integer() },
            {
              description: 'Query-log rows of this process since it started: waiting to be written, written, dropped, batches tried again (docs/analytics.md)',
            },
          ),
        ),
      }),
    ),
    503: Type.Object({
      status: Type.Literal('error'),
      message: Type.String(),
      error: Type.Object({ code: Type.String(), details: Type.Array(Type.String()) }),
    }),
  },
};
