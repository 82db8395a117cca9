import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stemmer } from 'stemmer';
import stopword from 'stopword';
import { perWord } from './text.js';

/**
 * The concepts of a question (docs/retrieval.md, "Vocabulary"). A question is read as a
 * set of concepts: the domain vocabulary (src/rag/vocabulary.json: DORA's defined terms
 * and contract wordings, each with the words analysts use for them) groups the words
 * that name one thing ("board" and "management body", "pen test" and "TLPT"); every
 * other content word is a concept of its own (Porter stem). Words that only frame the
 * question ("what does DORA say", "is it required") are kept apart with a low weight.
 * The same concepts drive the query of both retrieval arms, the rerank of the fused
 * candidates and the answerability of the extractive answer.
 */

export interface VocabularyEntry {
  id: string;
  /** Where the concept is defined or worded (`DORA Article 3(19)`, `vendor contract wording`). */
  source: string;
  /** Wordings found in the documents. */
  terms: string[];
  /** Words analysts use for it; all-capital abbreviations are matched case-sensitively. */
  aliases?: string[];
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const VOCABULARY_FILE = path.join(here, 'vocabulary.json');

const STOP = new Set<string>([
  ...stopword.eng,
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'when',
  'where',
  'why',
  'how',
  'does',
  'do',
  'did',
  'can',
  'could',
  'should',
  'would',
  'shall',
  'may',
  'might',
  'must',
  'will',
  'tell',
  'own',
  'explain',
  'describe',
  'please',
  'according',
  'regarding',
  'about',
  'there',
  'any',
  'also',
  'etc',
  'much',
  'many',
  'get',
  'gets',
  'got',
  'happen',
  'happens',
  'know',
  'apply',
  'applies',
  'applied',
  'use',
  'uses',
  'used',
  'using',
  'based',
  'need',
  'needs',
  'needed',
  'want',
  'wants',
  'like',
  'actually',
  'really',
  'exactly',
  'currently',
  'still',
  'ever',
  'already',
  'able',
  'way',
  'ways',
  'thing',
  'things',
  'something',
  'anything',
  'everything',
  'whether',
  'whole',
  'us',
  'let',
  'lets',
  'make',
  'makes',
  'go',
  'goes',
  'going',
  'give',
  'gives',
  'given',
  'put',
  'come',
  'comes',
  'kind',
  'kinds',
  'sort',
  'lot',
  'bit',
  'end',
  'ends',
  'far',
  'often',
  'long',
  'quickly',
  'soon',
  'fast',
  'just',
  'its',
  'itself',
  'ours',
  'yours',
  'theirs',
  'whatever',
  'else',
  'themselves',
  'ourselves',
  'yourself',
  'yourselves',
  'himself',
  'herself',
  're',
  've',
  'll',
  'don',
  'doesn',
  'isn',
  'aren',
  'won',
  'didn',
  'hasn',
  'haven',
  "can't",
  'during',
  'within',
  'upon',
  'via',
  'per',
  'among',
  'amongst',
  'across',
  'toward',
  'towards',
  'onto',
  'throughout',
  'several',
  'various',
  'certain',
  'either',
  'every',
  'whereas',
  'therefore',
  'however',
  'although',
  'though',
  'unless',
  'until',
  'regardless',
  'rely',
  'relies',
  'relying',
  'type',
  'types',
  'example',
  'examples',
  'instance',
  'overall',
]);

/**
 * Words that frame a question rather than name what it asks about: a passage need not
 * hold them, and their absence never makes a question unanswered.
 */
const FRAME = new Set<string>(
  [
    'dora',
    'regulation',
    'regulations',
    'rule',
    'rules',
    'article',
    'articles',
    'define',
    'defines',
    'defined',
    'definition',
    'mean',
    'means',
    'meaning',
    'meant',
    'require',
    'requires',
    'required',
    'requirement',
    'requirements',
    'expect',
    'expects',
    'expected',
    'expectation',
    'expectations',
    'obligation',
    'obligations',
    'oblige',
    'obliged',
    'mandatory',
    'compulsory',
    'say',
    'says',
    'said',
    'specify',
    'specifies',
    'count',
    'counts',
    'counted',
    'qualify',
    'qualifies',
    'consider',
    'considered',
    'term',
    'terms',
    'sense',
    'allowed',
    'allow',
    'allows',
    'permitted',
    'stand',
    'view',
    'actual',
    'comply',
    'compliant',
    'cover',
    'covers',
    'covered',
    'include',
    'includes',
    'contain',
    'contains',
    'provide',
    'provides',
    'exist',
    'exists',
    'regard',
    'fall',
    'falls',
    'caught',
    'matter',
    'matters',
    'compare',
    'compared',
    'comparison',
    'difference',
    'differ',
    'differs',
    'versus',
    'vs',
    // `Art. 30`: the abbreviation of "Article".
    'art',
    // Instructions about the form of the answer ("summarise", "list", "a table of", "bullet
    // list please"): what to do with the passages, never a concept they must hold.
    'summarise',
    'summarize',
    'summary',
    'list',
    'outline',
    'overview',
    'enumerate',
    'table',
    'checklist',
    'bullet',
    'timeline',
    'step',
    'break',
    'breakdown',
    'short',
    'brief',
    'question',
    'questions',
    'show',
    'walk',
  ].map((w) => stemmer(w)),
);

/**
 * The verb of a comparison as analysts phrase it ("how does DORA sit alongside NIS2", "how does
 * that square with our duties", "does it fit DORA's requirement"): it frames the question.
 */
const RELATION =
  /\b(sit|sits|square|squares|fit|fits|stack|stacks|align|aligns|line|lines|match|matches|measure|measures|relate|relates|interact|interacts|overlap|overlaps|work|works|tie|ties|play|plays|compare|compares|hold|holds)\s+(?:up\s+)?(?:with|alongside|against|to|into|beside|next|under)\b|\b(fit|fits|meet|meets|satisfy|satisfies)\s+(?=\S+['’]s\b|DORA|the\s+(?:regulation|requirement|rules?))/gi;

export interface Token {
  /** As written. */
  raw: string;
  lower: string;
  /** Light normalisation for vocabulary phrases: lower case, plural `s` removed. */
  light: string;
  /** Porter stem. */
  stem: string;
  /** An abbreviation written in capitals (`IT`, `RTO`). */
  upper: boolean;
  /** A capitalised word inside a sentence (`Basecamp Big`): a proper name. */
  name: boolean;
}

const WORD = /[\p{L}\p{N}]+(?:[.,][\p{N}]+)*/gu;
const BACK_UP = /\bback(?:s|ed|ing)?[\s-]+up\b/gi;
const GET_BACK_TO = /\b(?:get|gets|getting|got|gotten)\s+back\s+to\b/gi;
/**
 * "back up", "backed up", "back-up" is one word, and "get back to (you)" is replying: without
 * it, the stop words gone, "back up our data" and "we get back to you" would both be "claim back".
 */
const phrased = (text: string) => (/\bback/i.test(text) ? text.replace(BACK_UP, 'backup').replace(GET_BACK_TO, 'reply to') : text);

export function light(word: string): string {
  const w = word.toLowerCase();
  if (/^\p{N}/u.test(w) || w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}

// A Porter stem of two letters from a longer word (`adding` → `ad`) meets unrelated words
// (`ads`): such a word keeps its light form.
const stemOf = (lower: string) => {
  if (/^\p{N}/u.test(lower)) return lower;
  const s = stemmer(lower);
  return s.length < 3 && lower.length > 4 ? light(lower) : s;
};

/** What `tokens` derives from a word as written, whatever its place in the text. */
interface WordForms {
  lower: string;
  light: string;
  stem: string;
  upper: boolean;
  /** A stop word or a single letter: not a content token (unless kept as an abbreviation). */
  stop: boolean;
  /** Starts with a capital followed by a small letter: a proper name where it is not the first word of a sentence. */
  capitalised: boolean;
}

/**
 * Word forms by word as written. Passages repeat their words (and the rerank reads every
 * candidate of a question, most of them new to the process): stemming each word once per
 * process instead of once per occurrence halves the rerank's time.
 */
const formsOf = perWord((raw: string): WordForms => {
  const lower = raw.toLowerCase();
  return {
    lower,
    light: light(lower),
    stem: stemOf(lower),
    upper: raw.length >= 2 && /\p{Lu}/u.test(raw) && raw === raw.toUpperCase(),
    stop: STOP.has(lower) || (lower.length < 2 && !/\p{N}/u.test(lower)),
    capitalised: /^\p{Lu}\p{Ll}/u.test(raw),
  };
});

/**
 * Content tokens of a text: stop words dropped; with `keepCaps` (questions), abbreviations
 * written in capitals are kept even when they spell a stop word (`IT`).
 */
export function tokens(written: string, keepCaps = false): Token[] {
  const out: Token[] = [];
  const text = phrased(written);
  for (const m of text.matchAll(WORD)) {
    const raw = m[0];
    const f = formsOf(raw);
    if (f.stop && !(keepCaps && f.upper)) continue;
    const name = f.capitalised && m.index! > 0 && !/[.?!:"“‘(-]\s*$/.test(text.slice(Math.max(0, m.index! - 4), m.index));
    out.push({ raw, lower: f.lower, light: f.light, stem: f.stem, upper: f.upper, name });
  }
  return out;
}

interface Form {
  /** An analyst's word (alias) rather than a document wording (term). */
  alias: boolean;
  /** Light tokens of the wording. */
  words: string[];
  /** Per word: must be written in capitals in the question. */
  caps: boolean[];
  /** Per word: written in lower case in an alias (never a proper name: "big outage" is not "Basecamp Big"). */
  common: boolean[];
}

interface CompiledEntry {
  entry: VocabularyEntry;
  /** Wordings that trigger the concept in a question (terms and aliases). */
  triggers: Form[];
  /** Wordings that realise the concept in a passage, as padded light-token strings. */
  realisations: string[];
}

function formOf(text: string, alias: boolean): Form | null {
  const toks = tokens(text, alias);
  if (!toks.length) return null;
  return { alias, words: toks.map((t) => t.light), caps: toks.map((t) => alias && t.upper), common: toks.map((t) => alias && t.raw === t.lower) };
}

let compiled: CompiledEntry[] | null = null;
/** The triggers of the vocabulary by their first word, in vocabulary order (a question's words look up only their own). */
let triggersByFirstWord: Map<string, { ce: CompiledEntry; f: Form }[]> | null = null;

export function vocabulary(): VocabularyEntry[] {
  return (JSON.parse(readFileSync(VOCABULARY_FILE, 'utf8')) as { entries: VocabularyEntry[] }).entries;
}

function compile(): CompiledEntry[] {
  if (compiled) return compiled;
  compiled = vocabulary().map((entry) => {
    const triggers = [...entry.terms.map((t) => formOf(t, false)), ...(entry.aliases ?? []).map((a) => formOf(a, true))].filter((f): f is Form => f !== null);
    const realisations = [...new Set(triggers.map((f) => ` ${f.words.join(' ')} `))];
    return { entry, triggers, realisations };
  });
  return compiled;
}

function triggerIndex(): Map<string, { ce: CompiledEntry; f: Form }[]> {
  if (triggersByFirstWord) return triggersByFirstWord;
  const index = new Map<string, { ce: CompiledEntry; f: Form }[]>();
  for (const ce of compile()) {
    for (const f of ce.triggers) {
      const list = index.get(f.words[0]!);
      if (list) list.push({ ce, f });
      else index.set(f.words[0]!, [{ ce, f }]);
    }
  }
  triggersByFirstWord = index;
  return index;
}

export interface Concept {
  /** `vocabulary:<id>` or `stem:<stem>`. */
  key: string;
  /** The words of the question that name it. */
  label: string;
  /** Vocabulary entry, when the concept is one. */
  entry?: VocabularyEntry;
  /** Realisations in a passage: padded light-token strings (vocabulary) or one Porter stem. */
  realisations: string[];
  stem?: string;
  /** Frames the question (weight low, never "missing"). */
  frame: boolean;
  /** A figure (`28`, `99.9`). */
  figure: boolean;
  /** Names the workspace's vendor ("the vendor"): every passage of the workspace is about it. */
  vendor?: boolean;
}

export interface QuestionAnalysis {
  question: string;
  concepts: Concept[];
  /** Document wordings of the vocabulary concepts, added to both retrieval arms. */
  expansions: string[];
  /** The question names DORA, the regulation or an article. */
  namesDora: boolean;
  /** The question points at the workspace's vendor ("the vendor", "this supplier"). */
  namesVendor: boolean;
  /** The question asks what something is or means (a definition answers it). */
  asksDefinition: boolean;
  /** The question asks where something is (a place answers it). */
  asksPlace: boolean;
  /**
   * DORA article numbers the question names (`Article 28`, `Art. 30(2)`): the number is held by
   * that article's own text, not by another passage's cross-reference to it (the rerank gives
   * such a reference no credit, the extractive answer partial credit). Empty when the question
   * names another act (`Article 28 GDPR`).
   */
  articles: Set<string>;
}

/**
 * Where something is kept, run or based ("Where are the data centres?", "In which countries is
 * our data stored?"): a place answers. Not "Does the contract have to say where data is stored?".
 */
export const PLACE_QUESTION =
  /(?:^|[.?!]\s+)(?:and\s+)?where\b.{0,60}\b(located|hosted|stored|kept|based|processed|data cent(er|re)s?|servers?|headquartered|established|incorporated)\b|\b(in\s+)?(which|what)\s+(countr(y|ies)|regions?|locations?|cit(y|ies))\b/i;
const DEFINITION_QUESTION =
  /^\s*(what|who)\s*(is|are|'s|’s)\b|\bwhat\s+(does|do)\b.*\bmean\b|\bmeaning of\b|\bdefin(e|es|ed|ition)\b|\b(count|counts|qualify|qualifies|considered)\s+as\b/i;

/** "the vendor", "this supplier's": in a vendor workspace, the workspace's vendor. */
const VENDOR_REFERENCE = /\b(the|this|that)\s+(vendor|supplier|provider|service provider)(['’]s)?(?!\s*s\b)(?=[\s?.,!;:]|$)/i;

const DORA_NAMED = /\b(DORA|Digital Operational Resilience Act|2022\/2554|the regulation|this regulation|Article\s+\d+|Art\.\s*\d+)\b/i;
const DORA_ACRONYM = /\b(RTS|ITS)\b/;
/** `Article 28`, `Art. 30(2)`: the article number. */
const ARTICLE_NAMED = /\bArt(?:icle|\.)\s*(\d{1,3})\b/gi;
/** The number of the DORA article a corpus document's title names (`DORA Article 28: General principles`). */
export const doraArticleOf = (title: string): string | undefined => /^DORA Article (\d+)\b/.exec(title)?.[1];
/** Another act whose articles a question may name. */
const OTHER_ACT = /\b(GDPR|General Data Protection Regulation|2016\/679|NIS\s?2|2022\/2555|MiCA|PSD2|AI Act)\b/i;

/** A "how often" question. */
const HOW_OFTEN = /\bhow\s+(often|frequently|regularly)\b|\b(at\s+)?what\s+(frequency|interval)\b/i;
/** A frequency stated as one (`at least yearly`, `every 3 years`, `once a week`, `daily`); "regularly" is not one. */
const STATED_FREQUENCY =
  /\b(daily|weekly|fortnightly|monthly|quarterly|yearly|annually|semi-annually)\b|\b(once|twice)\s+(a|per|every|each)\s+(day|week|month|quarter|year)\b|\bevery\s+(\d+|two|three|four|five|six|twelve|other)?\s*(days?|weeks?|months?|quarters?|years?)\b|\b(each|per)\s+(year|annum|quarter|month|week)\b/i;

/** The question asks how often (`how often`, `how frequently`, `at what interval`). */
export const asksFrequency = (question: string) => HOW_OFTEN.test(question);
/** The text states a frequency: it answers a "how often" question. */
export const statesFrequency = (text: string) => STATED_FREQUENCY.test(text);

const TELL_US = /\b(tells?|let)\s+(us|them|you|customers?|the customer|clients?|the client)(\s+know)?\b/gi;

/** The concepts of a question. */
export function analyseQuestion(asked: string): QuestionAnalysis {
  // "Tell us" / "let us know" is notifying (the instruction "tell me about" stays a frame word).
  const question = asked.replace(TELL_US, 'notify $2');
  const toks = tokens(question, true);
  const used = new Array<boolean>(toks.length).fill(false);
  const matches: { start: number; len: number; entry: CompiledEntry; alias: boolean }[] = [];
  const index = triggerIndex();
  for (let i = 0; i < toks.length; i++) {
    for (const { ce, f } of index.get(toks[i]!.light) ?? []) {
      if (i + f.words.length > toks.length) continue;
      let ok = true;
      for (let j = 0; j < f.words.length && ok; j++) {
        const t = toks[i + j]!;
        ok = t.light === f.words[j] && (!f.caps[j] || t.upper) && !(f.common[j] && t.name);
      }
      // A lower-case word written in capitals in the question still matches (`ICT`), but a
      // capitals-only alias (`IT`) never matches the pronoun `it`.
      if (ok) matches.push({ start: i, len: f.words.length, entry: ce, alias: f.alias });
    }
  }
  // Longest first, then leftmost; the sort is stable, so equal matches keep the vocabulary's order.
  matches.sort((a, b) => b.len - a.len || a.start - b.start);
  const byEntry = new Map<string, Concept>();
  const viaAlias = new Set<string>();
  const order: { pos: number; concept: Concept }[] = [];
  for (const m of matches) {
    if (used.slice(m.start, m.start + m.len).some(Boolean)) continue;
    for (let k = m.start; k < m.start + m.len; k++) used[k] = true;
    const label = toks
      .slice(m.start, m.start + m.len)
      .map((t) => t.raw)
      .join(' ');
    if (m.alias) viaAlias.add(m.entry.entry.id);
    const existing = byEntry.get(m.entry.entry.id);
    if (existing) {
      existing.label += ` / ${label}`;
      continue;
    }
    const c: Concept = { key: `vocabulary:${m.entry.entry.id}`, label, entry: m.entry.entry, realisations: m.entry.realisations, frame: false, figure: false };
    byEntry.set(m.entry.entry.id, c);
    order.push({ pos: m.start, concept: c });
  }
  const relation = new Set([...question.matchAll(RELATION)].map((m) => (m[1] ?? m[2])!.toLowerCase()));
  const byStem = new Map<string, Concept>();
  toks.forEach((t, i) => {
    if (used[i]) return;
    if (t.upper && STOP.has(t.lower)) return; // `IT` that no vocabulary entry took
    const existing = byStem.get(t.stem);
    if (existing) return;
    const figure = /^\p{N}+(?:[.,]\p{N}+)*$/u.test(t.lower);
    const c: Concept = { key: `stem:${t.stem}`, label: t.raw, realisations: [t.stem], stem: t.stem, frame: FRAME.has(t.stem) || relation.has(t.lower), figure };
    byStem.set(t.stem, c);
    order.push({ pos: i, concept: c });
  });
  order.sort((a, b) => a.pos - b.pos);
  const concepts = order.map((o) => o.concept);
  const namesVendor = VENDOR_REFERENCE.test(question);
  if (namesVendor) {
    // "the vendor" points at the workspace's vendor, whose documents do not call it a vendor.
    for (const c of concepts)
      if (c.entry?.id === 'ict-third-party-service-provider' && /^(vendor|supplier|provider|service provider)$/i.test(c.label)) c.vendor = true;
  }
  // Only the concepts the question names in an analyst's words need the documents' wording added.
  const expansions = [...byEntry.values()].filter((c) => viaAlias.has(c.entry!.id)).map((c) => c.entry!.terms[0]!);
  return {
    question,
    concepts,
    expansions,
    namesDora: DORA_NAMED.test(question) || DORA_ACRONYM.test(question),
    namesVendor,
    asksDefinition: DEFINITION_QUESTION.test(question),
    asksPlace: PLACE_QUESTION.test(question),
    articles: OTHER_ACT.test(question) ? new Set() : new Set([...question.matchAll(ARTICLE_NAMED)].map((m) => m[1]!)),
  };
}

/** What a passage offers for concept matching (computed once per chunk and cached by the caller). */
export interface PassageIndex {
  /** Padded light tokens of the text. */
  light: string;
  lightMeta: string;
  stems: Set<string>;
  metaStems: Set<string>;
  /** Terms the passage defines (`‘microenterprise’ means ...`), as padded light tokens. */
  defines: string[];
}

/** `‘term’ means`, `“Term” means`, `"Term" (the "X") shall mean`: a definition. */
const DEFINITION = /[‘“"]\s*([^‘’“”"\n]{2,120}?)\s*[’”"]\**\s*(?:\([^)]{0,60}\)\s*)?(?:means|shall mean|refers to|is defined as|(?:is|are) (?:a|an|the)\b)\b/g;

/** Content word forms of a text (what `tokens` keeps, without the place of each word). */
function contentForms(text: string): WordForms[] {
  const out: WordForms[] = [];
  for (const raw of phrased(text).match(WORD) ?? []) {
    const f = formsOf(raw);
    if (!f.stop) out.push(f);
  }
  return out;
}

const padded = (forms: WordForms[]) => ` ${forms.map((f) => f.light).join(' ')} `;

/** The title-and-headings part of passage indexes, by title and section (every sentence of a passage shares it). */
const metaIndexes = new Map<string, Pick<PassageIndex, 'lightMeta' | 'metaStems'>>();
const META_MAX = 10_000;

function metaIndexOf(title: string, section: string): Pick<PassageIndex, 'lightMeta' | 'metaStems'> {
  const key = `${title}\u0000${section}`;
  let m = metaIndexes.get(key);
  if (!m) {
    const meta = contentForms(`${title} ${section}`);
    m = { lightMeta: padded(meta), metaStems: new Set(meta.map((f) => f.stem)) };
    if (metaIndexes.size >= META_MAX) metaIndexes.clear();
    metaIndexes.set(key, m);
  }
  return m;
}

export function indexPassage(title: string, section: string, content: string): PassageIndex {
  const body = contentForms(content);
  const defines = [...content.matchAll(DEFINITION)].map((m) => padded(contentForms(m[1]!)));
  return { light: padded(body), ...metaIndexOf(title, section), stems: new Set(body.map((f) => f.stem)), defines };
}

/** The passage defines the concept. */
export function defines(c: Concept, p: PassageIndex): boolean {
  if (!p.defines.length) return false;
  if (c.stem !== undefined) return p.defines.some((d) => tokens(d).some((t) => t.stem === c.stem));
  return p.defines.some((d) => c.realisations.some((r) => d.includes(r)));
}

/** Where a passage holds a concept: in its text, only in its title or headings, or not at all. */
export function conceptIn(c: Concept, p: PassageIndex): 'text' | 'meta' | null {
  if (c.stem !== undefined) {
    if (p.stems.has(c.stem)) return 'text';
    return p.metaStems.has(c.stem) ? 'meta' : null;
  }
  if (c.realisations.some((r) => p.light.includes(r))) return 'text';
  return c.realisations.some((r) => p.lightMeta.includes(r)) ? 'meta' : null;
}

/** Most concepts that get a full-text ranking of their own. */
export const MAX_TEXT_CONCEPTS = 8;

const phrase = (text: string) => {
  const words = [...text.matchAll(WORD)].map((m) => m[0]);
  return words.length > 1 ? `"${words.join(' ')}"` : (words[0] ?? '');
};

/**
 * One full-text query (websearch syntax) per concept of the question, frame words left
 * out: a vocabulary concept is any of its wordings (phrases in quotes), another concept
 * its word. A question made only of frame words is searched with all its words.
 */
export function conceptQueries(a: QuestionAnalysis): string[] {
  const out: string[] = [];
  for (const c of a.concepts) {
    if (c.frame) continue;
    if (c.entry) {
      // Document wordings, the question's own words, and the analysts' words that are not abbreviations.
      const aliases = (c.entry.aliases ?? []).filter((x) => !/\b\p{Lu}{2,}\b/u.test(x));
      const wordings = [...c.entry.terms, ...aliases].map(phrase);
      // The question's own words, but not one word cut from a wording ("back" of "back up", whose "up" is a stop
      // word): alone it matches every "claim back".
      const own = c.label
        .split(' / ')
        .map(phrase)
        .filter((l) => /\s/.test(l) || wordings.includes(l) || !wordings.some((w) => w.replace(/"/g, '').split(' ').includes(l)));
      const forms = [...c.entry.terms.map(phrase), ...own, ...aliases.map(phrase)].filter(Boolean);
      out.push([...new Set(forms)].join(' or '));
    } else {
      out.push(c.label);
    }
    if (out.length >= MAX_TEXT_CONCEPTS) break;
  }
  // A question asking what something is: the passage defining it (`‘critical or important
  // function’ means`) holds one more concept than the many that merely use the term.
  if (a.asksDefinition) {
    const defined = a.concepts.find((c) => !c.frame && !c.figure && (c.entry || c.stem));
    const forms = defined?.entry ? defined.entry.terms.slice(0, 2) : defined ? [defined.label] : [];
    if (forms.length) out.push(forms.map((f) => phrase(`${f} means`)).join(' or '));
  }
  // A question asking where: the passage under "Data Location" or saying where things are located.
  if (a.asksPlace) out.push('location or locations or located');
  return out.length ? out : [searchText(a)];
}

/**
 * The full-text query (websearch syntax): the question's words and the document
 * wordings of its vocabulary concepts, joined by `or` (a passage needs only some of
 * them; ts_rank_cd ranks passages with more, and closer, matches first).
 */
export function searchText(a: QuestionAnalysis): string {
  const words = [...a.question.matchAll(WORD)].map((m) => m[0]);
  for (const e of a.expansions) for (const m of e.matchAll(WORD)) words.push(m[0]);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of words) {
    const k = w.toLowerCase();
    if (seen.has(k) || (STOP.has(k) && !(w.length >= 2 && w === w.toUpperCase() && /\p{Lu}/u.test(w)))) continue;
    seen.add(k);
    out.push(w);
  }
  return out.slice(0, 64).join(' or ');
}

/** The text the embedder reads for a question: the question, then the wordings of its concepts. */
export function embeddingQuery(a: QuestionAnalysis): string {
  return a.expansions.length ? `${a.question}\n${a.expansions.join('\n')}` : a.question;
}
