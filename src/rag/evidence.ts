import {
  analyseQuestion,
  asksFrequency,
  conceptIn,
  defines,
  doraArticleOf,
  indexPassage,
  PLACE_QUESTION,
  statesFrequency,
  tokens,
  type Concept,
  type PassageIndex,
  type QuestionAnalysis,
} from './concepts.js';
import { countriesIn } from '../compliance/drafting/text.js';
import { looksLikeInstruction } from './prompt.js';
import { passageIndexOf } from './rerank.js';
import { listParagraphs, sentences, words } from './text.js';
import type { Source } from '../domain/sources.js';

/**
 * The evidence an extractive answer stands on (docs/rag.md, "Extractive generator"): the
 * question read as concepts (the domain vocabulary, src/rag/vocabulary.json), the part
 * of it that asks and the part that only sets the scene, the scope it names (DORA, the
 * vendor, or both: a comparison), the kind of answer it expects (a figure, a date), and
 * every sentence of the sources scored by the weighted share of the question's concepts
 * it holds. Whether the sources answer is decided from these, never from one missing word.
 */

/** How a question's concept counts. */
export type Role = 'ask' | 'context' | 'frame' | 'vendor' | 'history';

export interface Reading {
  analysis: QuestionAnalysis;
  concepts: { concept: Concept; role: Role }[];
  /** The vendor is named by one of its own names (`GitHub`, `37signals`), not only as "the vendor". */
  vendorByName: boolean;
  namesDora: boolean;
  /** The question points at the workspace's vendor, by name or as "the vendor". */
  namesVendor: boolean;
  /** What the answer must contain: a figure (`how much`, `how many`, `maximum`), a date (`from what date`). */
  expects: 'figure' | 'date' | 'frequency' | 'timing' | 'period' | 'place' | null;
  /** The question asks for the points of a list (what a contract must include, which elements). */
  asksList: boolean;
  /** The question asks how often (`how often`, `how frequently`, `at what interval`). */
  asksFrequency: boolean;
}

export interface Unit {
  source: Source;
  /** Position of the sentence in its source. */
  position: number;
  text: string;
  /** A lead-in that introduces a list (`... shall include the following:`). */
  leadIn: boolean;
  /** The sentence is an item of a list that follows a lead-in (its position). */
  itemOf: number | null;
  /** The lead-in of that list, as written (an item means little without it). */
  lead: string | null;
  /**
   * A fragment: a point of a list whose lead-in is not in this passage (`(d) where the competent
   * authority …`, its marker gone with the markup), or the tail of a sentence cut at the passage's start.
   */
  orphan: boolean;
  /** A point of a list too short to stand on its own (it is quoted under its lead-in, as every point whose lead-in is in the passage). */
  minor: boolean;
  /** A cell of a long table row (quoted cell by cell): the row's place in its passage, the cell's header, whether it is the row's first cell. */
  cell: Cell | null;
  index: PassageIndex;
}

export interface Cell {
  row: number;
  header: string;
  first: boolean;
}

export interface Scored {
  unit: Unit;
  /** Weighted share of the question's concepts the sentence holds (0..1). */
  coverage: number;
  /** Order of preference: coverage with the source's retrieval score as a small prior. */
  score: number;
  /** Concept keys the sentence holds. */
  held: Set<string>;
  /** Weighted credit of the concepts it holds, and of those that name the vendor. */
  got: number;
}

export interface Evidence {
  reading: Reading;
  units: Unit[];
  scored: Scored[];
  weights: Map<string, number>;
  /** Asked concepts that no retrieved passage holds. */
  missing: Concept[];
  /** Sum of all concept weights, and of the weights of the concepts naming the vendor. */
  total: number;
  vendorWeight: number;
}

