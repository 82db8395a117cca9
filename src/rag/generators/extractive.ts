import {
  asksForRows,
  definitionAnswers,
  definitionFit,
  DURATION,
  holdsExpected,
  INSTEAD_OF_FIGURE,
  isSpecific,
  readQuestion,
  weighEvidence,
  type Evidence,
  type Scored,
  type Unit,
} from '../evidence.js';
import { conceptIn, indexPassage, statesFrequency, tokens } from '../concepts.js';
import { contradictions } from '../contradiction.js';
import { LEAD_IN } from '../../ingest/chunker.js';
import { sentences } from '../text.js';
import { NO_ANSWER } from '../prompt.js';
import { contextualQuestion } from '../query.js';
import type { Source } from '../../domain/sources.js';
import type { GenerateInput, GenerationResult, Generator, Judgement } from '../types.js';
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
const MAX_ITEMS = 12;
/** A comparison side answers with a lower share: the other side's concepts are not its to hold. */
const SIDE_COVERAGE = 0.4;
/** A topic of a summary request answers with this share (its scene's words are not its to hold). */
const TOPIC_COVERAGE = 0.35;
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
    .replace(/^(?:[-*•]\s+)?(?:\(\d{1,3}\)|\d{1,2}(?:\.\d{1,2})+\.?|\d{1,3}\.|\([a-z]{1,4}\))\s+/, '')
    .replace(/^[-*•]\s+/, '')
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

/** A point labelled with a letter or a number (`(d) …`, `(3) …`, `b) …`): the label. */
const LABELLED_POINT = /^(?:\(([a-z]|\d{1,3})\)|([a-z])\))\s/i;

/**
 * Where a passage's part of a list starts: the rank of the label of the first point after a
 * lead-in (`(a)` 1, `(d)` 4, `(3)` 3), 0 when the points are not labelled.
 */
function firstPointRank(content: string): number {
  const blocks = content.split('\n\n');
  const at = blocks.findIndex((b, i) => LEAD_IN.test(b) && LABELLED_POINT.test(blocks[i + 1] ?? ''));
  if (at < 0) return 0;
  const m = LABELLED_POINT.exec(blocks[at + 1]!)!;
  const label = (m[1] ?? m[2]!).toLowerCase();
  return /^\d/.test(label) ? Number(label) : label.charCodeAt(0) - 96;
}

/**
 * The points of the list a lead-in opens, in order: in its own passage and in any other retrieved
 * passage that repeats the lead-in (a chunk that starts inside a list starts with its lead-in),
 * each point once.
 */
function listOf(ev: Evidence, lead: Unit): Unit[] {
  const out: Unit[] = [];
  const seen = new Set<string>();
  const leads = ev.units
    .filter((u) => u === lead || (u.leadIn && u.text === lead.text && u.source.documentId === lead.source.documentId))
    // Parts of one list in several passages, in the list's order: by the label of each part's first point.
    .map((u, i) => ({ u, i, rank: firstPointRank(u.source.content) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.u);
  for (const l of leads) {
    for (const u of ev.units) {
      if (u.source !== l.source || u.itemOf !== l.position || seen.has(u.text)) continue;
      seen.add(u.text);
      out.push(u);
    }
  }
  return out;
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
      const list = listOf(ev, c.unit);
      if (list.length) items.set(c, list);
    }
    if (items.size) break; // a list is an answer of its own
  }
  return { chosen, items };
}

/**
 * "List them": a point of a list chosen on its own is quoted with its lead-in and every point of
 * its list (Art. 28(8)'s "without: (a) …, (b) …, (c) …"), not as the one point that scored.
 */
