import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import { indexPassage, tokens } from '../../src/rag/concepts.js';
import { terms } from '../../src/rag/text.js';

// The per-word caches of the answer path (word forms, terms) keep words, never the texts they
// were read from: a word cut from a text by a regular expression is a view of that whole text
// in V8, and a cached view would keep every document the process ever read.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/** A text of about 1 MB ending with a word seen nowhere else (long enough to be a view of the text). */
const bigText = (i: number, tag: string) =>
  `Clause ${i}. ${'The provider notifies the customer of incidents without undue delay. '.repeat(15_000)} ${tag}subcontractorclause${i}x`;

for (const [name, read] of [
  ['tokens', (text: string) => tokens(text).length],
  ['indexPassage', (text: string) => indexPassage('Title', 'Section', text).stems.size],
  ['terms', (text: string) => terms(text).length],
] as const) {
  t.test(`${name}: the word caches do not keep the texts they read`, async (t) => {
    read(bigText(-1, name)); // the common words cached first
    const before = heapAfterGc();
    let n = 0;
    for (let i = 0; i < 40; i++) n += read(bigText(i, name));
    t.ok(n > 0, 'the texts were read');
    const grown = (heapAfterGc() - before) / 1e6;
    t.ok(grown < 10, `heap grew by ${grown.toFixed(1)} MB after reading 40 texts of 1 MB (a kept text would add 1 MB each)`);
  });
}

t.test('the caches give the same tokens as a first reading', async (t) => {
  const text = 'The ICT third-party service provider shall notify Major ICT-related incidents; IT systems and Subprocessors.';
  const first = tokens(text, true);
  const again = tokens(text, true);
  t.same(again, first, 'a cached reading is the same');
  t.same(
    first.map((x) => x.raw),
    ['ICT', 'third', 'party', 'service', 'provider', 'notify', 'Major', 'ICT', 'related', 'incidents', 'IT', 'systems', 'Subprocessors'],
    'stop words dropped, capitals kept as abbreviations with keepCaps',
  );
  t.same(
    tokens(text).map((x) => x.raw),
    ['ICT', 'third', 'party', 'service', 'provider', 'notify', 'Major', 'ICT', 'related', 'incidents', 'systems', 'Subprocessors'],
    'without keepCaps, `IT` is the stop word `it`',
  );
  t.same(terms('Notifies notified notification'), terms('Notifies notified notification'), 'terms are stable');
});
