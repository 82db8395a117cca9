import { createHash } from 'node:crypto';
import type { Embedder } from '../rag/embedders/index.js';
import { CHUNKING_VERSION, chunkBlocks, type ChunkOptions } from './chunker.js';
import type { ParsedDocument } from './types.js';

/** Texts per embedder call. */
const EMBED_BATCH = 64;

export interface IndexedChunk {
  chunkIndex: number;
  section: string;
  page: number | null;
  pageEnd: number | null;
  content: string;
  embedding: number[];
}

/** What the embedder reads for a chunk: its document title and section give it context. */
export function embeddingText(title: string, section: string, content: string): string {
  return [title, section, content].filter(Boolean).join('\n');
}

/**
 * Stages after parsing: sections -> chunks (size/overlap, sections kept) -> embeddings.
 * Embeds in batches and checks `signal` between them so that a stopping worker gives up
 * quickly (the job is then retried).
 */
export async function chunkAndEmbed(
  doc: ParsedDocument,
  title: string,
  opts: ChunkOptions & { embedder: Embedder; signal?: AbortSignal },
): Promise<IndexedChunk[]> {
  const drafts = chunkBlocks(doc.blocks, opts);
  const out: IndexedChunk[] = [];
  for (let i = 0; i < drafts.length; i += EMBED_BATCH) {
    opts.signal?.throwIfAborted();
    const batch = drafts.slice(i, i + EMBED_BATCH);
    const vectors = await opts.embedder.embed(
      batch.map((c) => embeddingText(title, c.section, c.content)),
      { kind: 'document', signal: opts.signal },
    );
    batch.forEach((c, j) =>
      out.push({ chunkIndex: c.index, section: c.section, page: c.page, pageEnd: c.pageEnd, content: c.content, embedding: vectors[j]! }),
    );
  }
  return out;
}

/** Fingerprint of what produced a document's chunks: content, chunking and embedder. */
export function indexFingerprint(content: string | Buffer, opts: ChunkOptions, embedderId: string): string {
  return createHash('sha256').update(content).update(`|${opts.size}|${opts.overlap}|${embedderId}|${CHUNKING_VERSION}`).digest('hex');
}
