/**
 * An embedder turns texts into vectors of `dimensions` numbers (L2-normalised, compared
 * by cosine distance). `id` names the model and its version; it is stored with every
 * chunk so that vectors of different embedders are never compared.
 */
export interface Embedder {
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[], opts?: EmbedOptions): Promise<number[][]>;
}

export interface EmbedOptions {
  /** `query` for a question, `document` for a passage (providers that distinguish them). */
  kind?: 'query' | 'document';
  signal?: AbortSignal;
}

/** A failure of an embedding provider; `transient` failures are worth retrying. */
export class EmbedderError extends Error {
  constructor(
    message: string,
    public readonly transient: boolean,
  ) {
    super(message);
    this.name = 'EmbedderError';
  }
}
