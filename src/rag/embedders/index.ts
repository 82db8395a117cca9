import { EMBEDDING_DIMENSIONS } from '../../db/schema/documents.js';
import { LocalHashEmbedder } from './local.js';
import { OpenAiEmbedder } from './openai.js';
import type { Embedder } from './types.js';

export type { Embedder, EmbedOptions } from './types.js';
export { EmbedderError } from './types.js';
export { LocalHashEmbedder } from './local.js';
export { OpenAiEmbedder } from './openai.js';

export const EMBEDDER_KINDS = ['local', 'openai'] as const;
export type EmbedderKind = (typeof EMBEDDER_KINDS)[number];

export interface EmbedderConfig {
  provider: EmbedderKind;
  apiUrl: string;
  apiKey?: string;
  model: string;
}

/** The embedder chosen by configuration; every one produces `EMBEDDING_DIMENSIONS` numbers. */
export function createEmbedder(cfg: EmbedderConfig): Embedder {
  switch (cfg.provider) {
    case 'openai':
      return new OpenAiEmbedder({ baseUrl: cfg.apiUrl, apiKey: cfg.apiKey, model: cfg.model, dimensions: EMBEDDING_DIMENSIONS });
    case 'local':
    default:
      return new LocalHashEmbedder(EMBEDDING_DIMENSIONS);
  }
}
