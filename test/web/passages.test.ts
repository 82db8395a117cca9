import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { chunkBlocks } from '../../src/ingest/chunker.js';
import { parseFile } from '../../src/ingest/parse.js';
import { reflowQuote } from '../../src/lib/reflow.js';
import { reflowQuote as reflowInDashboard } from '../../web/src/ui/reflow.js';
import { locate } from '../../web/src/viewer/locate.js';
import { VENDOR_DOCS } from '../helpers/assessments.js';

// The dashboard's pure helpers (no browser): quotes reflowed (the export's function and the
// dashboard's twin, same cases), a passage found in a document's blocks. (A country typed by
// name is checked in the browser: test/web/screens.test.ts.)

const DPA_LINES = `5.1 Appointment of Subprocessors. Customer acknowledges and agrees that 37signals may engage third-party
Subprocessors in connection with the provision of the Services. 37signals has entered into a written
agreement with each Subprocessor containing data protection obligations.
5.2 List of Current Subprocessors. 37signals shall make available the list on its website.
Customers must subscribe to the Subprocessor page:
- by e-mail;
- by RSS.

The parties agree to the following.`;

t.test('quotes reflow: the same rules in the export and in the dashboard', async (t) => {
  for (const reflow of [reflowQuote, reflowInDashboard]) {
    const out = reflow(DPA_LINES);
    t.match(
      out,
      /may engage third-party Subprocessors in connection with the provision of the Services\. 37signals has entered into a written agreement with/,
      'a sentence broken across lines reads as one',
    );
    t.match(out, /\n5\.2 List of Current Subprocessors/, 'a numbered point keeps its own line');
    t.match(out, /page:\n- by e-mail;\n- by RSS\./, 'a lead-in and its points keep their lines');
    t.match(out, /\n\nThe parties agree/, 'a paragraph break stays');
    t.equal(reflow('third-\nparty risk'), 'third-party risk', 'a word hyphenated at a line end is joined');
    t.equal(reflow('One line.'), 'One line.');
    t.equal(
      reflow('A short line.\nA much longer line that goes on and on until the width of the text is reached at last.'),
      'A short line.\nA much longer line that goes on and on until the width of the text is reached at last.',
      'a short line ending a sentence ends its paragraph',
    );
  }
  t.equal(reflowQuote(DPA_LINES), reflowInDashboard(DPA_LINES), 'the twins agree');
});

t.test('a passage is found in the blocks it was cut from', async (t) => {
  const limits = { maxTextChars: 5_000_000, maxDecompressedBytes: 100 * 1024 * 1024 };
  const file = 'data-processing-addendum.txt';
  const parsed = await parseFile(readFileSync(path.join(VENDOR_DOCS, 'basecamp', file)), file, null, limits);
  const texts = parsed.doc.blocks.map((b) => reflowInDashboard(b.text));
  const chunks = chunkBlocks(parsed.doc.blocks, { size: 1200, overlap: 200 });
  let found = 0;
  for (const c of chunks) {
    const span = locate(texts, c.content);
    if (!span) continue;
    found++;
    // The highlight covers the chunk's own text: its last unit is inside the span.
    const last = c.content.split('\n\n').at(-1)!.replace(/\s+/g, ' ').slice(-40);
    const marked = texts
      .slice(span.start.block, span.end.block + 1)
      .map((x, i, all) => x.slice(i === 0 ? span.start.offset : 0, i === all.length - 1 ? span.end.offset : x.length))
      .join(' ')
      .replace(/\s+/g, ' ');
    t.ok(marked.includes(last.trim()), `chunk ${c.index}: its end is highlighted`);
  }
  t.equal(found, chunks.length, `every one of the ${chunks.length} passages is found (hard line breaks, overlaps and lead-ins included)`);

  const blocks = ['Intro paragraph about nothing in particular.', 'GitHub will notify Customer “without undue delay” — within 72 hours.', 'Closing words.'];
  const q = locate(blocks, 'GitHub will notify Customer "without undue delay" - within 72 hours.');
  t.same(q, { start: { block: 1, offset: 0 }, end: { block: 1, offset: blocks[1]!.length } }, 'quotes and dashes folded');
  const cut = locate(blocks, '…will notify Customer “without undue delay”…');
  t.same(cut?.start, { block: 1, offset: 7 }, 'a quote cut with an ellipsis starts where it starts');
  t.equal(locate(blocks, 'Nothing like this is in the document at all, really.'), null, 'a passage that is not there is not found');
});
