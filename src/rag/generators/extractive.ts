import { holdsExpected, isSpecific, readQuestion, weighEvidence, type Evidence, type Scored, type Unit } from '../evidence.js';
import { statesFrequency } from '../concepts.js';
import { NO_ANSWER } from '../prompt.js';
import { contextualQuestion } from '../query.js';
import type { Source } from '../../domain/sources.js';
import type { GenerateInput, GenerationResult, Generator } from '../types.js';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/**
 * The offline default generator: composes the answer from the sentences of the
 * retrieved sources that best support the question, each followed by its
 * `[Source n]` marker. When no sentence covers enough of the question it says
 * plainly that the sources do not answer it (docs/rag.md, "Extractive generator").
 */

export interface ExtractiveOptions {
  /** At most this many sentences in an answer (the points of a list excepted). */
  maxSentences?: number;
  /** Minimum weighted share of the question's concepts a sentence must hold to answer it. */
  minCoverage?: number;
  /**
   * Streaming only: the pause between two sentences of the answer (ms). The answer is composed
   * at once; it is sent sentence by sentence so that a reader sees it arrive (docs/rag.md). 0 still
   * sends each sentence in its own write (one turn of the event loop between them).
   */
  streamIntervalMs?: number;
}

/** At most this many points of a list are quoted. */
const MAX_ITEMS = 8;
/** A comparison side answers with a lower share: the other side's concepts are not its to hold. */
const SIDE_COVERAGE = 0.4;
/** Further sentences must score at least this share of the best one. */
const FOLLOW_SHARE = 0.75;

const jaccard = (a: Set<string>, b: Set<string>) => {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter += 1;
  return inter / (a.size + b.size - inter || 1);
};

/**
 * A quoted sentence, cleaned, with its marker: `Text [Source n].` A point of a list quoted
 * without its lead-in (`orphan`) reads as the fragment it is: `…where the authority … [Source n].`
 */
function cite(text: string, n: number, orphan = false): string {
  // Numbering of the source (`(36)`, `2.3.7`, `(a)`) is not part of the quote.
  const cleaned = text
    .replace(/^(?:\(\d{1,3}\)|\d{1,2}(?:\.\d{1,2})+\.?|\([a-z]{1,4}\))\s+/, '')
    .replace(/[\s.;,:]+$/, '')
    .replace(/\s+(and|or)$/, '');
  const body = orphan && !cleaned.startsWith('…') ? `…${cleaned}` : cleaned;
  const end = /[!?]$/.test(body) ? '' : '.';
  const start = body.startsWith('…') ? body : `${body.charAt(0).toUpperCase()}${body.slice(1)}`;
  return `${start} [Source ${n}]${end}`;
}

const quote = (s: string) => `"${s}"`;
/** A source's title and its last heading, without numbering or full stops (it is quoted inside one sentence). */
function titleOf(s: Source): string {
  const heading = (s.section.split(' > ').pop() ?? '').replace(/^[\dA-Z]{0,3}(?:\.\d+)*\.?\s+/, '');
  const title = s.title.replace(/[.\s]+$/, '');
  const text = heading && !title.endsWith(heading) ? `${title} (${heading})` : title;
  return text.replace(/\.(\s|$)/g, '$1');
}

/** The sources' topics, for a refusal that says what they do cover. */
function covered(sources: Source[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of sources) {
    const t = titleOf(s);
    if (seen.has(s.documentId) || out.length >= 3) continue;
    seen.add(s.documentId);
    out.push(t);
  }
  return out.join('; ');
}

interface Pick {
  chosen: Scored[];
  /** Lead-in -> its items. */
  items: Map<Scored, Unit[]>;
}

/** The best sentences among `pool` (already in order): the best, then close seconds that add something. */
function pick(ev: Evidence, pool: Scored[], max: number, min: number): Pick {
  const chosen: Scored[] = [];
  const items = new Map<Scored, Unit[]>();
  for (const c of pool) {
    if (chosen.length >= max) break;
    if (c.coverage < min) break;
    if (chosen.length && c.score < FOLLOW_SHARE * chosen[0]!.score) break;
    if (chosen.some((x) => x.unit.text === c.unit.text || jaccard(x.unit.index.stems, c.unit.index.stems) > 0.6)) continue;
    // An item of a list already quoted with its lead-in adds nothing.
    if ([...items.values()].some((list) => list.includes(c.unit))) continue;
    chosen.push(c);
    if (c.unit.leadIn) {
      const list = ev.units.filter((u) => u.source === c.unit.source && u.itemOf === c.unit.position);
      if (list.length) items.set(c, list);
    }
    if (items.size) break; // a list is an answer of its own
  }
  return { chosen, items };
}

