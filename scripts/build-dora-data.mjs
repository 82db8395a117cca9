#!/usr/bin/env node
/**
 * Builds the DORA reference data set (data/dora/articles.json) from the mirror
 * copies of Articles 1-45 of Regulation (EU) 2022/2554 (CELEX 32022R2554).
 *
 * Usage:  node scripts/build-dora-data.mjs [sourceDir]
 *   sourceDir defaults to ../shared/data/dora/source (relative to the repo root);
 *   a given sourceDir is resolved against the current working directory.
 *   No dependencies. Exits non-zero if any self-check fails (nothing is written then).
 *
 * Output: array of 45 objects ordered by number:
 *   { number, article: "Article <n>", title, chapter (roman), domain, text, obligations[] }
 *
 * CLEANING
 *   - mis-encoded characters: runs of UTF-8-read-as-Windows-1252/Latin-1 (â€™, â€“, â€œ, Ã©, Â ...)
 *     are re-decoded; non-breaking and other Unicode spaces become ' '; zero-width chars,
 *     BOM and soft hyphens are removed.
 *   - the heading line `**Article <n>, <title>**` is dropped (and any repetition of it);
 *     mirror notes/links (URLs, markdown links/images) are dropped and reported on stderr;
 *     markdown bold and backslash escapes are removed (`1\.` -> `1.`); whitespace-only lines dropped.
 *   - layout: each numbered paragraph ("1. ...") and each unnumbered subparagraph starts a block;
 *     blocks are separated by "\n\n". Points ((a), (i), (1), —) are each on their own line,
 *     joined to their block with "\n". A subparagraph that sits inside a list (the list resumes
 *     after it, e.g. Article 20 between (a)(iii) and (b)) is kept on its own line inside the block.
 *
 * OBLIGATION RULE
 *   Units: a block (numbered paragraph or subparagraph) without points is one unit, quoted whole
 *   with its number ("3. Financial entities shall ..."). A block with points yields one unit per
 *   leaf point: the block's lead-in, the lead-ins of the intermediate points and the leaf point,
 *   joined with a single space ("4. Before entering into ..., financial entities shall: (a) assess
 *   whether ..."). An unnumbered subparagraph inside a list is its own unit.
 *   A unit is an obligation when, after removing the non-prescriptive uses of "shall" listed in
 *   NON_PRESCRIPTIVE below, it still contains a prescriptive modal: "shall" (incl. "shall not",
 *   "shall ensure", ...), "must", "is/are required to", "may only" or "may not".
 *   Non-prescriptive "shall" = legal fictions and scoping: "shall be considered/deemed" (but
 *   "shall be considered in relation to" counts: it directs an assessment), "shall be without
 *   prejudice", "shall not apply", "the following definitions shall apply", "shall collectively
 *   be referred to as"; conferral of powers/jurisdiction: "shall have the following powers",
 *   "shall have the power to", "shall have jurisdiction"; "shall not create legal obligations".
 *   Excluded regardless: definition entries ("(n) ‘term’ means ...", Article 3).
 *   "Power is delegated/conferred on the Commission ..." and permissive "may" sentences are not
 *   obligations (no prescriptive modal). Extension clauses such as Article 23 ("The requirements
 *   laid down in this Chapter shall also apply to ...") DO count: they extend the Chapter's
 *   obligations to further entities. Obligations on any addressee count (financial entities,
 *   ICT third-party service providers, ESAs, Lead Overseer, competent authorities, Member States).
 *   Every obligation string is a verbatim quotation: each joined part is a line of `text`.
 *
 * SELF-CHECKS (exit 1 on failure): 45 articles numbered 1..45; domain counts 4/12/7/4/3/14/1;
 *   title/text non-empty and free of markup/mojibake/links; each obligation equals its parts
 *   joined by ' ' and each part occurs verbatim in `text` (in order); no duplicate obligations.
 */
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIR = process.argv[2] ? resolve(process.cwd(), process.argv[2]) : resolve(REPO_ROOT, '../shared/data/dora/source');
const OUT_FILE = join(REPO_ROOT, 'data/dora/articles.json');

const DOMAINS = [
  { domain: 'General Provisions', chapter: 'I', from: 1, to: 4 },
  { domain: 'ICT Risk Management', chapter: 'II', from: 5, to: 16 },
  { domain: 'Incident Reporting', chapter: 'III', from: 17, to: 23 },
  { domain: 'Resilience Testing', chapter: 'IV', from: 24, to: 27 },
  { domain: 'Third-Party Risk', chapter: 'V', from: 28, to: 30 },
  { domain: 'ICT Third-Party Oversight', chapter: 'V', from: 31, to: 44 },
  { domain: 'Information Sharing', chapter: 'VI', from: 45, to: 45 },
];
const EXPECTED_DOMAIN_COUNTS = {
  'General Provisions': 4,
  'ICT Risk Management': 12,
  'Incident Reporting': 7,
  'Resilience Testing': 4,
  'Third-Party Risk': 3,
  'ICT Third-Party Oversight': 14,
  'Information Sharing': 1,
};

