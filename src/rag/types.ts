/**
 * Types shared by retrieval, generation and validation of answers.
 */

import type { Source } from '../domain/sources.js';
// RetrievalFilters and SearchInput are retrieval's own types (src/rag/retrieval.ts).
import type { SearchInput } from './retrieval.js';
export type { RetrievalFilters, SearchInput } from './retrieval.js';

/** What the answer service needs from retrieval (`services.retrieval`). */
export interface Retriever {
  search(input: SearchInput): Promise<Source[]>;
}

/** An earlier turn of the conversation, oldest first. */
export interface HistoryTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface GenerateInput {
  question: string;
  sources: Source[];
  history: HistoryTurn[];
  /** Aborts the generation (client went away). */
  signal?: AbortSignal;
}

export interface GenerationResult {
  text: string;
  /** `max_tokens` when the model was cut off. */
  stopReason: string | null;
  model: string | null;
  usage?: { inputTokens: number; outputTokens: number };
}

/**
 * An answer generator. `stream` yields pieces of the answer text in order and
 * returns the complete result; `generate` answers in one piece.
 */
export interface Generator {
  readonly id: 'extractive' | 'anthropic';
  readonly model: string | null;
  generate(input: GenerateInput): Promise<GenerationResult>;
  stream(input: GenerateInput): AsyncGenerator<string, GenerationResult, void>;
}
