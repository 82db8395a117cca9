import { terms } from './text.js';

/**
 * Passages that say opposite things about the same words (docs/rag.md, "Contradicting
 * passages"): one sentence denies what another states ("Our application databases are not
 * encrypted at rest" beside "files … are encrypted at rest"). The answer and the validation
 * flag them: an analyst reading only one of the two would be misled, even when the two speak
 * of different things (files and databases), which the flag's wording leaves to the reader.
 */

/** A negation and the words it denies: `not encrypted at rest`, `isn’t possible`, `never sold`. */
const DENIAL =
  /\b(?:not|never|no longer|isn['’]t|aren['’]t|wasn['’]t|weren['’]t|won['’]t|doesn['’]t|don['’]t|cannot|can['’]t)\s+(?:be\s+|been\s+|currently\s+|generally\s+|always\s+|yet\s+)*((?:[\p{L}\p{N}-]+\s+){0,3}[\p{L}\p{N}-]+)/giu;
/** A negation just before a place in a sentence. */
const NEGATED_BEFORE = /\b(not|never|no|n['’]t|cannot|without)\b[^.;:]{0,25}$/i;

export interface Contradiction {
  /** The sentence that denies, and the one that states. */
  denies: { text: string; source: number };
  states: { text: string; source: number };
  /** The words denied, as written (`encrypted at rest`). */
  words: string;
}

/** The stems denied in a sentence, each with its words as written; at least two content stems each. */
function denials(text: string): { stems: string[]; words: string }[] {
  const out: { stems: string[]; words: string }[] = [];
  for (const m of text.matchAll(DENIAL)) {
    // The phrase stops at a dash or a comma: `not encrypted at rest — the information…`.
    const phrase = m[1]!.split(/\s[-—–]\s|,/)[0]!.trim();
    const stems = [...new Set(terms(phrase))].slice(0, 3);
    if (stems.length >= 2) out.push({ stems, words: phrase });
  }
  return out;
}

/**
 * The sentence states the stems: in their order, each within two words of the one before
 * ("encrypted at rest", not "delete Customer's profile and the Content"), with no negation
 * just before them.
 */
function states(text: string, stems: string[]): boolean {
  const words = [...text.matchAll(/[\p{L}\p{N}]+/gu)];
  const ts = words.map((w) => terms(w[0])[0] ?? null);
  for (let i = 0; i < ts.length; i++) {
    if (ts[i] !== stems[0]) continue;
    let at = i;
    let ok = true;
    for (const s of stems.slice(1)) {
      let found = -1;
      for (let k = at + 1; k <= Math.min(ts.length - 1, at + 3); k++) {
        if (ts[k] === s) {
          found = k;
          break;
        }
      }
      if (found < 0) {
        ok = false;
        break;
      }
      at = found;
    }
    if (ok && !NEGATED_BEFORE.test(text.slice(0, words[i]!.index))) return true;
  }
  return false;
}

/** Pairs of sentences (each with its source number) where one denies what the other states. */
export function contradictions(sentences: { text: string; source: number }[]): Contradiction[] {
  const out: Contradiction[] = [];
  for (const a of sentences) {
    for (const d of denials(a.text)) {
      const b = sentences.find(
        (s) => s !== a && s.text !== a.text && states(s.text, d.stems) && !denials(s.text).some((x) => x.stems.join() === d.stems.join()),
      );
      if (b && !out.some((c) => c.words === d.words)) out.push({ denies: a, states: b, words: d.words });
    }
  }
  return out;
}