const NON_PRESCRIPTIVE = [
  // legal fictions ("shall be considered a sector-specific Union legal act"), but not
  // "shall be considered in relation to ..." (= shall be taken into account)
  /\bshall (?:also )?be (?:considered|deemed|construed)\b(?! in\b)/gi,
  /\bshall be without prejudice\b/gi,
  /\bshall not (?:also )?apply\b/gi,
  /\bdefinitions shall apply\b/gi,
  /\bshall (?:collectively )?be referred to as\b/gi,
  /\bshall have (?:the following |the |unlimited )?(?:powers?|jurisdiction)\b/gi,
  /\bshall not create legal obligations\b/gi,
];
const PRESCRIPTIVE = /\bshall\b|\bmust\b|\b(?:is|are) required to\b|\bmay only\b|\bmay not\b/i;
const DEFINITION = /^\(\d+\) ‘[^’]+’ means\b/;

const failures = [];
const fail = (msg) => failures.push(msg);

// ---------------------------------------------------------------- encoding repair
// Windows-1252 code points 0x80-0x9F -> byte
const CP1252 = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};
const toByte = (ch) => {
  const cp = ch.codePointAt(0);
  if (cp in CP1252) return CP1252[cp];
  if (cp <= 0xff) return cp;
  return -1;
};
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
// A lead byte Â-ô (C2-F4) followed by as many continuation characters as its UTF-8 sequence
// needs (0x80-0xBF read as Latin-1/C1 controls or as their Windows-1252 look-alikes).
const CONT =
  '[\\u0080-\\u00BF\\u20AC\\u201A\\u0192\\u201E\\u2026\\u2020\\u2021\\u02C6\\u2030\\u0160\\u2039\\u0152\\u017D\\u2018\\u2019\\u201C\\u201D\\u2022\\u2013\\u2014\\u02DC\\u2122\\u0161\\u203A\\u0153\\u017E\\u0178]';
const MOJIBAKE = new RegExp(`[\\u00C2-\\u00DF]${CONT}|[\\u00E0-\\u00EF]${CONT}{2}|[\\u00F0-\\u00F4]${CONT}{3}|â€(?!${CONT})`, 'g');

function fixMojibake(s) {
  let prev;
  let out = s;
  // repeat to undo double encodings
  for (let i = 0; i < 3 && out !== prev; i++) {
    prev = out;
    out = out.replace(MOJIBAKE, (m) => {
      const bytes = [...m].map(toByte);
      if (bytes.includes(-1)) return m;
      try {
        return utf8Decoder.decode(Uint8Array.from(bytes));
      } catch {
        // "â€" whose last byte (0x9D, undefined in Windows-1252) was lost: right double quote
        return m === 'â€' ? '”' : m;
      }
    });
  }
  // a lone "Â" left before a (now) space is the remnant of a NBSP
  return out.replace(/Â(?=[ \u00A0])/g, '');
}

function normaliseChars(s) {
  return fixMojibake(s.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'))
    .replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000\t]/g, ' ')
    .replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, '');
}

// ---------------------------------------------------------------- markup
const HEADING = /^\s*\**\s*Article\s+(\d+)\s*,\s*(.+?)\s*\**\s*$/;
const MIRROR_LINE = /https?:\/\/|www\.|\]\(|^!?\[[^\]]*\]\s*$|^\s*\[[^\]]+\]:/i;

