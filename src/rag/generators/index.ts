import type { Config } from '../../config.js';
import type { Generator } from '../types.js';
import { anthropicGenerator } from './anthropic.js';
import { extractiveGenerator } from './extractive.js';

export { GenerationAborted, generatorError, isAbort } from './anthropic.js';

/**
 * The generator the configuration asks for: `anthropic` when RAG_GENERATOR says so or
 * (with `auto`, the default) when ANTHROPIC_API_KEY is set; `extractive` otherwise.
 */
export function createGenerator(config: Config): Generator {
  const g = config.rag;
  const useAnthropic = g.generator === 'anthropic' || (g.generator === 'auto' && !!g.anthropic.apiKey);
  if (useAnthropic) {
    if (!g.anthropic.apiKey) throw new Error('RAG_GENERATOR=anthropic needs ANTHROPIC_API_KEY');
    return anthropicGenerator({
      apiKey: g.anthropic.apiKey,
      baseURL: g.anthropic.baseUrl,
      model: g.anthropic.model,
      maxTokens: g.anthropic.maxTokens,
      timeoutMs: g.anthropic.timeoutMs,
      maxRetries: g.anthropic.maxRetries,
    });
  }
  return extractiveGenerator({ maxSentences: g.extractiveMaxSentences, streamIntervalMs: g.extractiveStreamIntervalMs });
}