/**
 * Quotes the chosen sentences, each with its marker; a lead-in with the points of its list
 * under it, and a point of a list under its lead-in (an exclusion reads as one only with
 * its "This Regulation shall not apply to:").
 */
function render(p: Pick, label?: (s: Source) => string): string {
  const out: string[] = [];
  const grouped = new Map<string, string[]>();
  for (const c of p.chosen) {
    const n = c.unit.source.sourceNumber;
    const lead = label ? `${label(c.unit.source)}: ` : '';
    const list = p.items.get(c);
    if (list) {
      const shown = list.slice(0, MAX_ITEMS).map((u) => `- ${cite(u.text, n)}`);
      const more = list.length > MAX_ITEMS ? [`- (${list.length - MAX_ITEMS} more points in [Source ${n}].)`] : [];
      out.push([`${lead}${cite(c.unit.text, n).replace(/\.$/, ':')}`, ...shown, ...more].join('\n'));
    } else if (c.unit.lead !== null && c.unit.itemOf !== null) {
      const key = `${n}:${c.unit.itemOf}`;
      const group = grouped.get(key);
      if (group) {
        group.push(`- ${cite(c.unit.text, n)}`);
      } else {
        const lines = [`${lead}${cite(c.unit.lead, n).replace(/\.$/, ':')}`, `- ${cite(c.unit.text, n)}`];
        grouped.set(key, lines);
        out.push(key);
      }
    } else {
      out.push(`${lead}${cite(c.unit.text, n, c.unit.orphan)}`);
    }
  }
  const parts = out.map((o) => grouped.get(o)?.join('\n') ?? o);
  const structured = p.items.size > 0 || grouped.size > 0;
  return label || structured ? parts.join('\n\n') : parts.join(' ');
}

function refusal(ev: Evidence, sources: Source[], why: string): string {
  return `${NO_ANSWER} ${why.replace(/\.$/, '')}; the passages retrieved are about ${covered(sources)}.`;
}

/**
 * The answer text for a question over sources (deterministic). `context` (the previous
 * question of a follow-up) adds its concepts at half weight: they steer the choice of
 * sentences without being required.
 */
