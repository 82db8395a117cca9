/**
 * The DORA obligations a vendor's documents can evidence (docs/assessments.md).
 *
 * DORA's Articles 28-30 bind the financial entity, not the vendor; what an analyst
 * looks for in the vendor's contract, DPA, SLA and security papers is whether the
 * clause or control the entity needs is there. Each entry names the DORA obligation
 * (its text is taken from the compliance reference data, found by `dora.match`), says
 * what evidence would satisfy it (`elements`), and how to find that evidence:
 *
 * - `query`: words describing the evidence, ranked against passages lexically (BM25)
 *   and with the project's embedder (cosine);
 * - each element is satisfied by one passage (one sentence, or two adjacent sentences
 *   of the same paragraph) matching one of its alternatives: every regular expression
 *   of an alternative must match that passage. The first expression is the anchor: a
 *   negation just before it ("has not completed a SOC audit") voids the match.
 *
 * Order: Articles 28-30 first (the ICT third-party provisions), then the ICT risk
 * articles a vendor's controls touch (9-12, 17, 24-25).
 */

import type { LimitRule } from './reading.js';

export type ObligationScope = 'all' | 'critical';

export interface EvidenceElement {
  id: string;
  label: string;
  /** Alternatives; within one alternative every expression must match the passage. */
  any: RegExp[][];
  /** Whose clause evidences it: a provider's commitment (default), a customer's right, or either. */
  bound?: 'provider' | 'customer' | 'any';
  /** Evidence that only partly meets the element (e.g. "without undue delay" for a time limit), and why. */
  partial?: { any: RegExp[][]; note: string; bound?: 'provider' | 'customer' | 'any' };
  /** The element's own limiting language, besides the generic one (reading.ts). */
  limits?: LimitRule[];
  /** `false`: the generic limiting language does not apply (an element about a limit itself). */
  genericLimits?: false;
  /** `false`: limiting language in the next sentence of the paragraph is not read. */
  limitsFollow?: false;
  /** Evidence given only for personal-data processing (SCCs, DPA) is limited: the note says so. */
  dataProtectionScope?: string;
  /** `financial`: a data-protection authority does not meet it (limited). */
  authority?: 'financial';
  /** What the rationale says when the authority is not a financial one. */
  authorityNote?: string;
  /** Evidence about someone else (a host's certificate) is limited: the pattern and the note. */
  ownOnly?: LimitRule;
  /** Passages that cannot evidence it at all (an indemnity for incident assistance, a cookie list for locations). */
  exclude?: RegExp[];
  /** Alternatives matched against "<heading path> › <text>", any length (a table row under "List of sub-processors"). */
  sectionAny?: RegExp[][];
  /** Clauses pointing the other way; found anywhere, the element is at most limited. */
  against?: (LimitRule & { bound?: 'provider' | 'customer' | 'any' })[];
}

export interface VendorObligation {
  /** Stable id, e.g. `A30.2.b`. */
  id: string;
  article: number;
  /** `Article 30(2)(b)` */
  ref: string;
  title: string;
  /** Substring that identifies the obligation in the article's obligation list (reference data). */
  dora: { match: string };
  /** The requirement as an analyst reads it against a vendor's documents. */
  requirement: string;
  /** Relative weight in the score: 3 key contractual clause, 2 other third-party provision, 1 ICT risk control. */
  weight: 1 | 2 | 3;
  /** Key obligations drive the risk rating (docs/assessments.md). */
  key: boolean;
  /** `critical`: applies to ICT services supporting critical or important functions (Art. 28(8), 30(3)). */
  scope: ObligationScope;
  /**
   * One of the contractual arrangements (Article 30, and the audit and termination rights of
   * Article 28(6)-(7)): evidence stated only in a policy, web page or report is limited, since
   * DORA asks for it in the contract (passages.ts `isContractual`).
   */
  contractual?: true;
  query: string;
  elements: EvidenceElement[];
}

const r = (source: string) => new RegExp(source, 'i');

