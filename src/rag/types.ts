/**
 * Types shared by retrieval, generation and validation of answers.
 */

import type { GapResult } from '../domain/gap.js';
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

/**
 * A judgement question read through the obligation engine (docs/rag.md, "Judgement
 * questions"): the DORA obligation it asks about, the engine's result on the workspace's
 * documents, the verdict, and where the requirement and each quoted passage are among the
 * sources (their `[Source n]`).
 */
export interface Judgement {
  obligation: { id: string; ref: string; title: string; requirement: string; scope: 'all' | 'critical'; elements: { id: string; label: string }[] };
  /** The obligation's text in DORA (reference data), and its source number. */
  doraText: string;
  doraSource: number | null;
  result: GapResult;
  verdict: 'meets' | 'partly' | 'does_not' | 'not_addressed';
  /** Source number of each `result.evidence` passage (null: not found among the passages). */
  evidenceSources: (number | null)[];
  /** The vendor's name, for the answer's wording. */
  vendor: string;
}

export interface GenerateInput {
  question: string;
  sources: Source[];
  history: HistoryTurn[];
  /** A judgement question: the obligation engine's reading, answered as a judgement. */
  judgement?: Judgement;
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