function wholeLists(ev: Evidence, p: Pick): Pick {
  const chosen: Scored[] = [];
  const items = new Map(p.items);
  for (const c of p.chosen) {
    const u = c.unit;
    if (u.itemOf !== null && !u.leadIn) {
      const lead = ev.scored.find((s) => s.unit.source === u.source && s.unit.position === u.itemOf && s.unit.leadIn);
      if (lead && chosen.some((x) => x.unit.text === lead.unit.text)) continue;
      const list = lead ? listOf(ev, lead.unit) : [];
      if (lead && list.length > 1) {
        chosen.push(lead);
        items.set(lead, list);
        continue;
      }
    }
    chosen.push(c);
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
      // A point read from another passage that repeats the lead-in cites that passage.
      const shown = list.slice(0, MAX_ITEMS).map((u) => `- ${cite(u.text, u.source.sourceNumber)}`);
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
  // The same block twice (one point chosen from two chunks that repeat its lead-in) is quoted once.
  const parts = [...new Set(out.map((o) => grouped.get(o)?.join('\n') ?? o))];
  const structured = p.items.size > 0 || grouped.size > 0;
  return label || structured ? parts.join('\n\n') : parts.join(' ');
}

function refusal(ev: Evidence, sources: Source[], why: string): string {
  return `${NO_ANSWER} ${why.replace(/\.$/, '')}; the passages retrieved are about ${covered(sources)}.`;
}

/** What one composition quoted (for the contradiction check) and whether it refused. */
interface Composed {
  text: string;
  refused: boolean;
  /** Sentences quoted, and sentences that answer as well but were not quoted. */
  quoted: Scored[];
  also: Scored[];
}

/** A question about what another act itself lays down ("What penalties does NIS2 set for essential entities?"). */
const ANOTHER_ACTS_RULES =
  /\b(?:what|which|how\s+(?:much|many|high))\b[^?]{0,60}?\b(?:does|do|did|will|would)\s+(?:the\s+)?(GDPR|NIS\s?2|NIS directive|MiCA|PSD2|AI Act)\s+(?:set|sets|impose|require|lay down|provide for|establish|prescribe)\b/i;

/** A row of a table as the chunker writes it: `Name of Subprocessor: AWS; Location of Processing: United States`. */
const TABLE_ROW = /^[^:;\n]{2,60}: [^;\n]{1,300}(?:; [^:;\n]{2,60}: [^;\n]{0,300}){1,}$/;
/**
 * The rows of the table a cell belongs to (in its passage and in the other retrieved passages of
 * its document), each as its first cell and the cell under the same header as `cell` (all of
 * its sentences), each row once.
 */
function cellColumn(ev: Evidence, cell: Unit): Unit[][] {
  const header = cell.cell!.header;
  const rows = new Map<string, Unit[]>();
  const seen = new Set<string>();
  const sources = ev.units.filter((u) => u.source.documentId === cell.source.documentId && u.cell);
  for (const u of sources) {
    const key = `${u.source.sourceNumber}:${u.cell!.row}`;
    if (!u.cell!.first && u.cell!.header !== header) continue;
    if (seen.has(u.text)) continue;
    seen.add(u.text);
    const row = rows.get(key) ?? [];
    row.push(u);
    rows.set(key, row);
  }
  // A row is a row of this table when it has the column (the first cell alone is another table's).
  return [...rows.values()].filter((r) => r[0]!.cell!.first && (cell.cell!.first || r.some((u) => !u.cell!.first)));
}

/** At most this many rows of a table are quoted. */
const MAX_ROWS = 12;

const KIND_WORD: Record<NonNullable<ReturnType<typeof readQuestion>['expects']>, string> = {
  figure: 'figure',
  date: 'date',
  frequency: 'frequency',
  period: 'period',
  timing: 'time limit',
  place: 'place',
};

/** One question (or one part of a multi-part question) over the sources. */
function composeOne(question: string, sources: Source[], opts: ExtractiveOptions = {}, context = ''): Composed {
  const maxSentences = opts.maxSentences ?? 3;
  const minCoverage = opts.minCoverage ?? 0.5;
  const refused = (text: string): Composed => ({ text, refused: true, quoted: [], also: [] });
  if (sources.length === 0) return refused(`${NO_ANSWER} No sources were retrieved for it.`);
  const reading = readQuestion(question, context);
  if (!reading.concepts.some((c) => c.role !== 'history')) return refused(`${NO_ANSWER} The question names nothing that can be looked up in them.`);
  const ev = weighEvidence(reading, sources);
  const isWs = (s: Scored) => s.unit.source.workspaceId !== null;
  const fits = (s: Scored) => holdsExpected(s.unit.text, reading.expects) || (s.unit.leadIn && reading.asksList);
  const hasWs = sources.some((s) => s.workspaceId !== null);
  const hasCorpus = sources.some((s) => s.workspaceId === null);
  const answered = (p: Pick, text: string, pool: Scored[]): Composed => ({
    text,
    refused: false,
    quoted: p.chosen,
    also: pool.filter((s) => s.coverage >= minCoverage && !p.chosen.includes(s)).slice(0, 4),
  });

  // A comparison: each side with its own citation.
  if (reading.namesDora && reading.namesVendor && hasWs && hasCorpus) {
    const side = (ws: boolean) => {
      // The corpus is not the vendor's: its side is measured without the vendor's names.
      const total = ev.total - (ws ? 0 : ev.vendorWeight);
      // The regulation's side states the requirement: it names no vendor's place.
      const fitsSide = (s: Scored) => fits(s) || (!ws && reading.expects === 'place');
      const pool = ev.scored.filter((s) => isWs(s) === ws && fitsSide(s)).map((s) => ({ ...s, coverage: total > 0 ? s.got / total : 0 }));
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
      return { text: parts.join('\n\n'), refused: false, quoted: [...dora.chosen, ...vendor.chosen], also: [] };
    }
  }

  // A question naming the vendor (and not DORA) is answered from the vendor's documents;
  // one naming DORA (and not the vendor) from the regulation.
  const inScope = (s: Scored) =>
    reading.vendorByName && !reading.namesDora ? isWs(s) : reading.namesDora && !reading.namesVendor && hasCorpus ? !isWs(s) : true;
  const pool = ev.scored.filter((s) => inScope(s) && fits(s));
  // "What penalties does NIS2 set …?": what another act itself lays down is not in DORA or the vendor's
  // documents, which only name it.
  const act = ANOTHER_ACTS_RULES.exec(question);
  if (act)
    return refused(
      refusal(ev, sources, `The retrieved passages (DORA and the vendor's documents) only refer to ${act[1]}; they do not state what it itself lays down`),
    );
  // A concept of the domain that no passage holds (the RPO, an ISO certificate) is what is
  // asked: sentences about the rest of the question do not answer it.
  const absent = ev.missing.filter(isSpecific);
  if (absent.length) {
    return refused(
      refusal(
        ev,
        sources,
        `The retrieved passages do not mention ${absent
          .slice(0, 5)
          .map((c) => quote(c.label.split(' / ')[0]!))
          .join(', ')}`,
      ),
    );
  }
  // "What is X" / "define X": the sentence defining X (Article 3's `‘X’ means …`) answers it.
  if (reading.analysis.asksDefinition) {
    let best: Scored | null = null;
    let fit = 0;
    for (const s of ev.scored) {
      if (!inScope(s)) continue;
      const f = definitionFit(reading, s.unit.index);
      if (f > fit) [best, fit] = [s, f];
    }
    // "What is our board responsible for?" asks what the board does, not what it is: the
    // definition answers a question asking for one (definitionAnswers), or one it holds every asked concept of.
    const asked = reading.concepts.filter((c) => c.role === 'ask' && !c.concept.frame && !c.concept.vendor).length;
    if (best && (definitionAnswers(question, reading, fit) || fit >= asked - 0.5)) {
      const p = { chosen: [best], items: new Map<Scored, Unit[]>() };
      return answered(p, render(p), pool);
    }
  }
  // "Which subprocessors …", "a table of …": when a row of a table answers, the table's rows answer.
  if (asksForRows(question)) {
    // A row as good as the best sentence but for its source's retrieval score (0.85 + 0.15 x score).
    const top = pool[0]?.score ?? 0;
    const row = pool.find((s) => s.coverage >= minCoverage && s.score >= 0.85 * top && TABLE_ROW.test(s.unit.text));
    const rows = row ? ev.units.filter((u) => u.source === row.unit.source && TABLE_ROW.test(u.text)) : [];
    if (row && rows.length >= 2) {
      const n = row.unit.source.sourceNumber;
      const shown = rows.slice(0, MAX_ROWS).map((u) => `- ${cite(u.text, n)}`);
      const more = rows.length > MAX_ROWS ? [`- (${rows.length - MAX_ROWS} more rows in [Source ${n}].)`] : [];
      const p = { chosen: [row], items: new Map<Scored, Unit[]>() };
      return answered(p, [`${titleOf(row.unit.source)} [Source ${n}]:`, ...shown, ...more].join('\n'), pool);
    }
    // A table of long rows, read cell by cell: each row's first cell with the cell the best one heads.
    // The column is the one whose header holds most of what is asked ("how is uptime calculated" -> Uptime Calculation).
    const asked = reading.concepts.filter((c) => c.role === 'ask' && !c.concept.vendor);
    // Share of the header's words the question asks about ("Uptime Calculation" 2/2 before "Service Credits Calculation" 2/3);
    // on a tie, another column before the row's first cell, which names the row.
    const headerFit = (u: Unit) => {
      const index = indexPassage('', '', u.cell!.header);
      const held = asked.filter((c) => conceptIn(c.concept, index) === 'text').length;
      return held ? held / Math.max(held, tokens(u.cell!.header).length) + (u.cell!.first ? 0 : 0.01) : 0;
    };
    const cells = pool.filter((s) => s.coverage >= minCoverage && s.unit.cell).map((s) => ({ s, fit: headerFit(s.unit) }));
    const bestFit = Math.max(0, ...cells.map((c) => c.fit));
    const cell = (bestFit > 0 ? cells.find((c) => c.fit === bestFit)?.s : undefined) ?? cells.find((c) => c.s.score >= 0.85 * top)?.s;
    const table = cell ? cellColumn(ev, cell.unit) : [];
    if (cell && table.length >= 2) {
      const n = cell.unit.source.sourceNumber;
      const shown = table.slice(0, MAX_ROWS).map((r) => `- ${r.map((u) => cite(u.text, u.source.sourceNumber)).join(' ')}`);
      const more = table.length > MAX_ROWS ? [`- (${table.length - MAX_ROWS} more rows in [Source ${n}].)`] : [];
      const p = { chosen: [cell], items: new Map<Scored, Unit[]>() };
      return answered(p, [`${titleOf(cell.unit.source)} [Source ${n}]:`, ...shown, ...more].join('\n'), pool);
    }
  }
  // "How often": once a sentence states the frequency, only sentences that state one follow it.
  const first = pool.find((s) => s.coverage >= minCoverage);
  const focused = reading.asksFrequency && first && statesFrequency(first.unit.text) ? pool.filter((s) => statesFrequency(s.unit.text)) : pool;
  const picked = pick(ev, focused, maxSentences, minCoverage);
  const p = reading.asksList ? wholeLists(ev, picked) : picked;
  // "How quickly": a stated timing with no time limit ("without undue delay") is said to be one.
  if (p.chosen.length && reading.expects === 'timing' && !p.chosen.some((c) => DURATION.test(c.unit.text))) {
    return answered(p, `The retrieved sources give no time limit for this; what they say is: ${render(p)}`, pool);
  }
  if (p.chosen.length) return answered(p, render(p), pool);

  // A figure asked where the text gives a timing or manner instead ("without undue delay"):
  // no figure is given, and what is said is quoted.
  if (reading.expects === 'figure' || reading.expects === 'frequency') {
    const instead = ev.scored.filter(
      (s) => inScope(s) && s.coverage >= minCoverage && (reading.expects === 'frequency' || INSTEAD_OF_FIGURE.test(s.unit.text)),
    );
    const q = pick(ev, instead, 2, minCoverage);
    if (q.chosen.length) {
      return answered(q, `The retrieved sources give no ${KIND_WORD[reading.expects]} for this; what they say is: ${render(q)}`, instead);
    }
  }
  if (ev.missing.length) {
    return refused(
      refusal(
        ev,
        sources,
        `The retrieved passages do not mention ${ev.missing
          .slice(0, 5)
          .map((c) => quote(c.label.split(' / ')[0]!))
          .join(', ')}`,
      ),
    );
  }
  const near = ev.scored.find(inScope);
  if (reading.expects && near && near.coverage >= minCoverage) {
    return refused(refusal(ev, sources, `The retrieved passages do not give the ${KIND_WORD[reading.expects]} asked for`));
  }
  if (ev.scored.some((s) => !inScope(s) && s.coverage >= minCoverage)) {
    return refused(
      refusal(
        ev,
        sources,
        reading.vendorByName
          ? "The retrieved passages of the vendor's documents do not state it, only the regulation's"
          : "The retrieved DORA passages do not state it, only the vendor's documents",
      ),
    );
  }
  return refused(refusal(ev, sources, 'The retrieved passages do not state it: they mention its terms only separately'));
}

/** Where a clause of a question starts a new question ("…, and how fast do they respond?"). */
const PART_START =
  "(?:do|does|did|is|are|was|were|can|could|will|would|should|must|may|has|have|how|what|what['’]s|when|where|which|who|whom|whose|why|(?:on|in|at|for|by|under|from|with|to|over|after|before)\\s+(?:what|which|whom))\\b";
const CLAUSE_SPLIT = new RegExp(`\\s*(?:,\\s*(?:and\\s+)?|;\\s*|\\s+and\\s+)(?=${PART_START})`, 'i');
/** A topic list closing a request: "… on security, audit, subprocessors and deletion", "…: encryption, monitoring, breach history". */
const TOPIC_LIST = /^(.*?(?::|\b(?:on|about|covering|regarding)\b))\s+((?:[^,:;]+,\s*){1,}[^,:;]+?)[.?!]?$/i;

export interface QuestionPart {
  /** The part as asked (or the topic). */
  text: string;
  /** What the part is read with: the scene set before, the subject of the first part. */
  context: string;
  /** A topic of a request ("audit"), not a question of its own. */
  topic: boolean;
  /** What is read as the part's question: the part, or the scene with it when the part names nothing. */
  question: string;
}

/**
 * The parts of a multi-part question (docs/rag.md, "Multi-part questions"): its questions
 * (`?`), the clauses of one question that start a question of their own ("…, and how fast do
 * they respond?"), or the topics of a request ("summarise … on security, audit and deletion").
 * A part naming nothing of its own stays with the one before. Fewer than two: not multi-part.
 */
export function questionParts(question: string): QuestionPart[] {
  const all = sentences(question);
  const scene = all.filter((s) => !/\?\s*$/.test(s) && !TOPIC_LIST.test(s) && all.some((x) => /\?\s*$/.test(x)));
  const asked = all.filter((s) => !scene.includes(s));
  const parts: { text: string; prefix: string; topic: boolean }[] = [];
  for (const sentence of asked) {
    // "Major incident reporting under Art. 19: who …, can …?": what comes before the colon is the scene.
    const colon = /^([^:?]{3,90}):\s+(.+)$/.exec(sentence);
    const prefix = colon && colon[1]!.split(/\s+/).length <= 10 ? colon[1]! : '';
    const body = prefix ? colon![2]! : sentence;
    const clauses = body.split(CLAUSE_SPLIT).filter((c) => c.trim());
    // "For our exit plan, can we …": a first clause that asks nothing sets the scene.
    const scenePart = clauses.length >= 2 && !new RegExp(`^\\s*${PART_START}`, 'i').test(clauses[0]!) ? clauses.shift()! : '';
    if (clauses.length >= 2) {
      for (const c of clauses) parts.push({ text: c.trim(), prefix: [prefix, scenePart].filter(Boolean).join(' '), topic: false });
      continue;
    }
    const list = TOPIC_LIST.exec(sentence);
    if (list) {
      const items = list[2]!
        .split(/,\s*(?:and\s+)?|\s+and\s+/)
        .map((x) => x.trim())
        .filter(Boolean);
      if (items.length >= 3 && items.every((x) => x.split(/\s+/).length <= 4)) {
        for (const x of items) parts.push({ text: x, prefix: list[1]!.replace(/:$/, ''), topic: true });
        continue;
      }
    }
    parts.push({ text: sentence, prefix, topic: false });
  }
  // A part without a concept of its own ("What's the definition?") is read with the one before.
  // The first part, when it names nothing ("TLPT questions: how often, …"), is read with the scene.
  const merged: ((typeof parts)[number] & { own: boolean })[] = [];
  for (const p of parts) {
    const own = readQuestion(p.text).concepts.some((c) => c.role === 'ask' && !c.concept.frame);
    if (!own && merged.length) merged[merged.length - 1]!.text += ` ${p.text}`;
    else merged.push({ ...p, own });
  }
  if (merged.length < 2) return [];
  const firstText = merged[0]!.topic ? '' : merged[0]!.text;
  return merged.map((p, i) => {
    const context = [scene.join(' '), p.prefix, i > 0 ? firstText : ''].filter(Boolean).join(' ');
    const text = p.text.replace(/\?\s*$/, '');
    return { text, topic: p.topic, context, question: p.own ? text : `${context} ${text}` };
  });
}

const label = (s: string) => {
  const t = s.trim().replace(/[.;,?]+$/, '');
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}`;
};

/** The sentences of a composition that contradict one another, as a note with both markers. */
function contradictionNote(quoted: Scored[], also: Scored[]): string {
  const cands = [...quoted, ...also].map((s) => ({ text: s.unit.text, source: s.unit.source.sourceNumber }));
  const found = contradictions(cands).filter((c) => quoted.some((q) => q.unit.text === c.denies.text || q.unit.text === c.states.text));
  if (!found.length) return '';
  return found
    .slice(0, 2)
    .map(
      (c) =>
        `Note, the sources disagree on "${c.words}" (they may speak of different things; read both): ${cite(c.denies.text, c.denies.source)} ${cite(c.states.text, c.states.source)}`,
    )
    .join('\n\n');
}

/**
 * The answer text for a question over sources (deterministic). `context` (the previous
 * question of a follow-up) adds its concepts at half weight: they steer the choice of
 * sentences without being required. A multi-part question is answered part by part, each
 * part answered or said to be unanswered; contradicting passages are flagged.
 */
export function composeExtractiveAnswer(question: string, sources: Source[], opts: ExtractiveOptions = {}, context = ''): string {
  const parts = sources.length ? questionParts(question) : [];
  if (parts.length) {
    const answers = parts.map((p) =>
      composeOne(
        p.question,
        sources,
        // A topic of a request ("… security posture: encryption, monitoring") is one word against the
        // request's scene: a sentence on the topic answers it with a lower share, as a comparison side does.
        { ...opts, maxSentences: Math.min(2, opts.maxSentences ?? 3), ...(p.topic ? { minCoverage: Math.min(opts.minCoverage ?? 0.5, TOPIC_COVERAGE) } : {}) },
        [p.context, context].filter(Boolean).join(' '),
      ),
    );
    if (answers.some((a) => !a.refused)) {
      const blocks = parts.map((p, i) => {
        const a = answers[i]!;
        const why = a.refused ? a.text.slice(NO_ANSWER.length).split(';')[0]!.trim() : '';
        const body = a.refused
          ? `Not answered by the retrieved sources${why ? ` (${why.replace(/^The retrieved passages /, 'they ').replace(/\.$/, '')})` : ''}.`
          : a.text;
        return `**${label(p.text)}${p.topic ? ':' : '?'}** ${body.includes('\n') ? `\n${body}` : body}`;
      });
      const note = contradictionNote(
        answers.flatMap((a) => a.quoted),
        answers.flatMap((a) => a.also),
      );
      return [...blocks, ...(note ? [note] : [])].join('\n\n');
    }
  }
  const one = composeOne(question, sources, opts, context);
  if (one.refused) return one.text;
  const note = contradictionNote(one.quoted, one.also);
  return note ? `${one.text}\n\n${note}` : one.text;
}

const VERDICT_TEXT: Record<Judgement['verdict'], string> = {
  meets: 'meets',
  partly: 'partly meets',
  does_not: 'does not meet',
  not_addressed: 'does not address',
};

/**
 * A judgement question answered from the obligation engine's reading (docs/rag.md, "Judgement
 * questions"): the verdict with the engine's why, the requirement quoted from DORA, what the
 * vendor's documents commit to (per element, quoted), the clauses that limit it, and the
 * elements not found. Every quote carries its `[Source n]`.
 */
export function composeJudgement(j: Judgement): string {
  const r = j.result;
  const labelOf = (id: string) => j.obligation.elements.find((e) => e.id === id)?.label ?? id;
  const lower = (s: string) => `${s.charAt(0).toLowerCase()}${s.slice(1)}`;
  const critical = j.obligation.scope === 'critical' ? ' (for ICT services supporting critical or important functions)' : '';
  const why = r.rationale.replace(/^(Covered|Missing|Partial):\s*/, '');
  const out: string[] = [
    `**Verdict: ${j.vendor} ${VERDICT_TEXT[j.verdict]} DORA ${j.obligation.ref}, ${lower(j.obligation.title)}${critical}.** ${why.charAt(0).toUpperCase()}${why.slice(1)}`,
  ];
  const requirement = j.doraText || j.obligation.requirement;
  out.push(`**Requirement, DORA ${j.obligation.ref}:** ${j.doraSource ? cite(requirement, j.doraSource) : requirement}`);
  const quoted = (role: (e: (typeof r.evidence)[number]) => boolean) =>
    r.evidence.flatMap((e, i) => {
      const n = j.evidenceSources[i];
      if (!role(e) || !n) return [];
      return [`- *${labelOf(e.element)}*: ${cite(e.quote, n, e.quote.startsWith('…'))}`];
    });
  const commits = quoted((e) => !e.role || e.role === 'evidence' || e.role === 'partial');
  if (commits.length) out.push([`**What ${j.vendor}'s documents commit to:**`, ...commits].join('\n'));
  const limits = quoted((e) => e.role === 'limitation' || e.role === 'contrary');
  if (limits.length) out.push([`**Limitation:**`, ...limits].join('\n'));
  const none = r.elements.filter((e) => e.level === 'none').map((e) => lower(e.label));
  if (none.length) out.push(`**Not found in the documents:** ${none.join('; ')}.`);
  return out.join('\n\n');
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
    const text = input.judgement ? composeJudgement(input.judgement) : composeExtractiveAnswer(input.question, input.sources, opts, context);
    return { text, stopReason: 'end_turn', model: null };
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
