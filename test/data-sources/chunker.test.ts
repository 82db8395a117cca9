import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { blocksFromChunks, chunkBlocks } from '../../src/ingest/chunker.js';
import { parseFile } from '../../src/ingest/parse.js';
import { VENDOR_DOCS } from '../helpers/assessments.js';
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

t.test('the text of a document comes back from its chunks: every block once, in order', async (t) => {
  const squash = (xs: { text: string }[]) =>
    xs
      .map((b) => b.text)
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
  const opts = { size: 1200, overlap: 200 };
  const limits = { maxTextChars: 5_000_000, maxDecompressedBytes: 100 * 1024 * 1024 };
  let multi = 0;
  for (const vendor of ['github', 'basecamp']) {
    for (const name of readdirSync(path.join(VENDOR_DOCS, vendor))) {
      const parsed = await parseFile(readFileSync(path.join(VENDOR_DOCS, vendor, name)), name, null, limits);
      const chunks = chunkBlocks(parsed.doc.blocks, opts);
      const back = blocksFromChunks(
        chunks.map((c) => ({ chunkIndex: c.index, section: c.section, content: c.content, page: c.page })),
        opts,
      );
      if (chunks.length > 1) multi++;
      t.equal(squash(back), squash(parsed.doc.blocks), `${vendor}/${name}: ${chunks.length} chunks give back the text`);
      t.same(
        [...new Set(back.map((b) => b.headings.join(' > ')))],
        [...new Set(parsed.doc.blocks.map((b) => b.headings.join(' > ')))],
        `${vendor}/${name}: the same sections, in order`,
      );
    }
  }
  t.ok(multi >= 10, `${multi} documents of several chunks`);
  // Lists over several chunks: the lead-in each chunk repeats is read once.
  const blocks = [block(LEAD), ...['a', 'b', 'c', 'd', 'e', 'f'].map((l) => item(l, 30)), block('8. The next paragraph ends the list.')];
  const small = { size: 600, overlap: 100 };
  const chunks = chunkBlocks(blocks, small);
  const back = blocksFromChunks(
    chunks.map((c) => ({ chunkIndex: c.index, section: c.section, content: c.content, page: c.page })),
    small,
  );
  t.same(
    back.map((b) => b.text),
    blocks.map((b) => b.text),
  );
});

t.test('a sentence hard-wrapped over lines stays one sentence when its paragraph is cut', async (t) => {
  // Plain text exported from a PDF wraps its lines at a fixed width: a line break inside a
  // sentence is not the end of one (Intl.Segmenter would cut "… use of a new" from "Subprocessor by …").
  const name = 'data-processing-addendum.txt';
  const parsed = await parseFile(readFileSync(path.join(VENDOR_DOCS, 'basecamp', name)), name, null, {
    maxTextChars: 5_000_000,
    maxDecompressedBytes: 100 * 1024 * 1024,
  });
  const chunks = chunkBlocks(parsed.doc.blocks, { size: 1200, overlap: 200 });
  const whole = 'Customer may object to 37signals’s use of a new Subprocessor by notifying 37signals promptly in writing within ten (10) business days';
  t.ok(
    chunks.some((c) => c.content.replace(/\s+/g, ' ').includes(whole)),
    'the objection clause is whole in a chunk',
  );
  t.notOk(
    chunks.some((c) => /use of a new\n\nSubprocessor/.test(c.content)),
    'no paragraph break is put inside it',
  );
  // A form's `Label: value` lines (the SCC annex's list of parties) stay lines of their own.
  t.ok(
    chunks.some((c) => c.content.includes('Name: 37signals LLC\n\nAddress: 2045 W Grand Ave')),
    'the name and the address of the data importer stay separate fields',
  );
  // Points of a list and numbered clauses on their own lines still start a piece of their own.
  const list = `${'A long lead-in sentence that goes on. '.repeat(8)}The customer may:\n- terminate the agreement\n- object to the change\n(a) ask for a refund\n1. keep its data`;
  const pieces = chunkBlocks([block(list)], { size: 200, overlap: 0 }).flatMap((c) => c.content.split('\n\n'));
  for (const p of ['- terminate the agreement', '- object to the change', '(a) ask for a refund', '1. keep its data'])
    t.ok(pieces.includes(p), `"${p}" is a piece of its own`);
});
