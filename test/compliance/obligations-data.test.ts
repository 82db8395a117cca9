import { readFileSync } from 'node:fs';
import t from 'tap';
import { compileObligations, obligationsFileProblems } from '../../src/compliance/obligationData.js';
import { VENDOR_OBLIGATIONS } from '../../src/compliance/obligations.js';

// The obligations are data (src/compliance/obligations.json): the file matches its schema and
// every pattern in it compiles; what the patterns find is the gap engine's and the assessments'
// tests' business (test/compliance/gap-engine.test.ts, test/assessments/).

const text = readFileSync(new URL('../../src/compliance/obligations.json', import.meta.url), 'utf8');
const fresh = () => JSON.parse(text);

/** Every pattern of the file: strings and { source, flags } in the places the schema allows them. */
function patternsOf(file: ReturnType<typeof fresh>): number {
  let n = 0;
  const rule = (r: { unless?: unknown }) => (n += r.unless === undefined ? 1 : 2);
  const alts = (a: unknown[][]) => (n += a.flat().length);
  for (const o of file.obligations) {
    for (const e of o.elements) {
      alts(e.any);
      if (e.partial) alts(e.partial.any);
      if (e.sectionAny) alts(e.sectionAny);
      if (e.exclude) n += e.exclude.length;
      if (e.ownOnly) rule(e.ownOnly);
      for (const r of [...(e.limits ?? []), ...(e.against ?? [])]) rule(r);
    }
  }
  return n;
}

t.test('obligations.json matches its schema and every pattern compiles', async (t) => {
  t.same(obligationsFileProblems(fresh()), [], 'no schema problem');
  const compiled = compileObligations(fresh());
  t.ok(compiled.length >= 30, `${compiled.length} obligations`);
  let regexes = 0;
  const count = (v: unknown): void => {
    if (v instanceof RegExp) regexes++;
    else if (Array.isArray(v)) v.forEach(count);
    else if (v && typeof v === 'object') Object.values(v).forEach(count);
  };
  count(compiled);
  t.equal(regexes, patternsOf(fresh()), 'each pattern of the file is one compiled expression');
  t.notOk(
    compiled.some((o) => JSON.stringify(o, (_k, v) => (v instanceof RegExp ? (v.global || v.sticky ? 'stateful' : 'ok') : v)).includes('stateful')),
    'no expression keeps state between matches (flags g, y)',
  );
  t.same(
    VENDOR_OBLIGATIONS.map((o) => o.id),
    compiled.map((o) => o.id),
    'the engine reads the file',
  );
});

t.test('a mistake in the file is refused, naming where it is', async (t) => {
  const badPattern = fresh();
  badPattern.obligations[0].elements[0].any[0][1] = '(unclosed';
  t.throws(() => compileObligations(badPattern), /A28\.5 certification any\.0\.1: Invalid regular expression/);

  const unknownField = fresh();
  unknownField.obligations[1].elements[0].limitz = [];
  t.throws(() => compileObligations(unknownField), /does not match its schema: \/obligations\/1\/elements\/0/);

  const stateful = fresh();
  stateful.obligations[0].elements[0].any[0][0] = { source: 'ISO', flags: 'gi' };
  t.throws(() => compileObligations(stateful), /does not match its schema/);

  const twice = fresh();
  twice.obligations[1].id = twice.obligations[0].id;
  t.throws(() => compileObligations(twice), /obligation A28\.5 appears twice/);

  const weight = fresh();
  weight.obligations[0].weight = 4;
  t.throws(() => compileObligations(weight), /\/obligations\/0\/weight/);
});
