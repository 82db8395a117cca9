import { stemmer } from 'stemmer';
import stopword from 'stopword';
import type { Embedder } from './types.js';

const STOP = new Set(stopword.eng);

/** 32-bit FNV-1a of a string with a seed. */
function fnv1a(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Lower-case, accent-free word tokens. */
function tokens(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+(?:[.'][\p{L}\p{N}]+)*/gu) ?? []
  );
}

/**
 * The `local` embedder: deterministic feature hashing, no network, no model files.
 *
 * Each text becomes a bag of features: Porter stems of its content words (stop words
 * removed), pairs of consecutive stems, and character 4-grams of each stem (so that
 * `subprocessor` and `sub-processors` share features). Every feature is hashed to one
 * of `dimensions` buckets with a hashed sign (the "hashing trick"), weighted by
 * 1 + ln(tf), and the vector is L2-normalised. Similar wording gives a high cosine
 * similarity; it knows no synonyms. Same input, same vector, on every machine.
 */
export class LocalHashEmbedder implements Embedder {
  readonly id: string;
  constructor(readonly dimensions: number) {
    this.id = `local-hash-v1/${dimensions}`;
  }

  embedOne(text: string): number[] {
    const counts = new Map<string, number>();
    const add = (f: string, w: number) => counts.set(f, (counts.get(f) ?? 0) + w);
    let prev: string | null = null;
    for (const tok of tokens(text)) {
      if (STOP.has(tok) || (tok.length < 2 && !/\d/.test(tok))) {
        prev = null;
        continue;
      }
      const stem = /^\p{N}/u.test(tok) ? tok : stemmer(tok);
      add(`w:${stem}`, 1);
      if (prev) add(`b:${prev} ${stem}`, 0.5);
      prev = stem;
      const padded = `^${stem}$`;
      if (padded.length > 5) {
        const grams = padded.length - 3;
        for (let i = 0; i < grams; i++) add(`c:${padded.slice(i, i + 4)}`, 0.6 / grams);
      }
    }
    const v = new Array<number>(this.dimensions).fill(0);
    for (const [f, tf] of counts) {
      const h = fnv1a(f, 0);
      const sign = fnv1a(f, 0x9e3779b9) & 1 ? 1 : -1;
      const weight = f.startsWith('c:') ? tf : 1 + Math.log(tf);
      v[h % this.dimensions] += sign * weight;
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    if (norm === 0) {
      // An empty text still needs a valid direction: pgvector's cosine distance of a
      // zero vector is NaN. A fixed unit vector is far from every real text.
      v[0] = 1;
      return v;
    }
    norm = Math.sqrt(norm);
    return v.map((x) => x / norm);
  }

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.embedOne(t));
  }
}