function unmark(line) {
  return (
    line
      .replace(/\*\*|__/g, '')
      .replace(/\\([\\`*_{}\[\]()#+\-.!>|~])/g, '$1')
      .replace(/ {2,}/g, ' ')
      .trim()
      // "(35)‘payment institution’" -> "(35) ‘payment institution’"; "1.Financial" -> "1. Financial"
      .replace(/^(\((?:\d+|[a-z]+)\))(?=\S)/, '$1 ')
      .replace(/^(\d+\.)(?=[^\s\d])/, '$1 ')
  );
}

// ---------------------------------------------------------------- structure
const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii', 'xiii', 'xiv', 'xv'];
const nextRoman = (r) => ROMAN[ROMAN.indexOf(r) + 1];
const nextLetter = (l) => String.fromCharCode(l.charCodeAt(0) + 1);

const PARA_RE = /^(\d+)\. /;
const POINT_RE = /^\(([a-z]+|\d+)\) /;
const DASH_RE = /^— /;

/** Classify lines into blocks/points and build the point tree. */
function parseStructure(lines, n) {
  const items = [];
  let letter = null; // last letter label seen in the current list context
  let roman = null; // last roman label seen
  let digit = null;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i];
    const prevEndsColon = i > 0 && /:$/.test(lines[i - 1]);
    let m;
    if ((m = PARA_RE.exec(text))) {
      items.push({ kind: 'para', label: m[1], level: 0, text });
      letter = roman = digit = null;
    } else if ((m = POINT_RE.exec(text))) {
      const label = m[1];
      let type;
      if (/^\d+$/.test(label)) type = 'digit';
      else if (roman && label === nextRoman(roman)) type = 'roman';
      else if (label === 'i' && prevEndsColon) type = 'roman';
      else if (label.length === 1 && (letter ? label === nextLetter(letter) : label === 'a')) type = 'letter';
      else if (ROMAN.includes(label)) type = 'roman';
      else type = 'letter';
      if (type === 'letter' && label === 'a' && letter && !prevEndsColon) {
        fail(`Article ${n}: point (a) restarts a list without a lead-in: ${text.slice(0, 60)}`);
      }
      if (type === 'letter') {
        letter = label;
        roman = null;
      }
      if (type === 'roman') roman = label;
      if (type === 'digit') {
        digit = label;
        roman = null;
        letter = null;
      }
      items.push({ kind: 'point', type, label, level: type === 'roman' ? 2 : 1, text });
    } else if (DASH_RE.test(text)) {
      const last = [...items].reverse().find((it) => it.kind === 'point');
      items.push({ kind: 'point', type: 'dash', label: '—', level: (last ? last.level : 0) + 1, text });
    } else {
      items.push({ kind: 'sub', level: 0, text });
    }
  }
  // A subparagraph is embedded in a list when the next item is a point that continues a list
  // (i.e. not a list start) — e.g. Article 20, between (a)(iii) and (b).
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (it.kind !== 'sub') continue;
    const next = items[i + 1];
    it.embedded = Boolean(next && next.kind === 'point' && !['a', 'i', '1', '—'].includes(next.label) && i > 0);
  }
  // Tree: stack[0] = current block lead-in, stack[k] = current point at level k.
  let stack = [];
  for (const it of items) {
    it.children = [];
    if (it.kind === 'para' || (it.kind === 'sub' && !it.embedded)) {
      stack = [it];
    } else if (it.kind === 'point') {
      const parentChain = stack.filter((s) => s.level < it.level);
      const parent = parentChain[parentChain.length - 1];
      if (!parent) fail(`Article ${n}: point without a lead-in: ${it.text.slice(0, 60)}`);
      else parent.children.push(it);
      it.ancestors = parentChain;
      stack = [...parentChain, it];
    }
  }
  return items;
}

function render(items) {
  let out = '';
  for (const it of items) {
    if (out === '') out = it.text;
    else if (it.kind === 'point' || it.embedded) out += '\n' + it.text;
    else out += '\n\n' + it.text;
  }
  return out;
}

function isObligation(parts) {
  const leaf = parts[parts.length - 1];
  if (DEFINITION.test(leaf)) return false;
  let s = parts.join(' ');
  for (const re of NON_PRESCRIPTIVE) s = s.replace(re, ' ');
  return PRESCRIPTIVE.test(s);
}

function obligationUnits(items) {
  const units = [];
  for (const it of items) {
    if (it.kind === 'point') {
      if (it.children.length === 0) units.push([...it.ancestors.map((a) => a.text), it.text]);
    } else if (it.children.length === 0) {
      units.push([it.text]);
    }
  }
  return units;
}

// ---------------------------------------------------------------- build
function buildArticle(n) {
  const file = join(SOURCE_DIR, `Article_${n}.md`);
  if (!existsSync(file)) {
    fail(`missing source file ${file}`);
    return null;
  }
  const raw = normaliseChars(readFileSync(file, 'utf8'));
  const rawLines = raw
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .filter((l) => l.trim() !== '');

  const h = HEADING.exec(rawLines[0] ?? '');
  if (!h) {
    fail(`Article ${n}: first line is not a heading: ${rawLines[0]}`);
    return null;
  }
  if (Number(h[1]) !== n) fail(`Article ${n}: heading names Article ${h[1]}`);
  const title = unmark(h[2]);

  const lines = [];
  for (const l of rawLines.slice(1)) {
    const hh = HEADING.exec(l);
    if (hh && Number(hh[1]) === n) continue; // repeated heading
    if (/^\s*\**\s*Article\s+\d+\s*\**\s*$/.test(l)) continue; // bare "Article n" heading
    if (MIRROR_LINE.test(l)) {
      console.error(`Article ${n}: dropped mirror line: ${l}`);
      continue;
    }
    const u = unmark(l);
    if (u !== '') lines.push(u);
  }

  const items = parseStructure(lines, n);
  const text = render(items);
  const units = obligationUnits(items).filter(isObligation);

  const { domain, chapter } = DOMAINS.find((d) => n >= d.from && n <= d.to);
  return {
    article: {
      number: n,
      article: `Article ${n}`,
      title,
      chapter,
      domain,
      text,
      obligations: units.map((p) => p.join(' ')),
    },
    units,
  };
}

// ---------------------------------------------------------------- checks
const BAD_TEXT = [
  [/[âÃÂ]/, 'mojibake'],
  [/\uFFFD/, 'replacement character'],
  [/\\/, 'backslash'],
  [/\*/, 'asterisk/bold markup'],
  [/\[|\]/, 'link markup'],
  [/https?:|www\./i, 'URL'],
  [/[\u00A0\u200B\u00AD\t]/, 'special space'],
  [/ {2,}/, 'double space'],
  [/ \n|\n /, 'space at line edge'],
  [/\n{3,}/, 'more than one blank line'],
];

function checkArticle(a, units) {
  const where = `Article ${a.number}`;
  if (!a.title) fail(`${where}: empty title`);
  if (!a.text) fail(`${where}: empty text`);
  for (const [re, what] of BAD_TEXT) {
    if (re.test(a.text)) fail(`${where}: text contains ${what}: ${a.text.match(re)[0]}`);
    if (re.test(a.title)) fail(`${where}: title contains ${what}`);
  }
  if (a.text !== a.text.trim()) fail(`${where}: text not trimmed`);
  if (a.number !== 3 && /^.{0,3}\d+\.\s*$/m.test(a.text)) fail(`${where}: empty numbered paragraph`);
  const lines = a.text.split('\n');
  units.forEach((parts, i) => {
    const ob = a.obligations[i];
    if (ob !== parts.join(' ')) fail(`${where}: obligation ${i} is not its parts joined`);
    let from = 0;
    for (const part of parts) {
      if (!a.text.includes(part)) fail(`${where}: obligation part not verbatim in text: ${part.slice(0, 80)}`);
      const idx = lines.indexOf(part, from);
      if (idx < 0) fail(`${where}: obligation part not a text line in order: ${part.slice(0, 80)}`);
      else from = idx;
    }
  });
  if (new Set(a.obligations).size !== a.obligations.length) fail(`${where}: duplicate obligations`);
}

// ---------------------------------------------------------------- main
const built = [];
for (let n = 1; n <= 45; n++) {
  const b = buildArticle(n);
  if (b) {
    checkArticle(b.article, b.units);
    built.push(b.article);
  }
}

if (built.length !== 45) fail(`expected 45 articles, got ${built.length}`);
built.forEach((a, i) => {
  if (a.number !== i + 1) fail(`articles out of order at index ${i}: ${a.number}`);
});
const counts = {};
for (const a of built) counts[a.domain] = (counts[a.domain] ?? 0) + 1;
for (const [d, c] of Object.entries(EXPECTED_DOMAIN_COUNTS)) {
  if (counts[d] !== c) fail(`domain ${d}: expected ${c} articles, got ${counts[d] ?? 0}`);
}
if (Object.keys(counts).length !== 7) fail(`expected 7 domains, got ${Object.keys(counts).length}`);

if (failures.length) {
  console.error(`build-dora-data: ${failures.length} check(s) failed:`);
  for (const f of failures) console.error('  - ' + f);
  process.exit(1);
}

mkdirSync(dirname(OUT_FILE), { recursive: true });
writeFileSync(OUT_FILE, JSON.stringify(built, null, 2) + '\n', 'utf8');

const obCounts = built.map((a) => a.obligations.length);
const none = built.filter((a) => a.obligations.length === 0).map((a) => a.number);
console.log(
  `wrote ${OUT_FILE}: ${built.length} articles, ${obCounts.reduce((x, y) => x + y, 0)} obligations ` +
    `(min ${Math.min(...obCounts)}, max ${Math.max(...obCounts)}); ` +
    `articles without obligations: ${none.length ? none.join(', ') : 'none'}`,
);
