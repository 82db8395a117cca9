import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { AppError } from '../../lib/errors.js';
import type { Metrics, Sample } from './metrics.js';

/**
 * Client of an external evaluation service (a Ragas server), docs/evaluation.md.
 *
 * Request: `POST <RAGAS_URL>` with JSON
 *   { "metrics": ["faithfulness", "answer_relevancy", "context_precision", "context_recall"],
 *     "samples": [{ "user_input", "response", "retrieved_contexts": [...], "reference": string|null }] }
 * (the field names of Ragas' SingleTurnSample), `Authorization: Bearer <RAGAS_API_KEY>` when set.
 * Expected answer: 2xx with JSON { "results": [{ "faithfulness": n|null, "answer_relevancy": n|null,
 *   "context_precision": n|null, "context_recall": n|null }, ...] }, one result per sample in
 * order, every score a number in 0..1 or null (a missing score is null).
 */

export const EXTERNAL_METRICS = ['faithfulness', 'answer_relevancy', 'context_precision', 'context_recall'] as const;
/** Largest response read from the service. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

const Score = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]);
const ExternalResponse = Type.Object({
  results: Type.Array(
    Type.Object({
      faithfulness: Type.Optional(Score),
      answer_relevancy: Type.Optional(Score),
      context_precision: Type.Optional(Score),
      context_recall: Type.Optional(Score),
    }),
  ),
});

export interface ExternalConfig {
  url: string;
  apiKey?: string;
  timeoutMs: number;
}

const failed = (message: string) => new AppError(502, 'EVALUATION_SERVICE_ERROR', message);
const invalid = (problem: string) =>
  new AppError(502, 'EVALUATION_SERVICE_INVALID_RESPONSE', `The external evaluation service returned an invalid response: ${problem}`);

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {});
      throw invalid(`larger than ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Sends the samples to the external service and returns its scores, one per sample. */
export async function evaluateExternally(cfg: ExternalConfig, samples: Sample[], opts: { requestId?: string } = {}): Promise<Metrics[]> {
  const body = JSON.stringify({
    metrics: EXTERNAL_METRICS,
    samples: samples.map((s) => ({ user_input: s.question, response: s.answer, retrieved_contexts: s.contexts, reference: s.groundTruth ?? null })),
  });
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (cfg.apiKey) headers.authorization = `Bearer ${cfg.apiKey}`;
  if (opts.requestId) headers['x-request-id'] = opts.requestId;

  const signal = AbortSignal.timeout(cfg.timeoutMs);
  let text: string;
  let status: number;
  try {
    // No redirects: the API key must reach the configured address only.
    const res = await fetch(cfg.url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    status = res.status;
    text = await readCapped(res);
  } catch (err) {
    if (signal.aborted) {
      throw new AppError(504, 'EVALUATION_SERVICE_TIMEOUT', `The external evaluation service did not answer within ${cfg.timeoutMs} ms`);
    }
    if (err instanceof AppError) throw err;
    throw failed('The external evaluation service could not be reached');
  }
  if (status < 200 || status >= 300) throw failed(`The external evaluation service failed with HTTP ${status}`);

  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('not JSON');
  }
  if (!Value.Check(ExternalResponse, parsed)) {
    const first = [...Value.Errors(ExternalResponse, parsed)][0];
    throw invalid(`${first?.instancePath || '/'} ${first?.message ?? 'does not match the expected shape'}`);
  }
  const results = parsed.results;
  if (results.length !== samples.length) throw invalid(`${results.length} results for ${samples.length} samples`);
  return results.map((r) => ({
    faithfulness: r.faithfulness ?? null,
    answerRelevancy: r.answer_relevancy ?? null,
    contextPrecision: r.context_precision ?? null,
    contextRecall: r.context_recall ?? null,
  }));
}
