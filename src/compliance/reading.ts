/**
 * How the gap analysis reads a clause (docs/assessments.md, "How a clause is read"): who it
 * binds, what limits it, and whether it speaks of data protection only. Pure functions over
 * one sentence (or two adjacent ones); the obligations (obligations.ts) say which of these
 * readings each evidence element needs.
 */

/** The party a clause's verb binds or entitles. */
export type Party = 'provider' | 'customer' | 'either';
export type Modality = 'duty' | 'right';

const CUSTOMER_WORDS = `you|customers?|clients?|controllers?|(?:the )?data exporters?|subscribers?|licensees?|users?|partners?|(?:the )?financial entit(?:y|ies)`;
const PROVIDER_WORDS = `we|(?:the )?(?:service )?providers?|suppliers?|vendors?|processors?|(?:the )?data importers?|licensors?|(?:the )?company|contractors?`;
const EITHER_WORDS = `either party|each party|both parties|the parties|either of the parties|(?:one|any) of the parties`;
const DUTY = `will|shall|must|agrees? to|undertakes? to|commits? to|responsible|liable|has to|have to|is (?:responsible|required|obliged|obligated|committed)|are (?:responsible|required|obliged|obligated|committed)|warrants?|guarantees?`;
const RIGHT = `may|can|has the right|have the right|will have the right|shall have the right|is entitled|are entitled|shall be entitled|will be entitled|reserves? the right|retains? the right|is permitted|are permitted`;

/** Verbs of the provider's own statements in the indicative. */
const INDICATIVE = `notifies|informs|provides|maintains|ensures|implements|engages|grants|allows|permits|agrees|undertakes|commits|performs|keeps|deletes|returns|makes|uses|encrypts|monitors|conducts|retains|stores|hosts|processes`;

/** The customer's duty without a modal of its own: "the need for you to", "Customer is advised to", "we recommend that you back up", "you should monitor your account". */
const CUSTOMER_DUTY = new RegExp(
  String.raw`\b(?:need|needs|required|requires|obligation|responsibility|advised|encouraged|expected|recommend(?:ed|s)?(?: that)?)\s+(?:for\s+)?(${CUSTOMER_WORDS})\s+(?:to|should|must)\b|\b(?:recommend|advise|suggest|urge|encourage)(?:s|d|ed)?\s+that\s+(${CUSTOMER_WORDS})\b|\b(you|customers?|clients?|users?|licensees?|subscribers?)\s+(?:\w+\s+)?should\b`,
  'gi',
);

