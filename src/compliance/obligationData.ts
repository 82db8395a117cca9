import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/**
 * The shape of obligations.json (the DORA obligations a vendor's documents can evidence, as
 * data: docs/assessments.md) and its reading into the engine's obligations: the file is checked
 * against the schema below and every regular expression is compiled once, so a mistake in the
 * file stops the process at start, naming the obligation and element it is in.
 *
 * A pattern is the source of a regular expression, read with the file's `flags` ("i"), or an
 * object `{ source, flags }` for other flags. Flags `g` and `y` are refused: the engine shares
 * its expressions, and those flags give them state (`lastIndex`).
 *
 * How an element is matched: each of its alternatives (`any`) is a list of patterns that must
 * all match one passage (one sentence, or two adjacent sentences of the same paragraph); the
 * first is the anchor, and a negation just before it ("has not completed a SOC audit") voids it.
 */

/** The source of a regular expression, read with the file's flags. */
export type PatternSource = string & { readonly __pattern: true };
/** A pattern as the file holds it: its source (the file's flags), or source and flags. */
export type PatternData = PatternSource | { source: string; flags: string };

const FLAGS = '^(?!.*(.).*\\1)[dimsuv]*$';
const Pattern = Type.Union([
  Type.Unsafe<PatternSource>(Type.String({ minLength: 1 })),
  Type.Object({ source: Type.String({ minLength: 1 }), flags: Type.String({ pattern: FLAGS }) }, { additionalProperties: false }),
]);
/** Alternatives: within one alternative every pattern must match the passage. */
const Alternatives = (description?: string) => Type.Array(Type.Array(Pattern, { minItems: 1 }), { minItems: 1, description });
const Bound = Type.Union([Type.Literal('provider'), Type.Literal('customer'), Type.Literal('any')], {
  description: "whose clause evidences it: a provider's commitment (default), a customer's right, or either",
});
const Note = Type.String({ minLength: 1 });
/** Limiting language (reading.ts `LimitRule`): the note says what it limits; it does not apply when `unless` also matches. */
const LimitRule = { re: Pattern, note: Note, unless: Type.Optional(Pattern) };

const ElementData = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    label: Type.String({ minLength: 1 }),
    any: Alternatives(),
    bound: Type.Optional(Bound),
    partial: Type.Optional(
      Type.Object(
        { any: Alternatives(), note: Note, bound: Type.Optional(Bound) },
        { additionalProperties: false, description: 'evidence that only partly meets the element (e.g. "without undue delay" for a time limit), and why' },
      ),
    ),
    limits: Type.Optional(
      Type.Array(Type.Object(LimitRule, { additionalProperties: false }), {
        description: "the element's own limiting language, besides the generic one (reading.ts)",
      }),
    ),
    genericLimits: Type.Optional(Type.Literal(false, { description: 'false: the generic limiting language does not apply (an element about a limit itself)' })),
    limitsFollow: Type.Optional(Type.Literal(false, { description: 'false: limiting language in the next sentence of the paragraph is not read' })),
    dataProtectionScope: Type.Optional(
      Type.String({ description: 'evidence given only for personal-data processing (SCCs, DPA) is limited: the note says so' }),
    ),
    wholeDataCounts: Type.Optional(
      Type.Literal(true, {
        description: 'with dataProtectionScope: a DPA clause naming the customer\'s data as a whole ("Customer Data", not personal data) is not limited',
      }),
    ),
    privacyNoticeScope: Type.Optional(
      Type.String({
        description:
          "evidence found in a privacy policy or notice (the vendor's own processing as controller, not the customer's data) is limited: the note says so",
      }),
    ),
    authority: Type.Optional(Type.Literal('financial', { description: 'financial: a data-protection authority does not meet it (limited)' })),
    authorityNote: Type.Optional(Type.String({ description: 'what the rationale says when the authority is not a financial one' })),
    ownOnly: Type.Optional(
      Type.Object(LimitRule, {
        additionalProperties: false,
        description: "evidence about someone else (a host's certificate) is limited: the pattern and the note",
      }),
    ),
    exclude: Type.Optional(
      Type.Array(Pattern, { description: 'passages that cannot evidence it at all (an indemnity for incident assistance, a cookie list for locations)' }),
    ),
    sectionAny: Type.Optional(Alternatives('alternatives matched against "<heading path> › <text>", any length (a table row under "List of sub-processors")')),
    against: Type.Optional(
      Type.Array(Type.Object({ ...LimitRule, bound: Type.Optional(Bound) }, { additionalProperties: false }), {
        description: 'clauses pointing the other way; found anywhere, the element is at most limited',
      }),
    ),
  },
  { additionalProperties: false },
);