export function composeExtractiveAnswer(question: string, sources: Source[], opts: ExtractiveOptions = {}, context = ''): string {
  const maxSentences = opts.maxSentences ?? 3;
  const minCoverage = opts.minCoverage ?? 0.5;
  if (sources.length === 0) return `${NO_ANSWER} No sources were retrieved for it.`;
  const reading = readQuestion(question, context);
  if (!reading.concepts.some((c) => c.role !== 'history')) return `${NO_ANSWER} The question names nothing that can be looked up in them.`;
  const ev = weighEvidence(reading, sources);
  const isWs = (s: Scored) => s.unit.source.workspaceId !== null;
  const fits = (s: Scored) => holdsExpected(s.unit.text, reading.expects) || (s.unit.leadIn && reading.asksList);
  const hasWs = sources.some((s) => s.workspaceId !== null);
  const hasCorpus = sources.some((s) => s.workspaceId === null);

  // A comparison: each side with its own citation.
  if (reading.namesDora && reading.namesVendor && hasWs && hasCorpus) {
    const side = (ws: boolean) => {
      // The corpus is not the vendor's: its side is measured without the vendor's names.
      const total = ev.total - (ws ? 0 : ev.vendorWeight);
      const pool = ev.scored.filter((s) => isWs(s) === ws && fits(s)).map((s) => ({ ...s, coverage: total > 0 ? (s.got - (ws ? 0 : 0)) / total : 0 }));
      return pick(ev, pool, Math.max(1, Math.min(2, maxSentences - 1)), SIDE_COVERAGE);
    };
    const dora = side(false);
    const vendor = side(true);
    if (dora.chosen.length || vendor.chosen.length) {
      const parts: string[] = [];
      if (dora.chosen.length) parts.push(render(dora, (s) => s.title.replace(/:.*$/, '')));
      else parts.push('The retrieved DORA passages do not address this part of the question.');
      if (vendor.chosen.length) parts.push(render(vendor, (s) => s.title));
      else parts.push('The retrieved vendor documents do not address this part of the question.');
      return parts.join('\n\n');
    }
  }

  // A question naming the vendor (and not DORA) is answered from the vendor's documents;
  // one naming DORA (and not the vendor) from the regulation.
  const inScope = (s: Scored) =>
    reading.vendorByName && !reading.namesDora ? isWs(s) : reading.namesDora && !reading.namesVendor && hasCorpus ? !isWs(s) : true;
  const pool = ev.scored.filter((s) => inScope(s) && fits(s));
  // A concept of the domain that no passage holds (the RPO, an ISO certificate) is what is
  // asked: sentences about the rest of the question do not answer it.
  const absent = ev.missing.filter(isSpecific);
  if (absent.length) {
    return refusal(
      ev,
      sources,
      `The retrieved passages do not mention ${absent
        .slice(0, 5)
        .map((c) => quote(c.label.split(' / ')[0]!))
        .join(', ')}`,
    );
  }
  // "How often": once a sentence states the frequency, only sentences that state one follow it.
  const first = pool.find((s) => s.coverage >= minCoverage);
  const focused = reading.asksFrequency && first && statesFrequency(first.unit.text) ? pool.filter((s) => statesFrequency(s.unit.text)) : pool;
  const p = pick(ev, focused, maxSentences, minCoverage);
  if (p.chosen.length) return render(p);

  if (ev.missing.length) {
    return refusal(
      ev,
      sources,
      `The retrieved passages do not mention ${ev.missing
        .slice(0, 5)
        .map((c) => quote(c.label.split(' / ')[0]!))
        .join(', ')}`,
    );
  }
  const near = ev.scored.find(inScope);
  if (reading.expects && near && near.coverage >= minCoverage) {
    return refusal(ev, sources, `The retrieved passages do not give the ${reading.expects === 'figure' ? 'figure' : reading.expects} asked for`);
  }
  if (ev.scored.some((s) => !inScope(s) && s.coverage >= minCoverage)) {
    return refusal(
      ev,
      sources,
      reading.vendorByName
        ? "The retrieved passages of the vendor's documents do not state it, only the regulation's"
        : "The retrieved DORA passages do not state it, only the vendor's documents",
    );
  }
  return refusal(ev, sources, 'The retrieved passages do not state it: they mention its terms only separately');
}

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * Splits an answer into its sentences, in order, for streaming: each piece is one sentence with
 * the space or line break after it (a point of a list is a sentence of its own); concatenation
 * gives the text back exactly.
 */
export function sentencePieces(text: string): string[] {
  const out: string[] = [];
  for (const { segment } of sentenceSegmenter.segment(text)) {
    // "… [Source 1]. " ends a sentence; a segment that is only the space or marker after one joins it.
    if (out.length && !/[\p{L}\p{N}]/u.test(segment.replace(/\[Source \d+\]/g, ''))) out[out.length - 1] += segment;
    else out.push(segment);
  }
  return out;
}

export function extractiveGenerator(opts: ExtractiveOptions = {}): Generator {
  const result = (input: GenerateInput): GenerationResult => {
    const contextual = contextualQuestion(input.question, input.history);
    const context = contextual === input.question ? '' : contextual.slice(input.question.trim().length);
    return { text: composeExtractiveAnswer(input.question, input.sources, opts, context), stopReason: 'end_turn', model: null };
  };
  return {
    id: 'extractive',
    model: null,
    async generate(input) {
      input.signal?.throwIfAborted();
      return result(input);
    },
    async *stream(input) {
      input.signal?.throwIfAborted();
      const r = result(input);
      const interval = opts.streamIntervalMs ?? 0;
      const signal = input.signal ?? undefined;
      let first = true;
      for (const p of sentencePieces(r.text)) {
        // Each sentence goes out in its own write: the previous one is on the wire before the next is yielded.
        if (!first) await (interval > 0 ? sleep(interval, undefined, { signal }) : nextTurn(undefined, { signal }));
        first = false;
        input.signal?.throwIfAborted();
        yield p;
      }
      return r;
    },
  };
}