/** Weight of a concept only in the statements before the question ("We are a bank with 30 staff."). */
const CONTEXT_WEIGHT = 0.3;
/** Weight of a word that frames the question ("DORA", "require"), relative to the mean. */
const FRAME_WEIGHT = 0.2;
/** A concept of the domain, a figure or an abbreviation weighs this much more than a plain word. */
const SPECIFIC_WEIGHT = 2;
/** Weight of a concept of the previous question of a follow-up. */
const HISTORY_WEIGHT = 0.5;
/** Credit for a concept held only in the source's title or headings, or elsewhere in its passage. */
const META_CREDIT = 0.6;
const PASSAGE_CREDIT = 0.25;
/** Added to the order of a sentence that defines what a "what is" question asks about. */
const DEFINITION_BONUS = 0.15;

const MIN_CHARS = 25;
const MAX_CHARS = 700;

const FREQUENCY_QUESTION = /\bhow\s+(often|frequently)\b/i;
/** How long something lasts or is kept: answered by a duration (`90 days`) or a stated period (`as long as your account is active`). */
const PERIOD_QUESTION = /\bhow\s+long\b|\bfor\s+(what|which)\s+(period|duration|length\s+of\s+time)\b/i;
/** A period stated without a number: for as long as, until an event, indefinitely, the term. */
const STATED_PERIOD =
  /\b(as long as|for so long as|until|indefinitely|no longer than|for the (term|duration|life(time)?|period)|retention (period|schedule)|permanently)\b/i;
/** How soon or how far ahead: answered by a time limit (`within 72 hours`) or a stated timing (`without undue delay`). */
const TIMING_QUESTION =
  /\bhow\s+(quickly|fast|soon|promptly|far\s+in\s+advance|much\s+(advance\s+|prior\s+)?(notice|warning|time))\b|\bwithin\s+(what|which)\s+(time|period|timeframe|time\s*frame|deadline)\b|\bwhat\s+(notice\s+period|time\s*limit|timeframe|time\s+frame|deadline)\b/i;
/** A time limit: a number of hours, days, weeks or months (`72 hours`, `thirty (30) days`). */
export const DURATION =
  /\b(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fourteen|fifteen|twenty|twenty-four|thirty|forty-eight|sixty|seventy-two|ninety)(\s*\(\d+\))?[\s-]+(business\s+|working\s+|calendar\s+)?(hours?|days?|weeks?|months?)\b/i;
/**
 * A timing or manner stated instead of a figure ("without undue delay", "promptly", "upon
 * request"): a question asking "within how many hours" is answered by saying no figure is
 * given and quoting it (docs/rag.md, "A figure the text does not give").
 */
export const INSTEAD_OF_FIGURE =
  /\b(without undue delay|undue delay|promptly|immediately|as soon as (possible|practicable|reasonably)|in a timely manner|timely|without delay|expeditiously|with or without notice|upon (\w+ )?request|on request|before|prior to|in advance|regularly|periodically|from time to time|reasonable (time|period|notice|efforts?|advance)|unreasonably delay|at no (additional|extra) (charge|cost))\b/i;
const FIGURE_QUESTION = /\b(how\s+(much|many)|what\s+(percentage|proportion|share|amount|number)|(maximum|minimum|highest|lowest)\b(?!\s+(notice|number of)))/i;
/** The verb of a place question that only says a place is asked. */
const PLACE_VERB = /^(located|situated|based)$/i;
/** A place a sentence names: a country (or a cloud region's code) or a region of the world. */
const REGION = /\b(EU|EEA|European Union|European Economic Area|Europe|North America|Asia[- ]Pacific|APAC)\b/;
const DATE_QUESTION = /\b((from|on|by|since|as of|until)\s+(what|which)\s+(date|day|year)|what\s+(date|year)\b|(from|since)\s+when\b)/i;
const LIST_QUESTION =
  /\b(what|which)\b.{0,60}\b(include|includes|contain|contains|cover|covers|elements?|clauses?|provisions?|points?|items?|list|requirements?|obligations?)\b|\b(list|enumerate)\b/i;

/** An instruction to list ("List them.", "Please enumerate …"). */
const LIST_INSTRUCTION = /(^|[.?!]\s+)(please\s+)?(list|enumerate)\b/i;

const MONTH = /\b(January|February|March|April|May|June|July|August|September|October|November|December)\b/;
const NUMBER_WORD =
  /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand|million|billion|percent|per cent|half|once|twice)\b/i;
