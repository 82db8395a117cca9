import { createHash } from 'node:crypto';
import t from 'tap';
import { chunkBlocks } from '../../src/ingest/chunker.js';
import { indexFingerprint } from '../../src/ingest/pipeline.js';

const block = (text: string) => ({ text, headings: ['Article 28: General principles'] });
const item = (letter: string, words: number) => block(`(${letter}) ${Array.from({ length: words }, (_, i) => `word${letter}${i}`).join(' ')};`);
const LEAD =
  '7. Financial entities shall ensure that contractual arrangements on the use of ICT services may be terminated in any of the following circumstances:';

t.test('a chunk that starts inside a list starts with its lead-in', async (t) => {
  const blocks = [
    block('6. A paragraph before the list, a sentence of its own.'),
    block(LEAD),
    ...['a', 'b', 'c', 'd', 'e', 'f'].map((l) => item(l, 30)),
    block('8. The next paragraph ends the list.'),
  ];
  const chunks = chunkBlocks(blocks, { size: 600, overlap: 100 });
  t.ok(chunks.length >= 3, `${chunks.length} chunks`);
  const inList = chunks.slice(1).filter((c) => /^\(\w\) |\n\n\(\w\) /.test(c.content));
  t.ok(inList.length >= 2, 'the list goes on over several chunks');
  for (const c of inList) t.ok(c.content.startsWith(`${LEAD}\n\n`), `chunk ${c.index} starts with the lead-in: ${c.content.slice(0, 60)}`);
  // Each point is in the chunks once as its own text, however many chunks repeat the lead-in.
  for (const l of ['a', 'b', 'c', 'd', 'e', 'f'])
    t.ok(
      chunks.some((c) => c.content.includes(`(${l}) word${l}0`)),
      `(${l}) is in a chunk`,
    );
  const after = chunks.find((c) => c.content.includes('8. The next paragraph'))!;
  const next = chunkBlocks(
    [
      ...blocks,
      ...Array.from({ length: 6 }, (_, i) =>
        block(`Sentence ${i} after the list, long enough to fill a chunk of its own with words words words words words words words words words words.`),
      ),
    ],
    { size: 600, overlap: 100 },
  );
  t.notOk(next.at(-1)!.content.startsWith(LEAD), 'after the list ends, no lead-in is carried');
  t.ok(after, 'the paragraph after the list is kept');
});

t.test('a lead-in longer than a third of a chunk is not carried', async (t) => {
  const long = `${'A very long lead-in sentence '.repeat(10)}as follows:`;
  const chunks = chunkBlocks([block(long), ...['a', 'b', 'c', 'd'].map((l) => item(l, 30))], { size: 600, overlap: 100 });
  t.ok(chunks.length >= 2);
  t.notOk(chunks.slice(1).some((c) => c.content.startsWith(long)));
});

t.test("the chunking is part of a document's index fingerprint", async (t) => {
  // A document indexed with the chunking before (its fingerprint had no version) is indexed
  // again: the DORA corpus at start-up, an MCP resource at its next sync.
  const before = createHash('sha256').update('text').update('|1200|200|local-hash-384').digest('hex');
  t.not(indexFingerprint('text', { size: 1200, overlap: 200 }, 'local-hash-384'), before);
  t.equal(indexFingerprint('text', { size: 1200, overlap: 200 }, 'local-hash-384'), indexFingerprint('text', { size: 1200, overlap: 200 }, 'local-hash-384'));
});
