import { EmbedderError, type Embedder, type EmbedOptions } from './types.js';

export interface OpenAiEmbedderOptions {
  /** Base URL of an OpenAI-compatible API, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  dimensions: number;
  /** Inputs per request. */
  batchSize?: number;
  timeoutMs?: number;
}

interface EmbeddingsResponse {
  data?: { index: number; embedding: number[] }[];
}

/**
 * The `openai` embedder: any service speaking the OpenAI `POST /embeddings` API
 * (OpenAI, Azure OpenAI, vLLM, Ollama, LiteLLM...). It asks for `dimensions` numbers
 * per vector (models without that parameter must natively produce the schema size)
 * and checks what comes back.
 */
export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  constructor(private readonly opts: OpenAiEmbedderOptions) {
    this.dimensions = opts.dimensions;
    this.id = `openai/${opts.model}/${opts.dimensions}`;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
    const out: number[][] = [];
    const size = this.opts.batchSize ?? 64;
    for (let i = 0; i < texts.length; i += size) {
      out.push(...(await this.request(texts.slice(i, i + size), options.signal)));
    }
    return out;
  }

  private async request(input: string[], signal?: AbortSignal): Promise<number[][]> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/embeddings`;
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 30_000);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: this.opts.model, input: input.map((t) => t || ' '), dimensions: this.dimensions, encoding_format: 'float' }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      throw new EmbedderError(`Embedding service unreachable: ${(err as Error).message}`, true);
    }
    if (!res.ok) {
      const body = (await res.text().catch(() => '')).slice(0, 300);
      const transient = res.status === 429 || res.status >= 500;
      throw new EmbedderError(`Embedding service answered ${res.status}${body ? `: ${body}` : ''}`, transient);
    }
    const json = (await res.json().catch(() => ({}))) as EmbeddingsResponse;
    const data = json.data;
    if (!Array.isArray(data) || data.length !== input.length) {
      throw new EmbedderError(`Embedding service returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${input.length} inputs`, false);
    }
    const vectors = [...data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    for (const v of vectors) {
      if (!Array.isArray(v) || v.length !== this.dimensions || v.some((x) => typeof x !== 'number' || !Number.isFinite(x))) {
        throw new EmbedderError(
          `Embedding service returned a vector of ${Array.isArray(v) ? v.length : 0} numbers; the schema needs ${this.dimensions}`,
          false,
        );
      }
    }
    return vectors.map(normalise);
  }
}

function normalise(v: number[]): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  if (n === 0) return v.map((_, i) => (i === 0 ? 1 : 0));
  n = Math.sqrt(n);
  return v.map((x) => x / n);
}
