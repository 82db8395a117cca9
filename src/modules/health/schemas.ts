import { Type } from 'typebox';
import { Envelope } from '../../lib/envelope.js';

/** Request and response schemas of the health check: one named schema per route (routes.ts). */

export const health = {
  tags: ['health'],
  summary: 'Liveness and database reachability',
  response: {
    200: Envelope(Type.Object({ status: Type.Literal('up'), timestamp: Type.String(), uptime: Type.Number(), database: Type.String() })),
    503: Type.Object({
      status: Type.Literal('error'),
      message: Type.String(),
      error: Type.Object({ code: Type.String(), details: Type.Array(Type.String()) }),
    }),
  },
};
