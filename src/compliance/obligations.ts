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

export type ObligationScope = 'all' | 'critical';

export interface EvidenceElement {
  id: string;
  label: string;
  /** Alternatives; within one alternative every expression must match the passage. */
  any: RegExp[][];
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
  query: string;
  elements: EvidenceElement[];
}

const r = (source: string) => new RegExp(source, 'i');

// Reusable fragments.
const TERMINATE = 'terminat';
const DATA = '\\b(data|content|information|repositor(y|ies)|files?)\\b';
const INCIDENT = '\\b(incident|breach)';
const NOTIFY = '\\b(notif|inform|report|alert)';
const AUDIT = '\\baudit';
const SUBPROC = '\\bsub-?(processor|contractor|processing)';
const RETURN = '\\b(return|export|retriev|download)(s|ed|ing|al)?\\b';
const PROVIDER_NOTIFIES = '\\b(will|shall|agrees? to)\\b[^.]{0,80}\\b(notif|inform)';
const PROMPTLY = '\\b(without undue delay|within \\d+ ?(hours|days)|\\d+ hours|promptly|immediately|as soon as)';

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
          [r('\\bISO(/IEC)?[ -]?2700[12]\\b')],
          [r('\\bISO(/IEC)?[ -]?270(17|18)\\b')],
          [r('\\bCSA STAR\\b')],
          [r('\\b(BSI )?C5 (attestation|certificat)')],
        ],
      },
      {
        id: 'assurance',
        label: 'Independent assurance report (SOC 1 / SOC 2 Type 2, ISAE 3402)',
        any: [[r('\\bSOC ?[12]\\b')], [r('\\b(ISAE ?3402|ISAE ?3000|SSAE ?1[68])\\b')]],
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
    query: 'audit rights inspection customer may audit conduct audits independent auditor access premises reasonable notice once per year',
    elements: [
      {
        id: 'audit-right',
        label: 'Right of the customer (or its auditor) to audit or inspect the provider',
        any: [
          [r(`${AUDIT}(s|ing)?\\b`), r('\\b(customer|you|data exporter|controller)\\b'), r('\\b(may|right|allow|permit|conduct|contribute|submit|request)')],
          [r('\\binspections?\\b'), r('\\b(premises|facilities)\\b')],
        ],
      },
      {
        id: 'audit-terms',
        label: 'Audit frequency, scope or notice defined',
        any: [
          [
            r(`${AUDIT}|inspection`),
            r(
              "\\b(once (per|a|every|in any) (year|12|twelve)|annual(ly)?|reasonable intervals|reasonable (advance )?(written )?notice|\\d+ (business )?days'? (prior |advance )?(written )?notice|business hours)\\b",
            ),
          ],
        ],
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
    query: 'terminate agreement termination for cause material breach terminate immediately right to terminate',
    elements: [
      {
        id: 'for-breach',
        label: 'Termination for breach by the provider',
        any: [[r(TERMINATE), r('\\b(material(ly)? breach|breach(es|ed)?|violat)')]],
      },
      {
        id: 'customer-right',
        label: 'Customer right to terminate (for convenience or on notice)',
        any: [
          [r(TERMINATE), r('\\b(customer|you|either party)\\b.{0,40}\\b(may|can|right to)\\b')],
          [r('\\b(you|customer) (may|can) (cancel|close your account)')],
        ],
      },
      {
        id: 'regulatory',
        label: 'Termination where required by a regulator or law',
        any: [[r(TERMINATE), r('\\b(regulator|supervisory|competent authorit|required by (applicable )?law|change (in|of) (the )?law)')]],
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
        any: [[r(RETURN), r(DATA), r('\\b(terminat|cancel|expir|end of|after)')]],
      },
      {
        id: 'deletion',
        label: "Deletion of the customer's data after exit, with a time limit",
        any: [[r('\\b(delet|destroy|eras|purg)'), r(DATA), r('\\b(within|after) \\d+|\\b\\d+ days\\b|\\b(thirty|sixty|ninety) days\\b')]],
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
        any: [[r(SUBPROC), r('\\b(list|names?|following|identif|publish|below|table)')]],
      },
      {
        id: 'change-notice',
        label: 'Advance notice of new or changed subcontractors',
        any: [[r(SUBPROC), r(`${NOTIFY}|\\bnotice\\b|\\bpublish|\\bupdat`), r('\\b(new|change|add|replac|engag)')]],
      },
      {
        id: 'objection',
        label: 'Right to object to a subcontractor',
        any: [[r('\\bobject'), r(SUBPROC)]],
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
        any: [[r('\\bgoverning law\\b|\\bgoverned by\\b.{0,40}\\blaws?\\b|\\b(exclusive )?jurisdiction (of|in)\\b|\\bvenue\\b')]],
      },
      {
        id: 'transfer-safeguards',
        label: 'Safeguards for transfers to third countries (SCCs, adequacy, DPF)',
        any: [[r('\\bstandard contractual clauses\\b|\\bSCCs?\\b|\\badequacy decision|\\bData Privacy Framework\\b|\\bbinding corporate rules\\b')]],
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
    query: 'entire agreement written agreement this agreement incorporates service level agreement SLA',
    elements: [
      {
        id: 'written',
        label: 'Written agreement (entire agreement / order of precedence)',
        any: [
          [
            r(
              '\\bentire agreement\\b|\\bwhole agreement\\b|\\bfull agreement\\b|\\border of precedence\\b|\\bsupersedes?\\b|\\b(this|the) agreement (constitutes|consists of)',
            ),
          ],
          [r('\\b(incorporates?|forms? (a )?part of)\\b'), r('\\b(terms|agreement|addendum|DPA|SLA)\\b')],
        ],
      },
      {
        id: 'sla',
        label: 'Service level agreement part of the contract',
        any: [[r('\\bservice level agreement\\b|\\bSLA\\b')]],
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
    query: 'description of the services service means online services products provided subcontract conditions',
    elements: [
      {
        id: 'description',
        label: 'Description of the services provided',
        any: [
          [
            r(
              '["“]?(online )?services?["”]? (means|refers to|includes?)\\b|\\bdescription of (the )?(services|processing)\\b|\\bservices? (description|specification)',
            ),
          ],
        ],
      },
      {
        id: 'subcontracting',
        label: 'Conditions for subcontracting',
        any: [[r(SUBPROC), r('\\b(may|shall|will|must|authori[sz]|consent|engag|permit|obligations)')]],
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
    query: 'data location data centers located in United States Europe region country where data is stored processed hosted',
    elements: [
      {
        id: 'location',
        label: 'Countries or regions where data is processed or stored',
        any: [
          [
            r('\\b(stored|stores|storage|hosted|host|hosting|processed|process(es|ing)?|data cent(er|re)s?|servers?|infrastructure)\\b'),
            r('\\b(United States|U\\.S\\.|USA|European Union|EEA|Europe|Ireland|Germany|Chicago|Virginia|(countr(y|ies)|region|location) (where|in which|of))'),
          ],
        ],
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
    query: 'confidentiality integrity availability security of processing technical and organisational measures protect data personal data',
    elements: [
      {
        id: 'confidentiality',
        label: 'Confidentiality obligations',
        any: [[r('\\bconfidential'), r('\\b(shall|will|must|agree|obligation|protect|keep|treat|maintain)')]],
      },
      {
        id: 'security-measures',
        label: 'Technical and organisational security measures',
        any: [
          [r('\\btechnical and organi[sz]ational (security )?measures\\b')],
          [r('\\bsecurity (measures|safeguards|controls)\\b'), r('\\b(implement|maintain|appropriate)')],
        ],
      },
      {
        id: 'integrity-availability',
        label: 'Integrity and availability of data addressed',
        any: [[r('\\bintegrity\\b'), r('\\bavailability\\b|\\bconfidentiality\\b')]],
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
        any: [[r('\\b(format|machine-readable|portable|CSV|JSON|HTML|archive)\\b'), r(RETURN)]],
      },
      {
        id: 'discontinuation',
        label: 'Provision for insolvency, discontinuation or change of control',
        any: [
          [
            r(
              '\\b(insolven|bankrupt|wind(ing)? (down|up)|discontinu|cease (operations|business|to operate)|shut(ting)? down|acqui(red|sition)|change of control)',
            ),
          ],
        ],
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
    query: 'service level uptime availability percentage service credits downtime',
    elements: [
      {
        id: 'uptime',
        label: 'Quantified availability (uptime) commitment',
        any: [[r('\\b\\d{2}(\\.\\d+)?\\s?%'), r('\\b(uptime|availab|service level)')]],
      },
      {
        id: 'credits',
        label: 'Remedy when service levels are missed (service credits)',
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
    query: 'assist customer security incident cooperate mitigate incident reasonable assistance cost',
    elements: [
      {
        id: 'assistance',
        label: 'Assistance with incidents affecting the service',
        any: [[r(INCIDENT), r('\\b(assist|cooperat|help|support|mitigat|remediat|reasonable (steps|efforts))')]],
      },
      {
        id: 'cost',
        label: 'Cost of the assistance fixed (none, or determined in advance)',
        any: [[r('\\b(assist|cooperat)'), r('\\b(no (additional )?(cost|charge|fee)|free of charge|at (its|our) (own )?(cost|expense)|costs? (and|or) fees)')]],
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
    query: 'cooperate with regulator supervisory authority competent authority regulatory audit investigation',
    elements: [
      {
        id: 'authorities',
        label: "Cooperation with the customer's regulators or supervisory authorities",
        any: [
          [
            r('\\b(regulator|regulatory|supervisory authorit|competent (supervisory )?authorit|resolution authorit)'),
            r('\\b(cooperat|participat|submit|assist|access|audit|respond|investigat)'),
          ],
        ],
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
    query: 'termination notice period days written notice terminate agreement',
    elements: [
      {
        id: 'termination',
        label: 'Termination rights',
        any: [[r(TERMINATE), r('\\b(may|right|either party|customer|you)\\b')]],
      },
      {
        id: 'notice',
        label: 'Notice period for termination',
        any: [
          [
            r(`${TERMINATE}|\\bcancel`),
            r('\\b(\\d+|thirty|sixty|ninety)[ -](\\(\\d+\\) )?(calendar |business )?days?\\b|\\bnotice period\\b|\\bprior (written )?notice\\b'),
          ],
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
    query: 'security awareness training employees personnel privacy training participate customer programme',
    elements: [
      {
        id: 'own-training',
        label: "Security awareness training of the provider's personnel",
        any: [[r('\\b(training|awareness)\\b'), r('\\b(security|privacy|data protection)\\b')]],
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
    query: 'uptime percentage calculated measured quarterly monthly service credits corrective actions performance targets',
    elements: [
      {
        id: 'quantitative',
        label: 'Quantitative performance target',
        any: [[r('\\b\\d{2}(\\.\\d+)?\\s?%'), r('\\b(uptime|availab|service level)')]],
      },
      {
        id: 'measurement',
        label: 'How performance is measured or reported',
        any: [[r('\\b(uptime|availab|downtime|service level)'), r('\\b(calculat|measur|monitor|report|status page|per (calendar )?(month|quarter))')]],
      },
      {
        id: 'corrective',
        label: 'Corrective action or remedy when targets are missed',
        any: [[r('\\bservice credits?\\b')], [r('\\b(corrective|remed)'), r('\\b(uptime|service level|availab)')]],
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
          [r(PROVIDER_NOTIFIES), r(INCIDENT), r(PROMPTLY)],
          [r('\\bnotif(y|ies|ication)\\b[^.]{0,40}\\b(customer|you|data exporter|controller)\\b'), r(PROMPTLY)],
        ],
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
    query: 'business continuity disaster recovery plan tested recovery time objective recovery point objective RTO RPO failover',
    elements: [
      {
        id: 'plan',
        label: 'Business continuity or disaster recovery plan',
        any: [[r('\\bbusiness continuity\\b|\\bdisaster recovery\\b|\\bcontingency plan|\\bcontinuity plan')]],
      },
      {
        id: 'testing',
        label: 'The plans are tested',
        any: [
          [r('\\b(continuity|disaster recovery|contingency|failover|restor)'), r('\\b(test(s|ed|ing)?|exercis|drill)')],
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
    query: 'penetration testing threat-led red team customer security testing cooperate',
    elements: [
      {
        id: 'pentest',
        label: 'Penetration testing performed or permitted',
        any: [[r('\\bpenetration test|\\bpen[ -]?test|\\bred[- ]team|\\bthreat[- ]led')]],
      },
      {
        id: 'customer-testing',
        label: 'Customer may test or take part in testing',
        any: [
          [
            r(
              '\\b(customer|you|data exporter)\\b[^.]{0,60}\\b(may|can|right to|permitted to|allowed to)\\b[^.]{0,60}\\b(penetration|security|vulnerability) test',
            ),
          ],
        ],
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
    query: 'right to audit inspection premises physical facilities supervisory authority audit access information monitor performance',
    elements: [
      {
        id: 'audit-right',
        label: 'Audit and inspection by the entity or its auditor',
        any: [[r(`${AUDIT}|\\binspect`), r('\\b(customer|data exporter|controller|auditor)\\b'), r('\\b(may|right|allow|conduct|contribute|submit)')]],
      },
      {
        id: 'premises',
        label: 'Access to premises or facilities',
        any: [[r('\\b(premises|physical facilities|facilities|on-?site)\\b'), r(`${AUDIT}|\\binspect`)]],
      },
      {
        id: 'authority-access',
        label: 'Audit or access rights of supervisory authorities',
        any: [[r('\\b(supervisory authorit|regulator|competent authorit)'), r(`${AUDIT}|\\binspect|\\baccess`)]],
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
    query: 'transition period after termination continue to provide services migrate to another provider access data after cancellation days',
    elements: [
      {
        id: 'transition-period',
        label: 'Period after termination during which service or data access continues',
        any: [
          [r('\\btransition(al)? (period|assistance)')],
          [
            r('\\b(after|following|upon) (termination|cancell?ation|expiration)'),
            r('\\b(\\d+|thirty|sixty|ninety) days\\b'),
            r('\\b(access|retriev|export|download|continu)'),
          ],
        ],
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
        any: [[r('\\bencrypt'), r('\\b(in[- ]transit|TLS|SSL|HTTPS|over public networks|transmission|transmitted)')]],
      },
      {
        id: 'rest',
        label: 'Encryption at rest',
        any: [[r('\\bencrypt'), r('\\b(at[- ]rest|stored|storage|disks?|databases?|AES)')]],
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
        any: [
          [r('\\bleast privilege|\\bneed[- ]to[- ]know|\\brole-based access|\\baccess control')],
          [r('\\baccess\\b'), r('\\b(restrict|limit)(ed|s)?\\b'), r('\\b(employees?|personnel|staff|authori[sz]ed)')],
        ],
      },
      {
        id: 'strong-auth',
        label: 'Strong (multi-factor) authentication',
        any: [[r('\\b(two|multi|2)[- ]factor|\\b2FA\\b|\\bMFA\\b|\\bstrong authentication|\\bsecurity keys?\\b|\\bhardware keys?\\b')]],
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
          [r('\\bchange management|\\bchange control|\\bcode review|\\bpeer review')],
          [r('\\bchanges?\\b'), r('\\b(reviewed|approved|tested|authori[sz]ed)\\b'), r('\\b(production|systems?|software|code)\\b')],
        ],
      },
      {
        id: 'patching',
        label: 'Patching and vulnerability management',
        any: [[r('\\bpatch(ed|ing)\\b|\\bsecurity (patches|updates)\\b|\\bvulnerability management\\b|\\bapply(ing)? (security )?(patches|updates)')]],
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
        any: [[r('\\b(monitor|alert|detect)'), r('\\b(anomal|suspicious|intrusion|security|malicious|threat)')]],
      },
      {
        id: 'logging',
        label: 'Logging of activity',
        any: [[r('\\b(logs?|logging|audit trails?|audited)\\b'), r('\\b(access|activity|events?|employee)')]],
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
        any: [[r('\\bbusiness continuity\\b|\\bdisaster recovery\\b|\\bcontingency plan|\\bfailover\\b|\\bredundan')]],
      },
      {
        id: 'tested',
        label: 'Continuity arrangements tested',
        any: [[r('\\b(continuity|disaster recovery|contingency|failover|recovery)'), r('\\b(test(s|ed|ing)?|exercis|drill)')]],
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
        any: [[r('\\bback(ed)?[- ]?ups?\\b'), r('\\b(daily|hourly|every|nightly|weekly|retain|retention|\\d+ days)')]],
      },
      {
        id: 'separate-site',
        label: 'Backups or replicas in a separate location',
        any: [
          [
            r('\\b(back(ed)?[- ]?ups?|replica|replicated|stored|secondary|redundan)'),
            r(
              '\\b(multiple|separate|different|secondary|geographically|distinct) (locations?|sites?|data cent|regions?)|\\bgeographically (dispersed|separate|distributed)',
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
        any: [[r('\\bincident response\\b|\\bincident management\\b|\\bincident handling\\b|\\bSIRT\\b|\\bCSIRT\\b|\\bsecurity incident response team')]],
      },
      {
        id: 'records',
        label: 'Incidents recorded, classified or escalated',
        any: [[r(INCIDENT), r('\\b(record|log|track|classif|categori[sz]|escalat|severity|priorit)')]],
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
        any: [[r('\\bpenetration test|\\bpen[ -]?test|\\bvulnerability (scan|assessment|test)|\\bbug bounty|\\bsecurity test')]],
      },
      {
        id: 'regular-independent',
        label: 'Testing regular or by independent parties',
        any: [
          [
            r('\\b(penetration|vulnerability|security) (test|scan|assessment)|\\bbug bounty'),
            r('\\b(regular|annual|periodic|quarter|continuous|ongoing|independent|third[- ]part|external|researchers)'),
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