const ObligationData = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'stable id, e.g. A30.2.b' }),
    article: Type.Integer({ minimum: 1, maximum: 64 }),
    ref: Type.String({ minLength: 1, description: 'Article 30(2)(b)' }),
    title: Type.String({ minLength: 1 }),
    dora: Type.Object(
      { match: Type.String({ minLength: 1 }) },
      { additionalProperties: false, description: "substring that identifies the obligation in the article's obligation list (reference data)" },
    ),
    requirement: Type.String({ minLength: 1, description: "the requirement as an analyst reads it against a vendor's documents" }),
    weight: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
      description: 'relative weight in the score: 3 key contractual clause, 2 other third-party provision, 1 ICT risk control',
    }),
    key: Type.Boolean({ description: 'key obligations drive the risk rating (docs/assessments.md)' }),
    scope: Type.Union([Type.Literal('all'), Type.Literal('critical')], {
      description: 'critical: applies to ICT services supporting critical or important functions (Art. 28(8), 30(3))',
    }),
    contractual: Type.Optional(
      Type.Literal(true, {
        description:
          'one of the contractual arrangements (Article 30, and the audit and termination rights of Article 28(6)-(7)): evidence stated only in a policy, web page or report is limited, since DORA asks for it in the contract (passages.ts `isContractual`)',
      }),
    ),
    query: Type.String({ minLength: 1, description: 'words describing the evidence, ranked against passages lexically (BM25) and with the embedder' }),
    elements: Type.Array(ElementData, { minItems: 1 }),
  },
  { additionalProperties: false },
);

export const ObligationsFileSchema = Type.Object(
  {
    about: Type.String(),
    flags: Type.String({ pattern: FLAGS, description: 'the flags of every pattern given as a string' }),
    obligations: Type.Array(ObligationData, { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type ObligationsFile = Static<typeof ObligationsFileSchema>;

/** A type of the file with every pattern compiled. */
type Compiled<T> = T extends PatternData ? RegExp : T extends readonly (infer U)[] ? Compiled<U>[] : T extends object ? { [K in keyof T]: Compiled<T[K]> } : T;
export type VendorObligation = Compiled<Static<typeof ObligationData>>;
export type EvidenceElement = VendorObligation['elements'][number];
export type ObligationScope = VendorObligation['scope'];

/** Problems of a file that does not match the schema, as `<path>: <message>` (at most `max`). */
export function obligationsFileProblems(data: unknown, max = 10): string[] {
  if (Value.Check(ObligationsFileSchema, data)) return [];
  return [...Value.Errors(ObligationsFileSchema, data)].slice(0, max).map((e) => `${e.instancePath || '/'}: ${e.message}`);
}

/**
 * The engine's obligations from the file's data: checked against the schema, ids unique,
 * every pattern compiled (an error names the obligation, the element and the pattern).
 */
export function compileObligations(data: unknown): VendorObligation[] {
  const problems = obligationsFileProblems(data);
  if (problems.length) throw new Error(`obligations.json does not match its schema: ${problems.join('; ')}`);
  const file = data as ObligationsFile;
  const seen = new Set<string>();
  return file.obligations.map((o) => {
    if (seen.has(o.id)) throw new Error(`obligations.json: obligation ${o.id} appears twice`);
    seen.add(o.id);
    const ids = new Set<string>();
    const elements = o.elements.map((e) => {
      if (ids.has(e.id)) throw new Error(`obligations.json: ${o.id} has two elements ${e.id}`);
      ids.add(e.id);
      const re = (p: PatternData, where: string) => {
        try {
          return typeof p === 'string' ? new RegExp(p, file.flags) : new RegExp(p.source, p.flags);
        } catch (err) {
          throw new Error(`obligations.json: ${o.id} ${e.id} ${where}: ${(err as Error).message}`);
        }
      };
      const alternatives = (a: PatternData[][], where: string) => a.map((alt, i) => alt.map((p, j) => re(p, `${where}.${i}.${j}`)));
      const rule = <R extends { re: PatternData; unless?: PatternData }>({ re: source, unless, ...rest }: R, where: string) => ({
        ...rest,
        re: re(source, `${where}.re`),
        ...(unless !== undefined ? { unless: re(unless, `${where}.unless`) } : {}),
      });
      const { any, partial, limits, ownOnly, exclude, sectionAny, against, ...plain } = e;
      const element: EvidenceElement = { ...plain, any: alternatives(any, 'any') };
      if (partial) element.partial = { ...partial, any: alternatives(partial.any, 'partial.any') };
      if (limits) element.limits = limits.map((l, i) => rule(l, `limits.${i}`));
      if (ownOnly) element.ownOnly = rule(ownOnly, 'ownOnly');
      if (exclude) element.exclude = exclude.map((p, i) => re(p, `exclude.${i}`));
      if (sectionAny) element.sectionAny = alternatives(sectionAny, 'sectionAny');
      if (against) element.against = against.map((l, i) => rule(l, `against.${i}`));
      return element;
    });
    return { ...o, elements };
  });
}