// Reusable fragments.
const TERMINATE = 'terminat';
/** A notice period stated with a termination: "on thirty (30) days' notice", "with a notice period of three months". */
const AT_NOTICE =
  /\b(\d+|thirty|sixty|ninety|fifteen|fourteen|one|two|three|six)[ -](\(\d+\) )?(calendar |business )?(days?|weeks?|months?)['’]?\b[^.;]{0,30}\b(notice|prior|in advance|written)|\bnotice period of\b/i;
const DATA = '\\b(data|content|information|repositor(y|ies)|files?)\\b';
const INCIDENT = '\\b(incident|breach)';
const NOTIFY = '\\b(notif|inform|report|alert)';
const AUDIT = '\\baudit(s|ed|ing)?\\b(?! (logs?|trails?|logging|records?))';
const SUBPROC = '\\bsub-?(processor|contractor|processing)';
const RETURN = '\\b(return|export|retriev|download)(s|ed|ing|al)?\\b';
const PROVIDER_NOTIFIES = '\\b(will|shall|agrees? to|must)\\b[^.]{0,80}\\b(notif|inform|contact)';
const PROMPTLY = '\\b(without undue delay|promptly|immediately|as soon as|expeditiously|in a timely manner)';
/** A time limit stated as a period: "within 24 hours", "within seventy-two (72) hours", "48 hours". */
const TIME_LIMIT =
  '\\bwithin (\\d+|twenty[- ]four|forty[- ]eight|seventy[- ]two|one|two|three|five|seven|ten)( \\(\\d+\\))? ?(hours?|business days?|calendar days?|days?)\\b|\\b\\d+[- ]hours?\\b';
/** The provider holds a certificate ("certified", "has achieved", "compliant with"). */
const HOLDS = '\\b(certif|complian|compliant|achieved|holds?|maintain|accredit|attest|audited|registered)';
/** Something the provider has or does (not a hypothetical). */
const COMMITTED = '\\b(we|our|maintain|maintains|have|has|implement|implemented|established|in place|tested|documented|will|shall|perform|performs)\\b';
/** A continuity arrangement the provider has (not a place named for one). */
const CONTINUITY_HAS =
  '\\b(plans?|procedures?|arrangements?|programs?|programmes?|process(es)?|polic(y|ies)|capabilit\\w*|in place|maintain\\w*|implement\\w*|tested|failover|redundan\\w*)\\b';
/** Terms of an audit: frequency, notice, hours. */
const AUDIT_TERMS =
  "\\b(once (per|a|every|in any) (calendar )?(year|12|twelve)|annual(ly)?|reasonable intervals|reasonable (advance )?(written )?notice|\\d+ (business )?(days|weeks)'? (prior |advance )?(written )?notice|(\\d+|two|three|four) weeks in advance|business hours|(at least|no less than) \\d+ (business )?days)\\b";
/** Countries and regions named for data or services. */
const PLACES =
  '\\b(United States|U\\.S\\.|USA|European Union|EEA|Europe|Ireland|Germany|France|Netherlands|Canada|Australia|Singapore|United Kingdom|UK|Japan|India|Israel|Norway|Switzerland|Sweden|Finland|Poland|Spain|Italy|Belgium|Brazil|Chicago|Virginia|Oregon|Ohio|California|Frankfurt|Dublin|London|Paris|Amsterdam|Stockholm|Sydney|Tokyo|(countr(y|ies)|region|location) (where|in which|of))\\b';
/** A host, cloud or subprocessor: its certificates are not the provider's. */
const HOSTS =
  /\b(AWS|Amazon|Google( Cloud)?|GCP|Azure|Microsoft|Heroku|DigitalOcean|Hetzner|OVH(cloud)?|Cloudflare|Equinix|Rackspace|data ?cent(er|re)s?|computer cent(er|re)s?|hosting (provider|partner|service)s?|cloud (service |hosting )?providers?|infrastructure (provider|partner)s?|sub-?processors?|Stripe)\b/i;
/** Cryptography's confidentiality and integrity (of ciphertext), not the contract's. */
const CRYPTO = /\b(encrypt\w*|cipher\w*|AES|GCM|authenticated encryption|cryptograph\w*|plaintext|hash\w*)\b/i;
/** A standard named as an example, not as held. */
const EXAMPLE_ONLY = /\b(such as|for example|e\.g\.|may be (partly )?(fulfilled|satisfied|met))\b/i;
const DP_ONLY = 'given for personal-data processing only (DPA / SCCs), not for the ICT service as a whole';
/** The customer (or its auditor, or the provider granting it) audits or inspects the provider. */
const AUDIT_RIGHT: RegExp[][] = [
  [
    r(`${AUDIT}|\\binspect(ion|ions|ed)?\\b`),
    r('\\b(customer|you|data exporter|controller|auditors?|client)\\b'),
    r('\\b(may|right|entitled|allow|permit|conduct|contribute|submit|carry out|undertake)'),
  ],
  [r('\\binspections?\\b'), r('\\b(premises|facilities)\\b')],
];
/** Audit or assurance reports given on request: evidence that falls short of an audit right. */
const REPORTS_ON_REQUEST: RegExp[][] = [
  [
    r('\\b(audit|assurance|SOC ?[123]|ISO|compliance|security|penetration test)\\b[^.]{0,40}\\b(reports?|documentation|attestation)\\b'),
    r('\\b(request|available|provide|share|access|copy|copies)\\b'),
  ],
  [r('\\baccess to (our|its|the) [^.]{0,30}reports?\\b')],
];

export const VENDOR_OBLIGATIONS: VendorObligation[] = [
  // ---------------------------------------------------------------- Article 28
  {
    id: 'A28.5',
    article: 28,
    ref: 'Article 28(5)',
    title: 'Appropriate information security standards',
    dora: { match: 'comply with appropriate information security standards' },
    requirement:
      'The provider complies with appropriate information security standards, evidenced by a recognised certification or independent assurance report.',
    weight: 2,
    key: false,
    scope: 'all',
    query: 'information security standard certification ISO 27001 certified SOC 2 audit report independent assurance compliance',
    elements: [
      {
        id: 'certification',
        label: 'Certification against a recognised information security standard (ISO/IEC 27001 or equivalent)',
        any: [
          [r('\\bISO(/IEC)?[ -]?2700[12]\\b'), r(HOLDS)],
          [r('\\bISO(/IEC)?[ -]?270(17|18)\\b'), r(HOLDS)],
          [r('\\bCSA STAR\\b|\\b(BSI )?C5 (attestation|certificat)')],
        ],
        limitsFollow: false,
        exclude: [EXAMPLE_ONLY],
        limits: [{ re: /\b(aligned with|based on|follows?|in line with|inspired by|modell?ed on)\b/i, note: 'follows the standard, with no certificate' }],
        ownOnly: { re: HOSTS, note: "a host's or subprocessor's certificate, not the provider's own" },
        partial: {
          any: [
            [
              r(
                '\\b(audit(ed|s)?|assess(ed|ments?)) (against|for compliance with|under)\\b[^.]{0,60}\\b(standards?|frameworks?)\\b|\\b(regular|annual|periodic|independent) (security |compliance )?(audits?|assessments?)\\b[^.]{0,60}\\b(information security|data protection|security)\\b',
              ),
            ],
            [r('\\bPCI\\b'), r('\\bself[- ]assess')],
          ],
          note: 'security audits or a self-assessment, but no recognised certificate',
        },
      },
      {
        id: 'assurance',
        label: 'Independent assurance report (SOC 1 / SOC 2 Type 2, ISAE 3402)',
        any: [[r('\\bSOC ?[12]\\b')], [r('\\b(ISAE ?3402|ISAE ?3000|SSAE ?1[68])\\b')]],
        limitsFollow: false,
        exclude: [EXAMPLE_ONLY],
        limits: [{ re: /\bSOC ?[12]\b/i, unless: /\btype ?(2|II)\b/i, note: 'no type 2 report is named (a type 1 report, or the type is not stated)' }],
        ownOnly: { re: HOSTS, note: "a host's or subprocessor's report, not the provider's own" },
      },
    ],
  },
  {
    id: 'A28.6',
    article: 28,
    ref: 'Article 28(6)',
    title: 'Access, inspection and audit rights',
    dora: { match: 'In exercising access, inspection and audit rights' },
    requirement: 'The entity can access, inspect and audit the provider, with a defined frequency, scope and notice.',
    weight: 3,
    key: true,
    scope: 'all',
    contractual: true,
    query: 'audit rights inspection customer may audit conduct audits independent auditor access premises reasonable notice once per year',
    elements: [
      {
        id: 'audit-right',
        label: 'Right of the customer (or its auditor) to audit or inspect the provider',
        bound: 'customer',
        any: AUDIT_RIGHT,
        dataProtectionScope: DP_ONLY,
        partial: { any: REPORTS_ON_REQUEST, bound: 'any', note: 'only audit or assurance reports on request, no right to audit' },
      },
      {
        id: 'audit-terms',
        label: 'Audit frequency, scope or notice defined',
        bound: 'any',
        any: [[r(`${AUDIT}|\\binspection`), r(AUDIT_TERMS)]],
        dataProtectionScope: DP_ONLY,
      },
    ],
  },
  {
    id: 'A28.7',
    article: 28,
    ref: 'Article 28(7)',
    title: 'Termination rights',
    dora: { match: 'may be terminated in any of the following circumstances: (a)' },
    requirement:
      'The arrangement can be terminated for significant breach, for weaknesses found in monitoring, and where the authority can no longer supervise.',
    weight: 3,
    key: true,
    scope: 'all',
    contractual: true,
    query: 'terminate agreement termination for cause material breach terminate immediately right to terminate',
    elements: [
      {
        id: 'for-breach',
        label: 'Termination for breach by the provider',
        bound: 'customer',
        any: [
          [
            r(TERMINATE),
            r(
              '\\b(material(ly)? breach|breach(es|ed)? (of )?(this|the|its|any|a material)|fails? to (perform|comply|cure)|default|(good|just|important) cause|for cause)',
            ),
          ],
        ],
      },
      {
        id: 'customer-right',
        label: 'Customer right to terminate (for convenience or on notice)',
        bound: 'customer',
        any: [[r(`${TERMINATE}|\\bcancel`), r('\\b(customer|you|client|either party|each party|both parties|the parties|licensee|subscriber)\\b')]],
      },
      {
        id: 'regulatory',
        label: 'Termination where required by a financial regulator (weaknesses found, supervision impeded)',
        bound: 'customer',
        any: [
          [
            r(TERMINATE),
            r('\\b(regulator|supervisory|competent authorit|resolution authorit|required by (applicable )?law|change (in|of) (the )?(applicable )?law)'),
          ],
        ],
        authority: 'financial',
        authorityNote: 'a termination right where the law or a data-protection authority requires it, not where the financial supervisor does',
        dataProtectionScope: DP_ONLY,
      },
    ],
  },
  {
    id: 'A28.8',
    article: 28,
    ref: 'Article 28(8)',
    title: 'Exit strategy and transition',
    dora: { match: 'Financial entities shall identify alternative solutions and develop transition plans' },
    requirement: 'The contract lets the entity remove its data and services and move them to another provider or in-house without disruption.',
    weight: 2,
    key: false,
    scope: 'critical',
    query: 'exit termination export data return data retrieve data after termination transition migration deletion',
    elements: [
      {
        id: 'data-return',
        label: "Return or export of the customer's data on exit",
        bound: 'any',
        any: [[r(RETURN), r(DATA), r('\\b(terminat|cancel|expir|end of|after)')]],
        partial: { any: [[r('\\bexport'), r(DATA)]], bound: 'any', note: 'export at any time, not tied to the exit' },
      },
      {
        id: 'deletion',
        label: "Deletion of the customer's data after exit, with a time limit",
        bound: 'any',
        any: [
          [r('\\b(delet|destroy|eras|purg)'), r(DATA), r('\\b(within|after) (\\d+|thirty|sixty|ninety)|\\b(\\d+|thirty|sixty|ninety)( \\(\\d+\\))? days\\b')],
        ],
        partial: {
          any: [[r('\\b(delet|destroy|eras|purg)'), r(DATA), r('\\b(terminat|cancel|expir|end of)')]],
          bound: 'any',
          note: 'deletion with no time limit',
        },
      },
      {
        id: 'transition',
        label: 'Transition assistance or transition period',
        any: [[r('\\btransition(al)? (period|assistance|services|plan)|\\bexit (plan|assistance|strateg)|\\bmigration assistance')]],
      },
    ],
  },
  // ---------------------------------------------------------------- Article 29
  {
    id: 'A29.2.sub',
    article: 29,
    ref: 'Article 29(2)',
    title: 'Subcontracting chain',
    dora: { match: 'whether and how potentially long or complex chains of subcontracting' },
    requirement: 'The provider discloses its subcontractors, gives notice of changes and lets the customer object.',
    weight: 2,
    key: false,
    scope: 'all',
    query: 'subprocessors list subcontractors notice of new subprocessor object to subprocessor change',
    elements: [
      {
        id: 'list',
        label: 'Subcontractors / subprocessors disclosed',
        bound: 'any',
        any: [[r(SUBPROC), r('\\b(list|names?|following|identif|publish|below|table|available at|set out|located)')]],
        sectionAny: [[r("sub-?(processor|contractor)s?[^›]*›\\s*(name:|\\||[A-Z][\\w&.,()'’ -]{1,80}$)")]],
      },
      {
        id: 'change-notice',
        label: 'Advance notice of new or changed subcontractors',
        any: [
          [
            r(SUBPROC),
            r(`${NOTIFY}|\\bnotice\\b|\\bpublish|\\bupdat|\\blet (you|the customer|customer|the client|client) know|\\badvise`),
            r('\\b(new|change|add|replac|engag|only after|prior to|before (using|engaging|authori)|in advance)'),
          ],
        ],
      },
      {
        id: 'objection',
        label: 'Right to object to a subcontractor',
        bound: 'any',
        limitsFollow: false,
        any: [[r(SUBPROC), r('\\bobject')]],
      },
    ],
  },
  {
    id: 'A29.2.law',
    article: 29,
    ref: 'Article 29(2)',
    title: 'Third-country law and data transfers',
    dora: { match: 'established in a third country' },
    requirement: 'Governing law and jurisdiction are stated, and transfers of data to third countries are safeguarded.',
    weight: 2,
    key: false,
    scope: 'all',
    query: 'governing law jurisdiction courts third country international data transfers standard contractual clauses adequacy',
    elements: [
      {
        id: 'governing-law',
        label: 'Governing law and jurisdiction',
        bound: 'any',
        any: [
          [
            r(
              '\\bgoverning law\\b|\\bgoverned by\\b.{0,40}\\blaws?\\b|\\b(exclusive )?jurisdiction (of|in)\\b|\\bvenue\\b|\\b(agreement|contract|terms)\\b[^.]{0,40}\\bsubject to\\b[^.]{0,30}\\blaws?\\b|\\blaws? of [^.]{0,60}\\b(shall |will )?appl(y|ies)\\b|\\bplace of jurisdiction\\b',
            ),
          ],
        ],
        genericLimits: false,
        dataProtectionScope: 'the governing law of the data-protection clauses (SCCs) only, not of the contract',
      },
      {
        id: 'transfer-safeguards',
        label: 'Safeguards for transfers to third countries (SCCs, adequacy, DPF)',
        bound: 'any',
        any: [[r('\\bstandard contractual clauses\\b|\\bSCCs?\\b|\\badequacy decision|\\bData Privacy Framework\\b|\\bbinding corporate rules\\b')]],
        genericLimits: false,
        partial: { any: [[r('\\bPrivacy Shield\\b')]], bound: 'any', note: 'only the EU-US Privacy Shield, invalidated in 2020' },
      },
    ],
  },
  // ---------------------------------------------------------------- Article 30
  {
    id: 'A30.1',
    article: 30,
    ref: 'Article 30(1)',
    title: 'Written contract including service levels',
    dora: { match: 'The rights and obligations of the financial entity and of the ICT third-party service provider shall be clearly allocated' },
    requirement: 'Rights and obligations are set out in one written contract that includes the service level agreements.',
    weight: 2,
    key: false,
    scope: 'all',
    contractual: true,
    query: 'entire agreement written agreement this agreement incorporates service level agreement SLA',
    elements: [
      {
        id: 'written',
        label: 'Written agreement (entire agreement / order of precedence)',
        bound: 'any',
        genericLimits: false,
        any: [
          [
            r(
              '\\bentire agreement\\b|\\bwhole agreement\\b|\\bfull agreement\\b|\\border of precedence\\b|\\bsupersedes?\\b|\\b(this|the) agreement (constitutes|consists of)|\\b(takes?|shall take) precedence\\b|\\bshall prevail\\b',
            ),
          ],
          [r('\\b(incorporates?|forms? (a )?part of)\\b'), r('\\b(terms|agreement|addendum|DPA|SLA)\\b')],
        ],
      },
      {
        id: 'sla',
        label: 'Service level agreement part of the contract',
        bound: 'any',
        any: [[r('\\bservice level agreement\\b|\\bSLA\\b|\\buptime (commitment|guarantee)')]],
      },
    ],
  },
  {
    id: 'A30.2.a',
    article: 30,
    ref: 'Article 30(2)(a)',
    title: 'Description of services and subcontracting conditions',
    dora: { match: '(a) a clear and complete description of all functions and ICT services' },
    requirement: 'The services are described, and whether and on which conditions they may be subcontracted is stated.',
    weight: 3,
    key: true,
    scope: 'all',
    contractual: true,
    query: 'description of the services service means online services products provided subcontract conditions subprocessor written contract same obligations',
    elements: [
      {
        id: 'description',
        label: 'Description of the services provided',
        bound: 'any',
        genericLimits: false,
        any: [
          [
            r(
              '["“]?(online |hosted |cloud )?(services?|platform|products?|software|solution)["”]? (means|refers to|includes?|consists? of)\\b|\\bdescription of (the )?(services|processing)\\b|\\bservices? (description|specification)',
            ),
          ],
          [
            r('\\b(provides?|offers?|is an?)\\b[^.]{0,80}\\b(platform|service|software|solution|tool)\\b'),
            r('\\b(hosted|cloud|online|web|software[- ]as[- ]a[- ]service|SaaS|subscription)\\b'),
          ],
        ],
      },
      {
        id: 'subcontracting',
        label: 'Conditions for subcontracting',
        bound: 'any',
        any: [
          [
            r(SUBPROC),
            r(
              '\\b(written (agreement|contract)|contract(ual)? (terms|obligations)|(same|equivalent|no less protective|similar|at least the same)[^.]{0,40}(obligations|protection|terms)|prior (written )?(consent|authori[sz]ation)|(remains?|shall remain|is|will be) (fully )?(responsible|liable))',
            ),
          ],
        ],
      },
    ],
  },
  {
    id: 'A30.2.b',
    article: 30,
    ref: 'Article 30(2)(b)',
    title: 'Locations of services and data',
    dora: { match: '(b) the locations, namely the regions or countries' },
    requirement: 'The regions or countries where services are provided and data is processed and stored are stated, with notice of changes.',
    weight: 3,
    key: true,
    scope: 'all',
    contractual: true,
    query: 'data location data centers located in United States Europe region country where data is stored processed hosted',
    elements: [
      {
        id: 'location',
        label: 'Countries or regions where data is processed or stored',
        bound: 'any',
        genericLimits: false,
        any: [[r('\\b(stored|stores|storage|hosted|host|hosting|processed|process(es|ing)?|data cent(er|re)s?|servers?|infrastructure)\\b'), r(PLACES)]],
        limits: [{ re: /\b(transfer(red)? (outside|to)|if (you|we) (are|transfer))\b/i, note: 'conditions for transfers, not the locations used' }],
        exclude: [/\bmay be (processed|stored|transferred|hosted)\b/i, /\boutside (of )?the (EEA|EU|European|United States|US)\b/i, /\bcookies?\b/i],
      },
      {
        id: 'change-notice',
        label: 'Notice before a change of location',
        any: [
          [
            r('\\b(location of (the )?(processing|data|storage)|(data|processing|storage|hosting) (locations?|cent(er|re)s?|regions?))'),
            r(`${NOTIFY}|\\bnotice\\b`),
            r('\\b(change|new|mov|relocat)'),
          ],
          [r('\\b(relocat\\w*|mov(e|ing)|transfer(ring)?) (the )?(customer )?(data|processing|hosting)\\b'), r(`${NOTIFY}|\\bnotice\\b`)],
        ],
      },
    ],
  },
  {
    id: 'A30.2.c',
    article: 30,
    ref: 'Article 30(2)(c)',
    title: 'Data protection: availability, authenticity, integrity, confidentiality',
    dora: { match: '(c) provisions on availability, authenticity, integrity and confidentiality' },
    requirement: 'The contract protects the availability, authenticity, integrity and confidentiality of data, including personal data.',
    weight: 3,
    key: true,
    scope: 'all',
    contractual: true,
    query: 'confidentiality integrity availability security of processing technical and organisational measures protect data personal data',
    elements: [
      {
        id: 'confidentiality',
        label: 'Confidentiality obligations',
        any: [[r('\\bconfidential'), r('\\b(shall|will|must|agree|obligation|protect|keep|treat|maintain|bound)')]],
        exclude: [CRYPTO],
      },
      {
        id: 'security-measures',
        label: 'Technical and organisational security measures',
        any: [
          [r('\\btechnical and organi[sz]ational (security )?measures\\b')],
          [r('\\bsecurity (measures|safeguards|controls)\\b'), r('\\b(implement|maintain|appropriate|protect)')],
        ],
        partial: { any: [[r('\\bencrypt'), r('\\b(data|traffic|at rest|in transit)\\b')]], note: 'security measures described, with no commitment to them' },
        against: [
          {
            re: /\bcommercially reasonable\b[^.;]{0,80}\b(security|safeguards|measures)\b|\b(security|safeguards|measures)\b[^.;]{0,80}\bcommercially reasonable\b/i,
            note: 'security measures are only "commercially reasonable"',
          },
        ],
      },
      {
        id: 'integrity-availability',
        label: 'Integrity and availability of data addressed',
        any: [
          [r('\\bintegrity\\b'), r('\\bavailability\\b|\\bconfidentiality\\b|\\bsecurity\\b')],
          [r('\\b(loss|destruction|alteration|damage|corruption)\\b'), r('\\b(protect|safeguard|against|prevent)')],
        ],
        exclude: [CRYPTO],
      },
    ],
  },
  {
    id: 'A30.2.d',
    article: 30,
    ref: 'Article 30(2)(d)',
    title: 'Access, recovery and return of data',
    dora: { match: '(d) provisions on ensuring access, recovery and return' },
    requirement: 'Data can be accessed, recovered and returned in an easily accessible format on insolvency, resolution, discontinuation or termination.',
    weight: 3,
    key: true,
    scope: 'all',
    contractual: true,
    query: 'return of data export data format download access to data after termination insolvency discontinue business acquired shut down',
    elements: [
      {
        id: 'return',
        label: 'Return or export of data',
        any: [[r(RETURN), r(DATA)]],
      },
      {
        id: 'format',
        label: 'Accessible format for returned data',
        bound: 'any',
        any: [[r('\\b(format|machine[- ]readable|portable|CSV|JSON|industry[- ]standard)\\b'), r(RETURN)]],
      },
      {
        id: 'discontinuation',
        label: 'Provision for insolvency, discontinuation or change of control',
        any: [
          [
            r(
              '\\b(insolven|bankrupt|wind(ing)? (down|up)|cease (operations|business|to operate|trading)|shut(ting)? down|change of control|acqui(red|sition)|discontinu\\w* (the|our|its) business)',
            ),
            r('\\b(data|content|access|return|export|continu|escrow)'),
          ],
        ],
        dataProtectionScope: DP_ONLY,
      },
    ],
  },
  {
    id: 'A30.2.e',
    article: 30,
    ref: 'Article 30(2)(e)',
    title: 'Service level descriptions',
    dora: { match: '(e) service level descriptions' },
    requirement: 'Service levels are described, including updates and revisions.',
    weight: 2,
    key: false,
    scope: 'all',
    contractual: true,
    query: 'service level uptime availability percentage service credits downtime',
    elements: [
      {
        id: 'uptime',
        label: 'Quantified availability (uptime) commitment',
        any: [[r('\\b\\d{2}(\\.\\d+)?\\s?%'), r('\\b(uptime|availab|service level)')]],
        against: [
          {
            re: /\b(commercially )?reasonable efforts\b[^.;]{0,160}(\b(uptime|availability|service levels?)\b|\bavailable\b[^.;]{0,60}\d{2}(\.\d+)?\s?%)|\b(uptime|availability|service levels?)\b[^.;]{0,100}\b(commercially )?reasonable efforts\b/i,
            note: 'the availability target is only an efforts commitment',
          },
        ],
        partial: {
          any: [
            [r('\\b(downtime|uptime|availability|response|resolution)( times?)?\\b'), r('\\b\\d+(\\.\\d+)?\\s?(hours?|minutes?|business days?|%)')],
            [r('\\b(target availability|availability targets?|uptime targets?|uptime commitments?)\\b'), r('\\b(order form|specified|stated|agreed)\\b')],
          ],
          note: 'service levels without a firm availability commitment in the documents',
        },
      },
      {
        id: 'credits',
        label: 'Remedy when service levels are missed (service credits)',
        bound: 'any',
        any: [[r('\\bservice credits?\\b')], [r('\\bcredits?\\b'), r('\\b(uptime|downtime|availab|service level)')]],
      },
    ],
  },
  {
    id: 'A30.2.f',
    article: 30,
    ref: 'Article 30(2)(f)',
    title: 'Assistance in ICT incidents',
    dora: { match: '(f) the obligation of the ICT third-party service provider to provide assistance' },
    requirement: 'The provider assists in ICT incidents related to the service at no additional cost or at a cost determined in advance.',
    weight: 2,
    key: false,
    scope: 'all',
    contractual: true,
    query: 'assist customer security incident cooperate mitigate incident reasonable assistance cost',
    elements: [
      {
        id: 'assistance',
        label: 'Assistance with incidents affecting the service',
        any: [
          [
            r(INCIDENT),
            r('\\b(assist|cooperat|help|mitigat|remediat|contain|investigat|provide (\\w+ ){0,3}information)'),
            r('\\b(customer|you|controller|data exporter|client)\\b'),
          ],
          [
            r('\\bassistance\\b'),
            r('\\b(notifications?|notices?) (of|about|to)|\\bsuch notifications\\b'),
            r('\\b(customer|you|controller|data exporter|client)\\b'),
          ],
        ],
        exclude: [/\bindemnif/i],
      },
      {
        id: 'cost',
        label: 'Cost of the assistance fixed (none, or determined in advance)',
        any: [
          [
            r('\\b(assist|cooperat|support)'),
            r(
              "\\b(no (additional |extra )?(cost|charge|fee)s?|free of charge|without (additional )?charge|at (its|our|the provider['’]?s?|processor['’]?s?) (own )?(cost|expense))\\b",
            ),
          ],
        ],
        exclude: [/\bindemnif/i],
      },
    ],
  },
  {
    id: 'A30.2.g',
    article: 30,
    ref: 'Article 30(2)(g)',
    title: 'Cooperation with competent authorities',
    dora: { match: '(g) the obligation of the ICT third-party service provider to fully cooperate with the competent authorities' },
    requirement: "The provider fully cooperates with the entity's competent and resolution authorities.",
    weight: 3,
    key: true,
    scope: 'all',
    contractual: true,
    query: 'cooperate with regulator supervisory authority competent authority regulatory audit investigation',
    elements: [
      {
        id: 'authorities',
        label: "Cooperation with the customer's regulators or supervisory authorities",
        any: [
          [
            r('\\b(regulator|regulatory|supervisory authorit|competent (supervisory )?authorit|resolution authorit|data protection authorit)'),
            r(
              '\\b(cooperat|participat|submit (itself|to)|assist|respond to (its |their )?(enquir|inquir|requests?|instructions)|make (\\w+ )?available to|provide (\\w+ ){0,3}(information|access|assistance) to|allow (the )?(regulator|authorit)|(submit to|allow|permit|conduct|carry out) (an? )?audits?|audit(s|ed)? by (the )?(regulator|authorit)|notif(y|ication)\\b[^.]{0,80}\\b(inspections?|control (procedures|measures)|measures (taken|or orders)|orders)|support(ing)?\\b[^.]{0,60}\\bconsultations?|\\bprior consultations?)',
            ),
          ],
        ],
        authority: 'financial',
        dataProtectionScope: 'cooperation on personal-data processing only (data-protection authorities and consultations)',
        limits: [{ re: /\b(cannot|can ?not|not) (reasonably )?be satisfied\b/i, note: 'only where published reports do not suffice' }],
      },
    ],
  },
  {
    id: 'A30.2.h',
    article: 30,
    ref: 'Article 30(2)(h)',
    title: 'Termination rights and notice periods',
    dora: { match: '(h) termination rights and related minimum notice periods' },
    requirement: 'Termination rights and minimum notice periods are set out.',
    weight: 3,
    key: true,
    scope: 'all',
    contractual: true,
    query: 'termination notice period days written notice terminate agreement',
    elements: [
      {
        id: 'termination',
        label: 'Termination rights',
        bound: 'any',
        genericLimits: false,
        any: [[r(`${TERMINATE}|\\bcancel`), r('\\b(may|right|either party|customer|you)\\b')]],
      },
      {
        id: 'notice',
        label: 'Notice period for termination',
        bound: 'any',
        genericLimits: false,
        any: [
          [
            r(`${TERMINATE}|\\bcancel|\\bnon-?renewal|\\bnot to renew`),
            r(
              "\\b(\\d+|thirty|sixty|ninety|fifteen|fourteen)[ -](\\(\\d+\\) )?(calendar |business )?(days?|months?)['’]?\\b[^.]{0,30}\\b(notice|prior|in advance|written)|\\bnotice (period )?of (at least )?(\\d+|thirty|sixty|ninety)|\\bnotice period\\b",
            ),
          ],
        ],
        partial: {
          any: [[r(`${TERMINATE}|\\bcancel`), r('\\bat any time\\b|\\bimmediately\\b|\\bwithout (prior )?notice\\b|\\bwith or without notice\\b')]],
          bound: 'any',
          note: 'termination at any time, with no notice period',
        },
        against: [
          {
            // At will: "may terminate at any time, in its sole discretion, for any reason or no reason" (unless a notice period is given).
            re: /\bterminat\w*[^.;]{0,80}\b(for any reason or no reason|in (its|our) sole (discretion|determination)|at any time)\b|\b(in (its|our) sole (discretion|determination)|for any reason or no reason)[^.;]{0,80}\bterminat/i,
            unless: AT_NOTICE,
            bound: 'provider',
            note: 'the provider may terminate at will, without a notice period',
          },
          {
            // Without notice and without a cause ("may terminate without notice"); for a breach, non-payment or misuse it is termination for cause.
            re: /\bterminat\w*[^.;]{0,80}\bwithout (prior )?notice\b/i,
            unless: new RegExp(`${AT_NOTICE.source}|\\b(if|in the event|upon|breach|violat|fail|insolven|non-?payment|misuse|cause|reasons?)\\b`, 'i'),
            bound: 'provider',
            note: 'the provider may terminate at will, without a notice period',
          },
        ],
      },
    ],
  },
  {
    id: 'A30.2.i',
    article: 30,
    ref: 'Article 30(2)(i)',
    title: 'Security awareness and resilience training',
    dora: { match: '(i) the conditions for the participation of ICT third-party service providers' },
    requirement: "The provider takes part in the entity's ICT security awareness programmes and digital operational resilience training.",
    weight: 1,
    key: false,
    scope: 'all',
    contractual: true,
    query: 'security awareness training employees personnel privacy training participate customer programme',
    elements: [
      {
        id: 'own-training',
        label: "Security awareness training of the provider's personnel",
        any: [
          [
            r('\\b(training|trained|awareness)\\b'),
            r('\\b(security|privacy|data protection|confidentiality)\\b'),
            r('\\b(employees?|personnel|staff|workers|team members|people)\\b'),
          ],
        ],
      },
      {
        id: 'participation',
        label: "Participation in the customer's awareness or resilience programmes",
        any: [[r('\\bparticipat'), r('\\b(customer|your)\\b'), r('\\b(training|awareness|exercise|programme|program)\\b')]],
      },
    ],
  },
  {
    id: 'A30.3.a',
    article: 30,
    ref: 'Article 30(3)(a)',
    title: 'Full service levels with precise performance targets',
    dora: { match: '(a) full service level descriptions' },
    requirement: 'Service levels carry precise quantitative and qualitative performance targets, with monitoring and corrective action.',
    weight: 2,
    key: false,
    scope: 'critical',
    contractual: true,
    query: 'uptime percentage calculated measured quarterly monthly service credits corrective actions performance targets',
    elements: [
      {
        id: 'quantitative',
        label: 'Quantitative performance target',
        any: [[r('\\b\\d{2}(\\.\\d+)?\\s?%'), r('\\b(uptime|availab|service level)')]],
        against: [
          {
            re: /\b(commercially )?reasonable efforts\b[^.;]{0,160}(\b(uptime|availability|service levels?)\b|\bavailable\b[^.;]{0,60}\d{2}(\.\d+)?\s?%)|\b(uptime|availability|service levels?)\b[^.;]{0,100}\b(commercially )?reasonable efforts\b/i,
            note: 'the availability target is only an efforts commitment',
          },
        ],
        partial: {
          any: [[r('\\b(downtime|uptime|availability|response|resolution)( times?)?\\b'), r('\\b\\d+(\\.\\d+)?\\s?(hours?|minutes?|business days?|%)')]],
          note: 'targets without a firm availability commitment',
        },
      },
      {
        id: 'measurement',
        label: 'How performance is measured or reported',
        bound: 'any',
        any: [
          [
            r('\\b(uptime|availability|downtime|service levels?|target)\\b'),
            r(
              '\\b(calculat|measur(ed|ement|ing)\\b|monitor|report|status (page|site|records?)|error rates?|per (calendar )?(month|quarter)|(monthly|quarterly) (basis|period))',
            ),
          ],
        ],
      },
      {
        id: 'corrective',
        label: 'Corrective action or remedy when targets are missed',
        bound: 'any',
        any: [
          [r('\\bservice credits?\\b')],
          [r('\\bcredits?\\b'), r('\\b(uptime|downtime|availab|service level|SLA)')],
          // A remedy limited to termination or a warranty ("your sole remedy is to terminate") is no corrective action.
          [r('\\bcorrective (actions?|measures?)\\b|\\bremediat'), r('\\b(uptime|service level|availab)')],
        ],
      },
    ],
  },
  {
    id: 'A30.3.b',
    article: 30,
    ref: 'Article 30(3)(b)',
    title: 'Notice and reporting obligations of the provider',
    dora: { match: '(b) notice periods and reporting obligations' },
    requirement: 'The provider notifies the entity of incidents and of developments that may materially affect the service, within set time limits.',
    weight: 3,
    key: true,
    scope: 'critical',
    contractual: true,
    query: 'notify customer security incident breach without undue delay within hours notification',
    elements: [
      {
        id: 'incident-notice',
        label: 'Notification of security incidents or breaches',
        any: [[r(PROVIDER_NOTIFIES), r(INCIDENT)]],
      },
      {
        id: 'timing',
        label: 'Time limit for the notification',
        any: [
          [r(`${NOTIFY}|\\bcontact`), r(INCIDENT), r(TIME_LIMIT)],
          [r('\\bnotif(y|ies|ication)\\b[^.]{0,40}\\b(customer|you|data exporter|controller|account owner)\\b'), r(TIME_LIMIT)],
        ],
        partial: { any: [[r(PROVIDER_NOTIFIES), r(INCIDENT), r(PROMPTLY)]], note: 'no time limit is set ("without undue delay", "promptly")' },
      },
    ],
  },
  {
    id: 'A30.3.c',
    article: 30,
    ref: 'Article 30(3)(c)',
    title: 'Business contingency plans and their testing',
    dora: { match: '(c) requirements for the ICT third-party service provider to implement and test business contingency plans' },
    requirement: 'The provider implements and tests business contingency plans and has security measures, tools and policies, with recovery objectives.',
    weight: 3,
    key: true,
    scope: 'critical',
    contractual: true,
    query: 'business continuity disaster recovery plan tested recovery time objective recovery point objective RTO RPO failover',
    elements: [
      {
        id: 'plan',
        label: 'Business continuity or disaster recovery plan',
        any: [[r('\\bbusiness continuity\\b|\\bdisaster recovery\\b|\\bcontingency plan|\\bcontinuity plan'), r(CONTINUITY_HAS)]],
        partial: { any: [[r('\\brestore\\b'), r('\\bavailability\\b')]], note: 'only the ability to restore availability, no continuity plan' },
      },
      {
        id: 'testing',
        label: 'The plans are tested',
        any: [
          [r('\\b(continuity|disaster recovery|contingency|failover|recovery)'), r('\\b(test(s|ed|ing)?|exercis|drill)')],
          [r('\\brecovery (drills?|tests?|exercises?)\\b')],
        ],
      },
      {
        id: 'objectives',
        label: 'Recovery time and recovery point objectives (RTO / RPO)',
        any: [[r('\\brecovery time objective|\\brecovery point objective|\\bRTO\\b|\\bRPO\\b')]],
      },
    ],
  },
  {
    id: 'A30.3.d',
    article: 30,
    ref: 'Article 30(3)(d)',
    title: 'Participation in threat-led penetration testing',
    dora: { match: '(d) the obligation of the ICT third-party service provider to participate and fully cooperate' },
    requirement: "The provider participates and cooperates in the entity's TLPT (Articles 26 and 27).",
    weight: 2,
    key: false,
    scope: 'critical',
    contractual: true,
    query: 'penetration testing threat-led red team customer security testing cooperate',
    elements: [
      {
        id: 'pentest',
        label: 'Penetration testing performed or permitted',
        any: [
          [
            r(
              '\\bpenetration test|\\bpen[ -]?test|\\bred[- ]team|\\bthreat[- ]led|\\bbug bounty|\\bHackerOne\\b|\\bBugcrowd\\b|\\bvulnerability disclosure (program|programme)',
            ),
          ],
        ],
      },
      {
        id: 'customer-testing',
        label: 'Customer may test or take part in testing',
        bound: 'customer',
        any: [
          [
            r(
              '\\b(customer|you|data exporter)\\b[^.]{0,60}\\b(may|can|right to|permitted to|allowed to)\\b[^.]{0,60}\\b(penetration|security|vulnerability) test',
            ),
          ],
          [r('\\b(threat[- ]led|TLPT|red[- ]team)'), r('\\b(participat|cooperat|take part)')],
        ],
        partial: {
          any: [[r('\\bprior (written )?(authori[sz]ation|consent|approval)'), r('\\b(security|vulnerability|penetration)\\W+(\\w+\\W+)?test')]],
          bound: 'any',
          note: "the customer may test only with the provider's prior consent",
        },
      },
    ],
  },
  {
    id: 'A30.3.e',
    article: 30,
    ref: 'Article 30(3)(e)',
    title: 'Ongoing monitoring, access and inspection rights',
    dora: { match: '(e) the right to monitor, on an ongoing basis' },
    requirement: 'Unrestricted rights of access, inspection and audit for the entity, its auditors and the authorities, including on premises.',
    weight: 3,
    key: true,
    scope: 'critical',
    contractual: true,
    query: 'right to audit inspection premises physical facilities supervisory authority audit access information monitor performance',
    elements: [
      {
        id: 'audit-right',
        label: 'Audit and inspection by the entity or its auditor',
        bound: 'customer',
        any: AUDIT_RIGHT,
        dataProtectionScope: DP_ONLY,
        limits: [{ re: /\bno more than (once|one)\b|\bonce (per|a|in any|every) (calendar )?(year|12|twelve)/i, note: 'restricted to once a year' }],
        partial: { any: REPORTS_ON_REQUEST, bound: 'any', note: 'only audit or assurance reports on request, no right to audit' },
      },
      {
        id: 'premises',
        label: 'Access to premises or facilities',
        bound: 'customer',
        any: [[r('\\b(premises|physical facilities|facilities|on-?site)\\b'), r(`${AUDIT}|\\binspect`)]],
        dataProtectionScope: DP_ONLY,
      },
      {
        id: 'authority-access',
        label: 'Audit or access rights of supervisory authorities',
        bound: 'any',
        any: [
          [
            r('\\b(supervisory authorit|regulator|competent authorit)'),
            r(`${AUDIT}|\\binspect|\\baccess to (its |our |the )?(premises|facilities|information|data|systems|records|books|documents)`),
          ],
        ],
        authority: 'financial',
      },
    ],
  },
  {
    id: 'A30.3.f',
    article: 30,
    ref: 'Article 30(3)(f)',
    title: 'Exit strategies and transition period',
    dora: { match: '(f) exit strategies, in particular the establishment of a mandatory adequate transition period: (i)' },
    requirement: 'A mandatory, adequate transition period during which the provider continues the service so the entity can migrate.',
    weight: 3,
    key: true,
    scope: 'critical',
    contractual: true,
    query: 'transition period after termination continue to provide services migrate to another provider access data after cancellation days',
    elements: [
      {
        id: 'transition-period',
        label: 'Period after termination during which service or data access continues',
        any: [
          [r('\\btransition(al)? (period|assistance)')],
          [r('\\b(continue|continued)\\b[^.]{0,40}\\b(provide|access|use)\\b[^.]{0,60}\\b(after|following) (termination|expiration|cancell?ation)')],
        ],
        partial: {
          any: [
            [
              r('\\b(after|following|upon|within) [^.]{0,30}(termination|cancell?ation|expiration)'),
              r('\\b(\\d+|thirty|sixty|ninety)( \\(\\d+\\))? days\\b'),
              r('\\b(access|retriev|export|download|copy|extract|reactivat|restore|reverse)'),
            ],
          ],
          bound: 'any',
          note: 'only a copy of the data, or a window to undo a cancellation, after termination: the service does not continue',
        },
      },
      {
        id: 'migration',
        label: 'Support for migration to another provider or in-house',
        any: [
          [
            r(
              '\\b(migrat\\w*|port(ing)?|transfer\\w*|mov(e|ing))\\b[^.]{0,60}\\b(another|other|new|alternative|different|successor) (provider|service|vendor|platform|supplier)',
            ),
          ],
          [r('\\b(in-house|reintegrat)')],
        ],
      },
    ],
  },
  // ---------------------------------------------------------------- ICT risk controls of the provider
  {
    id: 'A9.3.enc',
    article: 9,
    ref: 'Article 9(3)(a),(b)',
    title: 'Encryption of data in transit and at rest',
    dora: { match: '(a) ensure the security of the means of transfer of data' },
    requirement: 'Data is protected in transfer and at rest (encryption).',
    weight: 1,
    key: false,
    scope: 'all',
    query: 'encryption in transit TLS encrypted at rest AES-256 encryption keys',
    elements: [
      {
        id: 'transit',
        label: 'Encryption in transit',
        any: [
          [r('\\bencrypt'), r('\\b(in[- ]transit|TLS|SSL|HTTPS|over public networks|transmission|transmitted|traffic)')],
          [
            r('\\b(TLS|SSL|HTTPS|Transport Layer Security)\\b'),
            r('\\b(all|incoming|outgoing|network|traffic|connections?|transport|in transit|communications?)\\b'),
          ],
        ],
        limits: [{ re: /\bor (enables?|allows?|lets) (the )?(customer|you)\b/i, note: 'encryption left to the customer' }],
        partial: { any: [[r('\\bencrypt'), r('\\b(personal )?data\\b')]], note: 'encryption is named without saying in transit or at rest' },
      },
      {
        id: 'rest',
        label: 'Encryption at rest',
        any: [[r('\\bencrypt'), r('\\b(at[- ]rest|stored|storage|disks?|databases?|AES|volumes?|data ?stores?)')]],
        limits: [
          {
            re: /\b(backups?|passwords?|credentials|secrets)\b/i,
            unless: /\bat[- ]rest\b|\bdatabases?\b|\ball (customer )?(data|content)\b/i,
            note: 'only backups or passwords are said to be encrypted',
          },
        ],
        against: [
          {
            re: /\b(are|is|aren['’]t|isn['’]t) (generally |usually )?not encrypted\b|\bnot encrypted at rest\b|\bstored (unencrypted|in (plain|clear) ?text)\b/i,
            note: 'some data is said not to be encrypted at rest',
          },
        ],
      },
    ],
  },
  {
    id: 'A9.4.c',
    article: 9,
    ref: 'Article 9(4)(c),(d)',
    title: 'Access control and strong authentication',
    dora: { match: '(c) implement policies that limit the physical or logical access' },
    requirement: 'Access to data and systems is limited to what is required, with strong authentication.',
    weight: 1,
    key: false,
    scope: 'all',
    query: 'access control least privilege need to know authorized personnel two-factor multi-factor authentication',
    elements: [
      {
        id: 'least-privilege',
        label: 'Access restricted to authorised personnel (least privilege)',
        genericLimits: false,
        any: [
          [r('\\bleast privilege|\\bneed[- ]to[- ]know|\\brole-based access|\\baccess control')],
          [
            r('\\baccess\\b'),
            r('\\b(restrict|limit)(ed|s)?\\b'),
            r('\\b(employees?|personnel|staff|authori[sz]ed|workers|people|engineers|team members|individuals|administrators)'),
          ],
          [r('\\baccess\\b'), r('\\b(tightly|strictly) (controlled|limited|restricted)\\b')],
        ],
      },
      {
        id: 'strong-auth',
        label: 'Strong (multi-factor) authentication',
        genericLimits: false,
        limits: [
          { re: /\b(wherever|where|when(ever)?) (possible|feasible|practicable)\b|\boptional\b|\bencouraged?\b|\brecommend/i, note: 'only where possible' },
        ],
        any: [[r('\\b(two|multi|2)[- ]factor|\\b2FA\\b|\\bMFA\\b|\\bstrong authentication|\\bhardware (security )?keys?\\b')]],
      },
    ],
  },
  {
    id: 'A9.4.e',
    article: 9,
    ref: 'Article 9(4)(e),(f)',
    title: 'Change management and patching',
    dora: { match: '(e) implement documented policies, procedures and controls for ICT change management' },
    requirement: 'Changes are controlled and systems are patched.',
    weight: 1,
    key: false,
    scope: 'all',
    query: 'change management code review approval patches security updates vulnerability management',
    elements: [
      {
        id: 'change',
        label: 'Change management (review, approval, testing of changes)',
        any: [
          [r('\\bchange management|\\bchange control|\\bcode reviews?|\\bpeer[- ]review')],
          [r('\\bchanges?\\b'), r('\\b(reviewed|approved|tested|authori[sz]ed)\\b'), r('\\b(production|systems?|software|code|infrastructure)\\b')],
          [
            r('\\b(automated|continuous) (testing|integration|deployment|automation)|\\b(unit|integration) test(s|ing)?\\b'),
            r(
              '\\b(every|each) (build|change|commit|deploy\\w*|release)|\\bbefore (deploy\\w*|release|shipping|production)|\\b(our|all) (code|changes|releases|deployments)|\\bchanges (are|get)',
            ),
          ],
        ],
      },
      {
        id: 'patching',
        label: 'Patching and vulnerability management',
        any: [
          [
            r('\\bpatch(ed|es|ing)?\\b|\\bsecurity (patches|updates)\\b|\\bvulnerability management\\b|\\bapply(ing)? (security )?(patches|updates)'),
            r(COMMITTED),
          ],
        ],
        partial: { any: [[r('\\b(Dependabot|dependency scanning|vulnerability scann)')]], note: 'dependency scanning, with no patching commitment' },
        against: [
          {
            re: /\bno obligation to (provide|release|make available|develop)\b[^.;]{0,60}\b(updates|patches|upgrades|fixes)\b/i,
            note: 'no obligation to release updates or patches',
          },
        ],
      },
    ],
  },
  {
    id: 'A10',
    article: 10,
    ref: 'Article 10(1)',
    title: 'Detection of anomalous activities',
    dora: { match: 'mechanisms to promptly detect anomalous activities' },
    requirement: 'Anomalous activity is monitored, logged and alerted on.',
    weight: 1,
    key: false,
    scope: 'all',
    query: 'monitoring logging intrusion detection anomalous suspicious activity alerts security monitoring',
    elements: [
      {
        id: 'monitoring',
        label: 'Security monitoring and alerting',
        any: [
          [r('\\b(monitor|alert|detect)'), r('\\b(anomal|suspicious|intrusion|security (events?|incidents?|threats?)|malicious|threats?|attacks?)')],
          [r('\\bmonitoring (and|&) alerting|\\balerting (and|&) monitoring|\\b24/7 monitoring|\\bcontinuous(ly)? monitor')],
        ],
      },
      {
        id: 'logging',
        label: 'Logging of activity',
        any: [[r('\\b(logs?|logging|logged|audit trails?)\\b'), r('\\b(access|activity|activities|events?|actions?)\\b')]],
        limits: [{ re: /\b(troubleshoot|debug)/i, note: 'logs kept for troubleshooting, not security' }],
      },
    ],
  },
  {
    id: 'A11',
    article: 11,
    ref: 'Article 11(4),(6)',
    title: 'ICT business continuity and response and recovery',
    dora: { match: 'put in place, maintain and periodically test appropriate ICT business continuity plans' },
    requirement: 'Business continuity and response and recovery plans exist and are tested.',
    weight: 1,
    key: false,
    scope: 'all',
    query: 'business continuity disaster recovery plan redundancy failover tested resilience outage',
    elements: [
      {
        id: 'plan',
        label: 'Business continuity / disaster recovery arrangements',
        any: [[r('\\bbusiness continuity\\b|\\bdisaster recovery\\b|\\bcontingency plan|\\bfailover\\b|\\bredundan'), r(CONTINUITY_HAS)]],
        partial: { any: [[r('\\brestore\\b'), r('\\bavailability\\b')]], note: 'only the ability to restore availability, no continuity plan' },
      },
      {
        id: 'tested',
        label: 'Continuity arrangements tested',
        any: [[r('\\b(continuity|disaster recovery|contingency|failover|recovery|resilience)'), r('\\b(test(s|ed|ing)?|exercis|drill)')]],
      },
    ],
  },
  {
    id: 'A12',
    article: 12,
    ref: 'Article 12(1)-(6)',
    title: 'Backup, restoration and recovery objectives',
    dora: { match: 'In determining the recovery time and recovery point objectives' },
    requirement: 'Data is backed up at a defined frequency to a separate location, and recovery time and point objectives are set.',
    weight: 1,
    key: false,
    scope: 'all',
    query: 'backups backed up daily hourly stored in multiple locations restore recovery time objective recovery point objective',
    elements: [
      {
        id: 'backup',
        label: 'Backups with a defined frequency or retention',
        any: [[r('\\bback(ed)?[- ]?ups?\\b'), r('\\b(daily|hourly|every|nightly|weekly|retain|retention|\\d+ days|at least)')]],
      },
      {
        id: 'separate-site',
        label: 'Backups or replicas in a separate location',
        any: [
          [
            r('\\b(back(ed)?[- ]?ups?|replica|replicated|stored|secondary|redundan|copies)'),
            r(
              '\\b(multiple|separate|different|secondary|geographically|distinct|off-?site) (locations?|sites?|data cent|regions?|places?)|\\bgeographically (dispersed|separate|distributed)|\\boff-?site\\b|\\bdifferent place\\b',
            ),
          ],
        ],
      },
      {
        id: 'objectives',
        label: 'Recovery time and recovery point objectives (RTO / RPO)',
        any: [[r('\\brecovery time objective|\\brecovery point objective|\\bRTO\\b|\\bRPO\\b')]],
      },
    ],
  },
  {
    id: 'A17',
    article: 17,
    ref: 'Article 17(1),(3)',
    title: 'ICT-related incident management process',
    dora: { match: 'define, establish and implement an ICT-related incident management process' },
    requirement: 'The provider runs a defined incident management process with roles, logging and classification.',
    weight: 1,
    key: false,
    scope: 'all',
    query: 'incident response process security incident response team record incidents classify escalate',
    elements: [
      {
        id: 'process',
        label: 'Defined incident response process or team',
        any: [
          [r('\\bincident response\\b|\\bincident management\\b|\\bincident handling\\b|\\bSIRT\\b|\\bCSIRT\\b|\\bsecurity incident response team')],
          [
            r('\\b(procedures?|process|plan|policy|runbooks?)\\b'),
            r('\\b(security (events?|incidents?)|incidents?)\\b'),
            r('\\b(handl|respond|response|manag|escalat)'),
          ],
        ],
        partial: { any: [[r('\\bsecurity team\\b|\\btriag')]], note: 'a team handles reports, but no defined incident process' },
      },
      {
        id: 'records',
        label: 'Incidents recorded, classified or escalated',
        any: [
          [
            r(`${INCIDENT}|\\bsecurity events?`),
            r('\\b(record|log|track|classif|categori[sz]|escalat|severity|priorit|document(ed|s)?|post-?mortem|pag(ed|ing))'),
          ],
        ],
        partial: { any: [[r('\\b(errors?|issues?|tickets?)\\b'), r('\\b(priority|severity|classif)')]], note: 'support issues are classified, not incidents' },
      },
    ],
  },
  {
    id: 'A24',
    article: 24,
    ref: 'Articles 24-25',
    title: 'Digital operational resilience testing',
    dora: { match: 'shall ensure, at least yearly, that appropriate tests are conducted' },
    requirement: 'Systems are tested regularly: vulnerability assessments, penetration tests, independent testers.',
    weight: 1,
    key: false,
    scope: 'all',
    query: 'penetration testing vulnerability scanning bug bounty security testing independent third party annually',
    elements: [
      {
        id: 'testing',
        label: 'Security testing (penetration tests, vulnerability scanning, bug bounty)',
        any: [
          [
            r(
              '\\bpenetration test|\\bpen[ -]?test|\\bvulnerability (scan|assessment|test)|\\bbug bounty|\\bsecurity test|\\bscann(ed|ing) for (security )?vulnerabilit|\\b(dependency|image|container|code|static|automated) scann|\\bHackerOne\\b|\\bBugcrowd\\b|\\bvulnerability disclosure (program|programme|policy)',
            ),
          ],
        ],
        partial: {
          any: [
            [r('\\b(regular(ly)?|periodic(ally)?)\\b'), r('\\b(test|evaluat|assess)'), r('\\b(security|technical and organi[sz]ational measures)\\b')],
            [r('\\b(annual|regular|periodic|independent)\\b'), r('\\b(audits?|attestations?|certifications?)\\b'), r('\\b(ISO|SOC|security)\\b')],
          ],
          note: 'security measures evaluated regularly, but no penetration tests or scans are named',
        },
      },
      {
        id: 'regular-independent',
        label: 'Testing regular or by independent parties',
        any: [
          [
            r(
              '\\b(penetration|vulnerability|security) (test|scan|assessment)|\\bbug bounty|\\bscann(ed|ing)|\\bHackerOne\\b|\\bBugcrowd\\b|\\bvulnerability disclosure',
            ),
            r('\\b(regular|annual|monthly|weekly|periodic|quarter|continuous|ongoing|independent|third[- ]part|external|researchers)'),
          ],
        ],
      },
    ],
  },
];

/** The obligations that apply to a vendor: `critical` ones unless the profile says the service supports no critical or important function. */
export function applicableObligations(profile: { criticalityTier?: string; supportsCriticalFunction?: boolean } | null | undefined): VendorObligation[] {
  const knownNonCritical = profile?.supportsCriticalFunction === false && profile.criticalityTier !== 'critical';
  return VENDOR_OBLIGATIONS.filter((o) => o.scope === 'all' || !knownNonCritical);
}