/** The customer's responsibility: "It is your responsibility to export your data", "Customer is solely responsible for backups". */
const CUSTOMER_RESPONSIBILITY =
  /\b(?:it is|it's|shall be|remains?|is)\s+(?:the\s+)?(your|customer['’]s|client['’]s|user['’]s|licensee['’]s)\s+(?:sole\s+|own\s+)?responsibility\b|\b(you|customers?|clients?|users?|licensees?)\s+(?:is|are|shall be|remains?)\s+(?:solely\s+|fully\s+|exclusively\s+)?responsible\s+for\b/gi;

/** A party's right named as a noun: "Both Parties’ rights to terminate", "the Customer's right to cancel". */
const RIGHT_NOUN = new RegExp(String.raw`\b(?:(${EITHER_WORDS})|(${CUSTOMER_WORDS}))['’]?s?['’]?\s+(?:own\s+)?rights?\s+to\b`, 'gi');
/** The customer and its auditors, regulators or authorities as one subject of a modal. */
const CUSTOMER_SIDE_LIST = new RegExp(
  String.raw`\b(?:${CUSTOMER_WORDS})\b(?:,|\s+(?:and|or)\b)\s+(?:[\w-]+,?\s+){0,6}?(?:auditors?|regulators?|authorit(?:y|ies)|supervisors?|representatives?|designees?)\s+(?:\w+\s+){0,2}?(${RIGHT}|${DUTY})\b`,
  'gi',
);
/** A termination in the passive by the customer's own side: "can be terminated by a team administrator". */
const TERMINATED_BY_CUSTOMER = new RegExp(
  String.raw`\b(?:may|can|shall)\s+be\s+(?:terminated|cancell?ed)\b[^.;]{0,30}\bby\s+(?:the\s+|a\s+|your\s+|its\s+)?((?:${CUSTOMER_WORDS})|(?:team\s+|account\s+)?(?:administrator|admin|account owner))\b`,
  'gi',
);

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every (party, modality) pair of a clause: a party word followed within a few words by a modal verb. */
export function actors(text: string, vendorNames: readonly string[] = []): { party: Party; modality: Modality; at: number }[] {
  const names = vendorNames.filter((n) => n.length >= 3).map(esc);
  const provider = names.length ? `${PROVIDER_WORDS}|${names.join('|')}` : PROVIDER_WORDS;
  const re = new RegExp(String.raw`\b(${EITHER_WORDS})\b|\b(${CUSTOMER_WORDS})\b|\b(${provider})\b`, 'gi');
  const out: { party: Party; modality: Modality; at: number }[] = [];
  for (const m of text.matchAll(re)) {
    const after = text.slice(m.index! + m[0].length, m.index! + m[0].length + 60);
    // The party's own verb: a modal within three words ("GitHub will promptly notify", "Customer may at any time").
    const v = new RegExp(String.raw`^(?:['’]s)?(?:\s+(?:\([^)]{0,30}\)|[\w-]+)){0,3}?\s+(${RIGHT}|${DUTY})\b`, 'i').exec(after);
    if (!v) continue;
    // A disclaimer is no commitment: "we do not guarantee", "Acme does not warrant".
    if (
      /^\s*(?:\S+\s+){0,2}?(?:do|does|did|can|cannot|will|shall)\s*(?:not|n['’]t)\s+(?:guarantee|warrant)/i.test(after) ||
      /^\s*cannot\s+(?:guarantee|warrant)/i.test(after)
    )
      continue;
    // "the data exporter's request" is not the exporter acting.
    if (/^['’]s\s/.test(after) && !/^['’]s\s+(own\s+)?(obligation|duty|right)/i.test(after)) continue;
    const party: Party = m[1] ? 'either' : m[2] ? 'customer' : 'provider';
    const modality: Modality = new RegExp(`^(?:${RIGHT})$`, 'i').test(v[1]!) ? 'right' : 'duty';
    out.push({ party, modality, at: m.index! });
  }
  // The provider stating what it does, in the indicative ("the Processor notifies the Controller", "Acme
  // maintains"): a commitment as much as "will notify".
  for (const m of text.matchAll(new RegExp(String.raw`\b(${provider})\s+(${INDICATIVE})\b`, 'gi'))) {
    if (out.some((a) => a.at === m.index)) continue;
    out.push({ party: 'provider', modality: 'duty', at: m.index! });
  }
  // The customer with its auditors or authorities as one subject ("Customer, its auditors and its competent authorities may
  // access, inspect and audit"): the customer's side acting.
  for (const m of text.matchAll(CUSTOMER_SIDE_LIST)) {
    if (out.some((a) => a.at === m.index)) continue;
    out.push({ party: 'customer', modality: new RegExp(`^(?:${RIGHT})$`, 'i').test(m[1]!) ? 'right' : 'duty', at: m.index! });
  }
  // A right named as a noun ("Both Parties’ rights to terminate … are not affected", "the Customer's right to cancel"), and a
  // termination in the passive by the customer's own side ("can be terminated by a team administrator via the account management").
  for (const m of text.matchAll(RIGHT_NOUN)) {
    if (out.some((a) => a.at === m.index)) continue;
    out.push({ party: m[1] ? 'either' : 'customer', modality: 'right', at: m.index! });
  }
  for (const m of text.matchAll(TERMINATED_BY_CUSTOMER)) out.push({ party: 'customer', modality: 'right', at: m.index! + m[0].lastIndexOf(m[1]!) });
  // The customer's duty written without a modal of its own: "the need for you to maintain backups",
  // "Customer is advised to", "we recommend that you".
  for (const m of text.matchAll(CUSTOMER_DUTY)) {
    out.push({ party: 'customer', modality: 'duty', at: m.index! + m[0].indexOf((m[1] ?? m[2] ?? m[3])!) });
  }
  for (const m of text.matchAll(CUSTOMER_RESPONSIBILITY)) {
    out.push({ party: 'customer', modality: 'duty', at: m.index! + m[0].indexOf((m[1] ?? m[2])!) });
  }
  // A name that is not the customer's acting with a modal ("Travis-CI shall", "37signals will"): in a
  // provider's document, the other party is the provider.
  for (const m of text.matchAll(
    /\b([A-Z0-9][\w&.'’-]*[A-Za-z][\w&.'’-]*(?:[ -][A-Z][\w&.'’-]*){0,2})\s+(shall|will|must|agrees? to|undertakes? to|may|can)\b/g,
  )) {
    const name = m[1]!;
    // A party already read inside the name ("The Controller may": the customer, not a provider named "The Controller").
    if (out.some((a) => a.at >= m.index! && a.at < m.index! + name.length)) continue;
    if (NOT_A_PARTY.test(name) || new RegExp(`^(?:${CUSTOMER_WORDS}|${EITHER_WORDS})$`, 'i').test(name)) continue;
    out.push({ party: 'provider', modality: /^(may|can)$/i.test(m[2]!) ? 'right' : 'duty', at: m.index! });
  }
  return out;
}

/** Capitalised words that start a sentence or name a thing, not a party. */
const NOT_A_PARTY =
  /^(the|this|that|these|those|such|any|all|each|every|if|when|where|in|on|for|to|no|our|your|its|their|a|an|it|they|he|she|there|which|who|data|information|personal data|customer data|notice|notices|audits?|services?|fees|payment|changes?|access|termination|nothing|neither|either party|each party)$/i;

/**
 * Whether a clause can evidence an element bound to `bound`:
 * - `provider`: a commitment or statement of the provider; a clause whose only actor is the
 *   customer ("You will promptly notify …") is the customer's duty, not the provider's;
 * - `customer`: a right of the customer ("Customer may audit", "either party may terminate"),
 *   or the provider's grant of it ("will allow for and contribute to audits").
 * A clause with no actor (passive: "data is encrypted at rest") is the provider's statement.
 */
export function bindsAsNeeded(text: string, bound: 'provider' | 'customer' | 'any', vendorNames: readonly string[] = []): boolean {
  if (bound === 'any') return true;
  const list = actors(text, vendorNames);
  if (!list.length) return bound === 'provider';
  if (bound === 'provider') return list.some((a) => a.party === 'provider' || a.party === 'either');
  return list.some(
    (a) =>
      ((a.party === 'customer' || a.party === 'either') && a.modality === 'right') ||
      (a.party === 'provider' && a.modality === 'duty' && /\b(allow|permit|submit|make available|provide|contribute|grant|cooperate)/i.test(text)),
  );
}

/** A limitation found in a clause: its note (what it limits, in words) and where in the text. */
export interface Limitation {
  note: string;
  at: number;
}
export interface LimitRule {
  re: RegExp;
  note: string;
  /** The limitation does not apply when this also matches ("SOC 2" limits unless "type 2" is said). */
  unless?: RegExp;
}

/**
 * Not after a use of the data within the sentence: "uses … only to the extent necessary", "stored
 * solely in …" restrict what the provider may do with the customer's data, which protects it.
 */
const NOT_OF_DATA_USE = String.raw`(?<!\b(use[sd]?|using|disclos(e[sd]?|ing)|access(es|ed|ing)?|process(es|ed|ing)?|stor(e[sd]?|ing)|retain(s|ed)?)\b[^.;]{0,60})`;

/**
 * Limiting and conditioning language that keeps a commitment from being a full one
 * (issue: over-claims are worse than refusals). Applied to every element unless it opts out.
 */
export const GENERIC_LIMITS: LimitRule[] = [
  { re: /\b(commercially reasonable|reasonable commercial) (efforts?|endeavou?rs?)\b/i, note: 'only on commercially reasonable efforts' },
  {
    re: /\b(best|reasonable) (efforts?|endeavou?rs?)\b|\bbest[- ]efforts? basis\b|\b(strives?|aims?|endeavou?rs?) to\b|(?<!\b(who|users?|anyone|any|an?|each|every|the|unauthori[sz]ed|attackers?|persons?|individuals?|someone|parties)\s)\battempts? to\b|\b(aims?|aiming|strives?|striving) for\b/i,
    note: 'an effort, not a commitment',
  },
  {
    re: /\b(sole|absolute) (and absolute )?discretion\b|\b(at|in) (its|our|their|[A-Z][\w-]+['’]s) (reasonable |own |good faith )?(discretion|option)\b|\bat (?!(the )?(customer|client|licensee|subscriber|controller|data exporter)['’]s)(its|our|their|[A-Z][\w-]+['’]s) (sole |own )?(choice|election)\b/i,
    note: "at the provider's discretion",
  },
  {
    re: /\bin lieu of\b|\b(will be |shall be |are |is )?(deemed )?satisf(ied|y|ies) (by|through|with)\b|\bsatisf(y|ies|ied|ying)\b[^.;]{0,30}\b(audit|inspection)( rights?| obligations?| requests?)?\b/i,
    note: 'satisfied by something else (e.g. reports) instead',
  },
  {
    re: new RegExp(
      String.raw`${NOT_OF_DATA_USE}(\bonly (to the extent|where|when|if|in (the )?(event|case)|as required|appl(y|ies)( to| for)?)\b|\bsolely\b(?!\s+(responsible|liable)\b))`,
      'i',
    ),
    note: 'only in limited cases',
  },
  {
    re: /\bat (the )?(customer|client|data exporter|controller)['’]?s? (own |sole )*(cost|expense)|\b(customer|client|you) (is|are|shall be) responsible for (all|any) (the )?(reasonable )?(costs|fees)|\bat your (own |sole )*(cost|expense)/i,
    note: "at the customer's expense",
  },
  { re: /\bmutually agreed?\b|\b(scope|timing|duration)[^.;]{0,40}\b(agreed|agree)\b|\bas agreed between\b/i, note: 'to be agreed' },
  {
    re: /\b(measures|controls|safeguards|steps|practices|programs?|procedures)\b[^.;]{0,40}\bmay include\b|\b(as|where) (appropriate|applicable and appropriate)\b/i,
    note: 'hedged ("may include", "as appropriate")',
  },
  { re: /\blimited to\b/i, note: 'limited in scope' },
  {
    re: /\bsubject to\b/i,
    unless:
      /\bsubject to (the (terms|provisions|conditions|requirements) of )?(this|the|these) (agreement|terms|dpa|addendum|clauses?|sections?)\b|\bsubject to (the )?(applicable )?(data protection )?law/i,
    note: 'subject to conditions',
  },
  {
    re: /\b(wherever|where|when(ever)?) (technically |reasonably |commercially |operationally )?(possible|feasible|practicable)\b/i,
    note: 'only where possible',
  },
  {
    // A measure announced, not in place ("We are working on encryption at rest", "SOC 2 is on our roadmap").
    re: /\b(are|is|we're) (currently )?working (on|towards?)\b|\bon (our|the) (product |security )?roadmap\b|\bcoming soon\b|\bnot yet (available|implemented|in place|supported|complete|certified)\b|\b(plans?|planning|intends?|intending) to (introduce|implement|add|roll out|launch|adopt|obtain|achieve|complete|pursue|undergo|conduct|commission)\b|\bin the process of (obtaining|implementing|achieving|completing|becoming|rolling out)\b/i,
    note: 'planned, not yet in place',
  },
  {
    re: /\bas (needed|deemed (necessary|appropriate))\b|\b(as|when|where|if) (we|it) (deems?|considers?) (it )?(necessary|appropriate)\b|\bon an? (as-needed|ad[- ]hoc|case[- ]by[- ]case) basis\b|\bad[- ]hoc\b/i,
    note: 'only as needed, not a fixed commitment',
  },
  { re: /\bif (applicable|any)\b/i, note: 'only if applicable' },
  { re: /\bunder no obligation\b|\bwithout (any )?obligation\b|\b(is|are|shall be|will be) not (obligated|obliged)\b/i, note: 'not an obligation' },
  { re: /\b(does|do|can|will) not (guarantee|warrant)\b|\bcannot guarantee\b|\bno (guarantee|warranty) (that|of)\b/i, note: 'not guaranteed' },
  { re: /\bprovided,? (however,? )?that\b/i, note: 'subject to conditions' },
  { re: /\bexcept (as|where|that|for|to the extent|in)\b/i, note: 'with exceptions' },
  {
    re: new RegExp(String.raw`${NOT_OF_DATA_USE}\bto the extent (required|necessary|possible|practicable|reasonably|feasible)\b`, 'i'),
    note: 'only as far as needed',
  },
  { re: /\b(typically|generally|usually|normally)\b/i, note: 'hedged ("typically", "generally")' },
  { re: /\bto the best of (its|our|their|his|her) (knowledge|abilit(y|ies)|knowledge and abilit(y|ies))\b/i, note: 'an effort, not a commitment' },
  {
    // A commitment for some plans or customers only ("applies only to Enterprise plans", "for Enterprise customers only").
    re: /\bonly (to|for|on|under) (the |our |its )?([\w-]+ ){0,2}(plans?|tiers?|editions?|subscriptions?|packages?)\b|\b(for|to|on|under) (the |our |its )?([\w-]+ ){0,2}(plans?|tiers?|editions?|customers|subscriptions?|packages?) only\b|\bavailable (only )?(on|in|for|with|to|under) (the |our |its |selected |certain )?(?!(all|any|every|each|our|the|its|your|paying)\b)([\w-]+ ){1,2}(plans?|tiers?|editions?|subscriptions?|packages?|customers)\b|\b(available )?as an? (paid |optional |separate )?add-?on\b|\b(enterprise|premium|business|pro|professional|scale|team|growth|paid|dedicated)( plan| tier)? (customers|subscribers|accounts)\b|\b(customers|subscribers|accounts|users) (on|with|under|in) (the |an? |our )?(?!(all|any|every|each)\b)([\w-]+ ){1,2}(plans?|tiers?|editions?|subscriptions?|packages?)\b/i,
    note: 'only for some plans or customers',
  },
  {
    // A clause that opens on the law's requirement ("Where required by Data Protection Laws, Acme will notify …")
    // commits only as far as the law already does.
    re: /(?:^\W*(?:\(?[a-z0-9]{1,3}[.)]\s*)?|,?\s)(where|if|when|to the extent|insofar as) (so )?required by (the )?(applicable )?(data protection |privacy )?(laws?|legislation|regulations?)\b/i,
    note: 'only where the law requires it',
  },
];

/** The limitations of a clause under the given rules (first match of each). */
export function limitationsOf(text: string, rules: readonly LimitRule[]): Limitation[] {
  const out: Limitation[] = [];
  for (const r of rules) {
    const m = r.re.exec(text);
    if (m && !r.unless?.test(text)) out.push({ note: r.note, at: m.index });
  }
  return out;
}

const CUSTOMER_DATA_AS_A_WHOLE = /\b(customer|client|licensee|subscriber)['’]?s? (data|content)\b|\b(your|all) (data|content)\b/i;

/**
 * Whether a clause speaks of personal-data processing only: a clause of the Standard
 * Contractual Clauses or of a data processing agreement (its section, or its wording: "these
 * Clauses", "the data exporter", "personal data", "the GDPR"). DORA's rights cover the whole ICT
 * service, so an audit or authority right given only there is limited to data protection.
 */
export function dataProtectionOnly(text: string, section: string, wholeDataCounts = false): boolean {
  // A clause of a DPA that protects the customer's data as a whole ("Customer Data", not "personal data"), where the element allows it.
  if (wholeDataCounts && CUSTOMER_DATA_AS_A_WHOLE.test(text) && !/\bpersonal (data|information)\b/i.test(text)) return false;
  if (/\b(standard contractual clauses|SCCs?|clauses?\s+\d|annex|appendix|data processing (agreement|addendum)|DPA|GDPR|sub-?processors?)\b/i.test(section))
    return true;
  return /\b(these clauses|the clauses|clauses? \d+|modules? (one|two|three|four|\d)|SCCs?|standard contractual clauses|data exporter|data importer|personal data|processing activities|GDPR|BDSG|data protection (laws?|legislation|requirements|regulation)|privacy laws?|Article 28\(3\))\b/i.test(
    text,
  );
}

/** A financial supervisor or competent authority (DORA's), as opposed to a data-protection authority. */
export const FINANCIAL_AUTHORITY =
  /\b(competent authorit(y|ies)(?! (under|pursuant to) (the )?(GDPR|data protection))|financial (services )?(regulator|supervisor|authorit)|(prudential|banking|resolution) (regulator|supervisor|authorit)|resolution authorit|(customer['’]s|(?<=\b(?:customer|client|entity) and )(?:its|their)) (regulators?|supervisors?|supervisory authorit)|regulators? of (the )?customer|(regulatory|regulators?)( (or|and) supervisory)? (authorit|bod|audit))/i;
/** A data-protection authority ("the competent supervisory authority" of the GDPR and the SCCs). */
export const DATA_PROTECTION_AUTHORITY = /\b((competent )?supervisory authorit(y|ies)|data protection authorit|information commissioner)/i;

/** Whether a clause names a financial (not only a data-protection) authority. */
export function financialAuthority(text: string): boolean {
  const fin = FINANCIAL_AUTHORITY.exec(text);
  if (!fin) return false;
  // "competent supervisory authority" (GDPR) matched as "supervisory authority" only.
  return !/^competent supervisory/i.test(fin[0]);
}