const FREQUENCY =
  /\b(daily|weekly|monthly|quarterly|yearly|annual|annually|regular|regularly|periodic|periodically|every|at least|within|hours?|days?|weeks?|months?|years?)\b/i;

/** A concept of the domain (vocabulary), a figure, an abbreviation or a proper name: it names exactly what is asked. */
export const isSpecific = (c: Concept) => c.entry !== undefined || c.figure || /^\p{Lu}/u.test(c.label);

/** Concept keys of a text's analysis. */
const keysOf = (a: QuestionAnalysis) => new Set(a.concepts.map((c) => c.key));

/** The part of a question that asks: its sentences ending in `?` (all of it when none does). */
function askPart(question: string): string {
  const parts = sentences(question);
  const asks = parts.filter((s) => /\?\s*$/.test(s));
  const asked = asks.length && asks.length < parts.length ? asks.join(' ') : question;
  // "… for a customer in Europe?": who the answer is for sets the scene; it is not what the sources must name.
  const unscened = asked.replace(SCENE, '');
  return unscened !== asked && /\p{L}{3,}/u.test(unscened) ? unscened : asked;
}

/** A phrase saying whom the question is for: "for a customer in Europe", "as a bank based in Germany". */
const SCENE =
  /\s*,?\s*\b(?:for|as)\s+(?:(?:a|an|the|our|us as an?)\s+)?(?:customers?|clients?|entit(?:y|ies)|firms?|banks?|compan(?:y|ies)|insurers?|users?|subscribers?|licensees?)\b(?:\s+(?:based|located|established|domiciled|headquartered))?\s+(?:in|outside(?:\s+of)?|from)\s+(?:the\s+)?[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*/g;

/** A question that asks for a definition in so many words ("define", "what does … mean", "what is 'X'"). */
const EXPLICIT_DEFINITION = /\b(defin\w*|mean|meaning|called|counts? as|qualif\w+ as)\b|^\s*(what|who)\s*(is|are|['’]s)\s+(an?\s+|the\s+)?['‘"“]/i;
/** "What is a …", "who is the …": a definition may answer, if its term is what the question names. */
const WEAK_DEFINITION = /(^|[.?!]\s+)(what|who)\s*(is|are|['’]s)\s+(an?|the)\b/i;

/** The question asks for the entries of a table or list ("which subprocessors", "a table of", "list", "each"). */
const ASKS_ROWS = /\b(which|list|table|what are (the|its|their)|who are|each|schedule|categories|by [a-z]+ band)\b/i;
export const asksForRows = (question: string) => ASKS_ROWS.test(question);

/** The question may ask for a definition ("define", "what is a …", "what does … mean"). */
export const asksForDefinition = (question: string) => EXPLICIT_DEFINITION.test(question) || WEAK_DEFINITION.test(question);

/**
 * A definition with this fit (definitionFit) answers the question: any that holds an asked
 * concept when the question asks for one in so many words; when it only asks "what is the …",
 * one whose term holds at least half of what the question asks ("what is the maximum fine a
 * supervisor can impose on a bank" is not answered by the definition of a bank).
 */
export function definitionAnswers(question: string, reading: Reading, fit: number): boolean {
  if (fit <= 0) return false;
  if (EXPLICIT_DEFINITION.test(question)) return true;
  if (!WEAK_DEFINITION.test(question)) return false;
  const asked = reading.concepts.filter((c) => c.role === 'ask' && !c.concept.frame && !c.concept.vendor).length;
  return fit >= Math.max(0.9, asked * 0.5 - 0.05);
}

/** Ask concepts (and, at half, the statements' concepts) a passage's defined term holds; fewer extra words first. */
export function definitionFit(reading: Reading, index: PassageIndex): number {
  let best = 0;
  for (const d of index.defines) {
    const words = d.trim().split(' ').length;
    let held = 0;
    for (const { concept, role } of reading.concepts) {
      if (concept.frame || concept.vendor || (role !== 'ask' && role !== 'context')) continue;
      const inTerm = concept.stem !== undefined ? tokens(d).some((t) => t.stem === concept.stem) : concept.realisations.some((r) => d.includes(r));
      if (!inTerm) continue;
      held += role === 'ask' ? 1 : 0.5;
      // The term as the question writes it ("ICT third-party service provider", not the
      // vocabulary's shorter "service provider" inside "crowdfunding service provider").
      const written = ` ${tokens(concept.label.split(' / ')[0]!)
        .map((t) => t.light)
        .join(' ')} `;
      if (concept.entry && written.trim()) held += d === written ? 0.5 : d.includes(written) ? 0.25 : 0;
    }
    if (held > 0) best = Math.max(best, held - 0.01 * words);
  }
  return best;
}

/** Reads a question (and, for a follow-up, the previous question it continues). */
export function readQuestion(question: string, history = ''): Reading {
  const analysis = analyseQuestion(question);
  const asked = askPart(question);
  const askKeys = asked === question ? null : keysOf(analyseQuestion(asked));
  const concepts: Reading['concepts'] = analysis.concepts.map((concept) => ({
    concept,
    role: concept.frame ? 'frame' : concept.vendor ? 'vendor' : askKeys && !askKeys.has(concept.key) ? 'context' : 'ask',
  }));
  // "We are a small broker. Do we have to comply?": when the question itself names nothing,
  // the statements before it say what it is about.
  if (!concepts.some((c) => c.role === 'ask')) for (const c of concepts) if (c.role === 'context' && !c.concept.figure) c.role = 'ask';
  // "Where are the data centres located?": the place is what is asked, "located" only says so.
  if (PLACE_QUESTION.test(asked))
    for (const c of concepts) if (c.role === 'ask' && c.concept.stem !== undefined && PLACE_VERB.test(c.concept.label)) c.role = 'frame';
  if (history.trim()) {
    const own = keysOf(analysis);
    for (const c of analyseQuestion(history).concepts) if (!own.has(c.key) && !c.frame) concepts.push({ concept: c, role: 'history' });
  }
  return {
    analysis,
    concepts,
    vendorByName: false,
    namesDora: analysis.namesDora,
    namesVendor: analysis.namesVendor,
    expects: DATE_QUESTION.test(asked)
      ? 'date'
      : TIMING_QUESTION.test(asked)
        ? 'timing'
        : FIGURE_QUESTION.test(asked)
          ? 'figure'
          : PERIOD_QUESTION.test(asked)
            ? 'period'
            : FREQUENCY_QUESTION.test(asked)
              ? 'frequency'
              : PLACE_QUESTION.test(asked)
                ? 'place'
                : null,
    // "… what must we be able to exit without? List them.": an instruction to list, wherever it stands.
    asksList: LIST_QUESTION.test(asked) || LIST_INSTRUCTION.test(question),
    asksFrequency: asksFrequency(asked),
  };
}

/** A sentence holds what the question expects: a figure, a date, a frequency or a timing. */
export function holdsExpected(text: string, expects: Reading['expects']): boolean {
  if (!expects) return true;
  // Regulation numbers (`No 1093/2010`, `2022/2554`) and references to articles, paragraphs
  // and points (`Article 28(4)`, `paragraph 9`, `point (3)`) are not answers.
  // Nor is the numbering of a sentence's own points (`(1) notify Customer; (2) investigate`).
  const plain = text
    .replace(/\b(No\s+)?\d+\/\d+\b|\b(Articles?|paragraphs?|subparagraphs?|points?)\s+\(?\d+\)?(\(\d+\))*(\([a-z]\))?/gi, ' ')
    .replace(/(^|\s)\(\d{1,2}\)(?=\s)/g, ' ');
  if (expects === 'place') return REGION.test(text) || countriesIn(text).length > 0;
  if (expects === 'date') return MONTH.test(plain) || /\b(19|20)\d{2}\b/.test(plain);
  if (expects === 'frequency' && FREQUENCY.test(plain)) return true;
  if (expects === 'timing') return DURATION.test(plain) || INSTEAD_OF_FIGURE.test(plain);
  if (expects === 'period') return DURATION.test(plain) || STATED_PERIOD.test(plain);
  return /\d/.test(plain) || NUMBER_WORD.test(plain);
}

interface Sentence {
  position: number;
  text: string;
  leadIn: boolean;
  itemOf: number | null;
  lead: string | null;
  orphan: boolean;
  minor: boolean;
  cell: Cell | null;
  index: PassageIndex;
}

/** A row of a table as the parsers write it: `Header: cell; Header: cell`. */
const ROW_START = /^[^:;\n]{2,60}: /;
/** Where the next cell of a row starts: `; ` then a header (a cell's own `a; b` is not followed by one). */
const NEXT_CELL = /; (?=[\p{Lu}\d][^:;\n]{1,59}: )/u;
/** A row this long is quoted cell by cell. */
const LONG_ROW = 400;

/**
 * The cells of a long table row (of any row, with `minLength` 0), each as `Header: cell` (a cell longer than a sentence may be,
 * by its sentences, the first under its header). An SLA's row of a feature, its uptime
 * calculation, its definitions and its credits is four answers, not one sentence run over
 * the cells' ends. Null when the paragraph is not such a row.
 */
function cellsOfRow(text: string, minLength = LONG_ROW): { text: string; header: string; first: boolean }[] | null {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= minLength || !ROW_START.test(flat)) return null;
  const cells = flat.split(NEXT_CELL).map((c) => c.trim());
  if (cells.length < 2 || !cells.every((c) => ROW_START.test(c))) return null;
  return cells.flatMap((c, i) => {
    const header = c.slice(0, c.indexOf(':'));
    return (c.length <= MAX_CHARS ? [c] : sentences(c)).map((part) => ({ text: part, header, first: i === 0 }));
  });
}

/** A line is a long table row, quoted cell by cell. */
export const isLongRow = (line: string) => cellsOfRow(line) !== null;

/** A sentence announcing what follows it: "The following is a list of …", "… as set out below." */
const ANNOUNCES = /\b(?:the following|as follows|(?:listed|set out|set forth|shown) below|below is)\b/i;

/**
 * A paragraph's sentences, with a sentence announcing a list joined to the lead-in that ends the
 * paragraph ("The following is a list of personal data subprocessors we use. These subprocessors
 * are all located in the United States:"): the list is what the announcement names.
 */
function announcedLeadIn(parts: string[]): string[] {
  const n = parts.length;
  if (n < 2 || !/:\s*$/.test(parts[n - 1]!) || !ANNOUNCES.test(parts[n - 2]!) || /:\s*$/.test(parts[n - 2]!)) return parts;
  return [...parts.slice(0, n - 2), `${parts[n - 2]} ${parts[n - 1]}`];
}

const sentenceCache = new Map<string, Sentence[]>();
const CACHE_MAX = 5_000;

/** The quotable sentences of a passage, cached by chunk id (a chunk's text never changes under its id). */
function sentencesOf(source: Source): Sentence[] {
  const key = `${source.id}:${source.content.length}:${source.title}:${source.section}`;
  const hit = sentenceCache.get(key);
  if (hit) return hit;
  const out: Sentence[] = [];
  let lead: number | null = null;
  let leadText: string | null = null;
  // Each sentence with whether its paragraph was a point of a list.
  // A short point ("Braintree. Payment processing services.") is one sentence: its name and what it is go together.
  const paragraphs = listParagraphs(source.content);
  // A passage holding a long row reads every row of its table cell by cell, short ones too.
  const longRows = paragraphs.some((p) => !p.item && cellsOfRow(p.text) !== null);
  const pieces = paragraphs.flatMap((p, row) => {
    const cells = p.item || !longRows ? null : cellsOfRow(p.text, 0);
    const parts: { text: string; header?: string; first?: boolean }[] =
      cells ?? announcedLeadIn(p.item && p.text.length <= 240 ? [p.text.replace(/\s+/g, ' ')] : sentences(p.text)).map((text) => ({ text }));
    return parts.map((x, k) => ({
      text: x.text,
      item: p.item,
      marker: k === 0 ? p.marker : undefined,
      cell: x.header !== undefined ? { row, header: x.header, first: x.first === true } : null,
    }));
  });
  // The kind of marker of the first point of the current list: "(a) … (d)" then "8. For …" is a new paragraph, not a point.
  let listMarker: string | undefined;
  pieces.forEach(({ text: s, item, marker, cell }, position) => {
    const text = s.replace(/\s+/g, ' ').trim();
    const leadIn = /:$/.test(text);
    if (lead !== null && item && marker) {
      if (listMarker === undefined) listMarker = marker;
      else if (marker !== listMarker) {
        lead = null;
        leadText = null;
      }
    }
    // A paragraph that is not a point of the list ends it (a list of points goes on over their full stops).
    if (!item && !leadIn && lead !== null && pieces[position - 1]?.item) {
      lead = null;
      leadText = null;
    }
    const itemOf = lead;
    const itemLead = leadText;
    if (leadIn) {
      lead = position;
      leadText = text;
      listMarker = undefined;
    } else if (!item && !/[;,]$|\b(and|or)$/.test(text)) {
      lead = null; // a list in prose ends with its first full stop
      leadText = null;
    }
    // A short point of a list ("(a) disruption to their business activities,") is kept: it is
    // quoted under its lead-in, as every point of a list is.
    // So is a short cell of a table row ("Service Feature: Actions"): it is quoted with its row.
    const minor = !leadIn && (itemOf !== null || cell !== null) && (text.length < MIN_CHARS || words(text).length < 6);
    if (text.length > MAX_CHARS || (!minor && text.length < MIN_CHARS)) return;
    if (/\?$/.test(text) || looksLikeInstruction(text)) return;
    if (!minor && words(text).length < 6) return;
    if (minor && words(text).length < 2) return;
    // A passage cut in the middle of a sentence starts with its lower-case tail: quoted as such (`…is to be processed`).
    const cut = position === 0 && /^\p{Ll}/u.test(text) && !/^\s*(\(?[a-z0-9]{1,4}\)|[-*•]|\d{1,3}\.)\s/.test(source.content);
    out.push({
      position,
      text: cut ? `…${text}` : text,
      leadIn,
      itemOf: leadIn ? null : itemOf,
      lead: leadIn ? null : itemLead,
      orphan: !leadIn && itemOf === null && /^\p{Ll}/u.test(text),
      minor,
      cell,
      index: indexPassage(source.title, source.section, text),
    });
  });
  if (sentenceCache.size >= CACHE_MAX) sentenceCache.delete(sentenceCache.keys().next().value!);
  sentenceCache.set(key, out);
  return out;
}

/** The source is the DORA article numbered `n`. */
const isArticle = (s: Source, n: string) => s.workspaceId === null && doraArticleOf(s.title) === n;

/** The sentences of the sources that can be quoted: statements of at least 6 words, nothing addressed to an assistant. */
export function unitsOf(sources: Source[]): Unit[] {
  return sources.flatMap((source) => sentencesOf(source).map((s) => ({ source, ...s })));
}

const isWorkspace = (s: Source) => s.workspaceId !== null;

/** Scores every sentence of the sources against the question's concepts. */
export function weighEvidence(reading: Reading, sources: Source[]): Evidence {
  const units = unitsOf(sources);
  const passages = new Map(sources.map((s) => [s.sourceNumber, passageIndexOf(s)]));
  const cs = reading.concepts;
  // The vendor's own names: proper names of the question that the workspace's sources hold and the corpus's do not.
  for (const entry of cs) {
    const c = entry.concept;
    if (entry.role !== 'ask' || c.entry || c.figure || !/^(\p{Lu}|\p{N}+\p{L})/u.test(c.label)) continue;
    const inScope = (ws: boolean) => sources.some((s) => isWorkspace(s) === ws && conceptIn(c, passages.get(s.sourceNumber)!));
    if (inScope(true) && !inScope(false)) {
      entry.role = 'vendor';
      reading.vendorByName = true;
      reading.namesVendor = true;
    }
  }
  const heldIn = (u: Unit, k: number): number => {
    const { concept, role } = cs[k]!;
    if (role === 'vendor' && isWorkspace(u.source)) return 1;
    const here = conceptIn(concept, u.index);
    // "Article 28": every sentence of Article 28 is the article's text; another article's
    // "referred to in Article 28(4)" is about that other article's own obligation.
    if (concept.figure && reading.analysis.articles.has(concept.label)) {
      if (isArticle(u.source, concept.label)) return 1;
      if (here === 'text') return META_CREDIT;
    }
    if (here === 'text') return 1;
    if (here === 'meta') return META_CREDIT;
    return conceptIn(concept, passages.get(u.source.sourceNumber)!) ? PASSAGE_CREDIT : 0;
  };
  const held = units.map((u) => cs.map((_, k) => heldIn(u, k)));
  const n = Math.max(1, units.length);
  const idf = new Map<string, number>();
  const missing: Concept[] = [];
  cs.forEach(({ concept, role }, k) => {
    const df = held.reduce((a, row) => a + (row[k]! >= 1 ? 1 : 0), 0);
    const anywhere = held.some((row) => row[k]! > 0);
    if (df > 0) idf.set(concept.key, Math.log(1 + n / (df + 0.5)));
    else if (!anywhere && role === 'ask') missing.push(concept);
  });
  const asked = cs.filter((c) => c.role === 'ask' && idf.has(c.concept.key)).map((c) => idf.get(c.concept.key)!);
  const mean = asked.length ? asked.reduce((a, b) => a + b, 0) / asked.length : Math.log(1 + n / 1.5);
  const weights = new Map<string, number>();
  const vendorNames = cs.filter((c) => c.role === 'vendor').length;
  for (const { concept, role } of cs) {
    // A concept of the domain (vocabulary), a figure or an abbreviation names exactly what is
    // asked: a passage without it does not answer. A plain word may be a way of asking.
    const specific = isSpecific(concept);
    const base = (specific ? SPECIFIC_WEIGHT : 1) * Math.min(idf.get(concept.key) ?? mean, 1.5 * mean);
    const w =
      role === 'frame'
        ? FRAME_WEIGHT * mean
        : role === 'vendor'
          ? (FRAME_WEIGHT * mean) / vendorNames
          : role === 'context'
            ? CONTEXT_WEIGHT * base
            : role === 'history'
              ? HISTORY_WEIGHT * base
              : base;
    weights.set(concept.key, Math.max(w, weights.get(concept.key) ?? 0));
  }
  const listed = new Set(units.filter((u) => u.itemOf !== null).map((u) => `${u.source.sourceNumber}:${u.itemOf}`));
  const total = cs.reduce((a, { concept }) => a + weights.get(concept.key)!, 0);
  const scored = units.map((unit, i) => {
    let got = 0;
    const keys = new Set<string>();
    cs.forEach(({ concept }, k) => {
      const credit = held[i]![k]!;
      if (!credit) return;
      keys.add(concept.key);
      got += credit * weights.get(concept.key)!;
    });
    const coverage = total ? got / total : 0;
    const definition = reading.analysis.asksDefinition && cs.some(({ concept, role }) => role === 'ask' && defines(concept, unit.index));
    // A question asking for the points of a list is answered by the lead-in that introduces them.
    // A "how often" question is answered by a sentence that states a frequency.
    const frequency = reading.asksFrequency && statesFrequency(unit.text);
    const bonus =
      definition || frequency || (reading.asksList && unit.leadIn && listed.has(`${unit.source.sourceNumber}:${unit.position}`)) ? DEFINITION_BONUS : 0;
    return { unit, coverage, held: keys, got, score: bonus + coverage * (0.85 + 0.15 * Math.min(1, Math.max(0, unit.source.score))) };
  });
  scored.sort((a, b) => b.score - a.score || a.unit.source.sourceNumber - b.unit.source.sourceNumber || a.unit.position - b.unit.position);
  const vendorWeight = cs.filter((c) => c.role === 'vendor').reduce((a, { concept }) => a + weights.get(concept.key)!, 0);
  return { reading, units, scored, weights, missing, total, vendorWeight };
}
