import type Anthropic from '@anthropic-ai/sdk';
import { AppError } from '../../lib/errors.js';
import { buildPrompt } from '../prompt.js';
import type { GenerateInput, GenerationResult, Generator } from '../types.js';

/**
 * The `anthropic` generator: the Messages API through the official SDK, streamed or
 * not. Model, token limit, timeout and retries come from the configuration; SDK
 * errors become AppErrors with a stable code and a message that leaks nothing
 * (docs/rag.md, "Generator errors").
 */

export interface AnthropicOptions {
  apiKey: string;
  baseURL?: string;
  model: string;
  maxTokens: number;
  timeoutMs: number;
  maxRetries: number;
}

type Sdk = typeof import('@anthropic-ai/sdk');
/**
 * The SDK is loaded when the first answer is generated, not at start (it is large and
 * most deployments answer with the extractive generator). Its error classes are only
 * needed for errors it threw, so after it was loaded.
 */
let sdk: Sdk | null = null;
let loading: Promise<Sdk> | null = null;
const loadSdk = (): Promise<Sdk> =>
  (loading ??= import('@anthropic-ai/sdk').then(
    (m) => (sdk = m),
    (err) => {
      loading = null;
      throw err;
    },
  ));

/** Thrown when the caller aborted the generation (the client went away). */
export class GenerationAborted extends Error {
  constructor() {
    super('Generation aborted');
    this.name = 'GenerationAborted';
  }
}

export function isAbort(err: unknown, signal?: AbortSignal): boolean {
  return (
    err instanceof GenerationAborted || (!!sdk && err instanceof sdk.APIUserAbortError) || (signal?.aborted === true && (err as Error)?.name === 'AbortError')
  );
}

/** Maps an SDK error to what the API client sees. */
export function generatorError(err: unknown): Error {
  if (err instanceof GenerationAborted) return new GenerationAborted();
  if (!sdk) return err instanceof Error ? err : new Error(String(err));
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, AuthenticationError, PermissionDeniedError, RateLimitError } = sdk;
  if (err instanceof GenerationAborted || err instanceof APIUserAbortError) return new GenerationAborted();
  if (err instanceof APIConnectionTimeoutError) {
    return new AppError(504, 'GENERATOR_TIMEOUT', 'Answer generation timed out: the language model service did not answer in time');
  }
  if (err instanceof APIConnectionError) {
    return new AppError(503, 'GENERATOR_UNAVAILABLE', 'Answer generation failed: the language model service could not be reached');
  }
  if (err instanceof AuthenticationError || err instanceof PermissionDeniedError) {
    return new AppError(502, 'GENERATOR_AUTH_FAILED', 'Answer generation failed: the language model service rejected the configured credentials');
  }
  if (err instanceof RateLimitError || (err instanceof APIError && err.type === 'rate_limit_error')) {
    return new AppError(
      503,
      'GENERATOR_RATE_LIMITED',
      'Answer generation is temporarily unavailable: the language model service is rate limiting requests, please try again later',
    );
  }
  if (err instanceof APIError && (err.type === 'overloaded_error' || err.type === 'api_error' || (err.status ?? 0) >= 500)) {
    return new AppError(
      503,
      'GENERATOR_UNAVAILABLE',
      'Answer generation is temporarily unavailable: the language model service is overloaded or failing, please try again later',
    );
  }
  if (err instanceof APIError) {
    return new AppError(502, 'GENERATOR_ERROR', 'Answer generation failed: the language model service refused the request');
  }
  return err instanceof Error ? err : new Error(String(err));
}

export function anthropicGenerator(opts: AnthropicOptions): Generator {
  let client: Anthropic | null = null;
  const getClient = async () =>
    (client ??= new (await loadSdk()).default({
      apiKey: opts.apiKey,
      ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
      timeout: opts.timeoutMs,
      maxRetries: opts.maxRetries,
    }));
  const params = (input: GenerateInput) => {
    const prompt = buildPrompt(input);
    return { model: opts.model, max_tokens: opts.maxTokens, temperature: 0, system: prompt.system, messages: prompt.messages };
  };

  return {
    id: 'anthropic',
    model: opts.model,
    async generate(input) {
      try {
        const msg = await (await getClient()).messages.create(params(input), { signal: input.signal });
        const text = msg.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
        return {
          text,
          stopReason: msg.stop_reason ?? null,
          model: msg.model,
          usage: { inputTokens: msg.usage.input_tokens, outputTokens: msg.usage.output_tokens },
        };
      } catch (err) {
        throw generatorError(err);
      }
    },
    async *stream(input) {
      let text = '';
      const result: GenerationResult = { text: '', stopReason: null, model: opts.model, usage: { inputTokens: 0, outputTokens: 0 } };
      try {
        const events = await (await getClient()).messages.create({ ...params(input), stream: true }, { signal: input.signal });
        for await (const ev of events) {
          if (ev.type === 'message_start') {
            result.model = ev.message.model;
            result.usage!.inputTokens = ev.message.usage.input_tokens;
          } else if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') {
            text += ev.delta.text;
            yield ev.delta.text;
          } else if (ev.type === 'message_delta') {
            result.stopReason = ev.delta.stop_reason ?? null;
            result.usage!.outputTokens = ev.usage.output_tokens;
          }
        }
      } catch (err) {
        throw generatorError(err);
      }
      if (input.signal?.aborted) throw new GenerationAborted();
      return { ...result, text };
    },
  };
}
