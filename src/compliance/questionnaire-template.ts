import type { ChoiceOption, ScoringRule, StoredQuestion, StoredSection } from '../db/schema/questionnaires.js';

/**
 * The DORA ICT third-party due-diligence questionnaire (docs/questionnaires.md).
 *
 * Every question maps to DORA articles (Regulation (EU) 2022/2554): mainly the key
 * contractual provisions of Article 30(2) (all ICT services) and 30(3) (services
 * supporting critical or important functions), with Articles 28-29 (third-party
 * risk, subcontracting, concentration), 5-16 (ICT risk management controls), 17-19
 * (incident management and reporting), 24-27 (resilience testing) and 45
 * (information sharing).
 *
 * Answer types: `yes_no` (yes / no / partial / na), `text`, `date` (YYYY-MM-DD),
 * `number`, `choice`. Weights: sections weigh in the total, questions inside their
 * section; weight 0 = informational (not scored). Scoring rules turn a number or a
 * date into points (0..1); yes = 1, partial = 0.5, no = 0, na = not scored.
 *
 * The template is versioned: a questionnaire stores a snapshot of the questions it
 * was created with, so a new template version never changes an existing one.
 */

export const DORA_TEMPLATE_ID = 'dora-ict-tpp';
export const DORA_TEMPLATE_VERSION = '1.0';

export interface QuestionnaireTemplate {
  id: string;
  version: string;
  title: string;
  description: string;
  sections: StoredSection[];
  questions: StoredQuestion[];
}

type Q = Omit<StoredQuestion, 'sectionId' | 'articles' | 'required' | 'weight'> & {
  articles?: string[];
  required?: boolean;
  weight?: number;
};

/** `Art. 30(2)(a)` -> `Article 30`. */
function articlesOf(references: string[]): string[] {
  const out = new Set<string>();
  for (const r of references) {
    const m = /^Art\.\s*(\d+)/.exec(r);
    if (m) out.add(`Article ${m[1]}`);
  }
  return [...out];
}

function yesNo(q: Omit<Q, 'type'>): Q {
  return { type: 'yes_no', allowPartial: true, allowNa: true, ...q };
}
function num(q: Omit<Q, 'type'> & { scoring: ScoringRule }): Q {
  return { type: 'number', ...q };
}

function section(s: Omit<StoredSection, 'articles'>, questions: Q[]): { section: StoredSection; questions: StoredQuestion[] } {
  const qs: StoredQuestion[] = questions.map((q) => {
    const articles = q.articles ?? articlesOf(q.references);
    return {
      required: true,
      weight: q.type === 'text' ? 0 : 1,
      ...q,
      sectionId: s.id,
      articles,
    };
  });
  const articles = [...new Set(qs.flatMap((q) => q.articles))].sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
  return { section: { ...s, articles }, questions: qs };
}

const TLPT_OPTIONS: ChoiceOption[] = [
  { value: 'performed', label: 'Yes, a TLPT (e.g. TIBER-EU) covering the service was performed in the last 3 years', score: 1 },
  { value: 'pooled', label: 'We take part in pooled TLPT with our financial-entity clients', score: 1 },
  { value: 'planned', label: 'Planned within the next 12 months', score: 0.5 },
  { value: 'none', label: 'No', score: 0 },
  { value: 'not_applicable', label: 'Not applicable to this service', score: null },
];

const parts = [
  section(
    {
      id: 'general',
      title: 'Provider and service',
      description: 'Who provides what: the facts the register of information needs (informational, not scored).',
      weight: 0,
    },
    [
      {
        id: 'GEN-01',
        type: 'text',
        text: 'Legal name of the contracting entity and its Legal Entity Identifier (LEI), if any.',
        references: ['Art. 28(3)'],
        prefillQuery: 'legal name entity company incorporated',
      },
      {
        id: 'GEN-02',
        type: 'text',
        text: 'Describe the ICT services you provide to us and the business functions they support.',
        references: ['Art. 28(3)', 'Art. 30(2)(a)'],
        prefillQuery: 'description of the services provided',
      },
      {
        id: 'GEN-03',
        type: 'text',
        text: 'Contact point for ICT security and incident matters (name, e-mail, 24/7 telephone).',
        references: ['Art. 30(2)(f)'],
        prefillQuery: 'security incident contact report email',
      },
    ],
  ),
  section(
    {
      id: 'contract',
      title: 'Key contractual provisions (Art. 30(2))',
      description: 'Provisions every contractual arrangement on the use of ICT services must contain.',
      weight: 3,
    },
    [
      yesNo({
        id: 'CON-01',
        weight: 1,
        text: 'Is the full agreement, including the service level agreements, set out in one written document available in a durable, downloadable format?',
        references: ['Art. 30(1)'],
        prefillQuery: 'entire agreement written terms service level agreement',
        evidenceTerms: ['entire agreement', 'supersede', 'service level'],
      }),
      yesNo({
        id: 'CON-02',
        weight: 2,
        text: 'Does the contract give a clear and complete description of all functions and ICT services provided, and state whether (and on which conditions) subcontracting of services supporting critical or important functions is permitted?',
        references: ['Art. 30(2)(a)'],
        prefillQuery: 'description of services subcontracting subprocessors conditions',
        evidenceTerms: ['service', 'subprocessor', 'subcontract'],
      }),
      yesNo({
        id: 'CON-03',
        weight: 3,
        text: 'Does the contract state the regions or countries where the services are provided and where data is processed and stored, and oblige you to notify us in advance of any change of these locations?',
        references: ['Art. 30(2)(b)'],
        prefillQuery: 'data location countries processing storage notify change',
        evidenceTerms: ['data', 'location', 'process', 'store', 'notify'],
      }),
      yesNo({
        id: 'CON-04',
        weight: 3,
        text: 'Does the contract contain provisions on the availability, authenticity, integrity and confidentiality of data, including personal data?',
        references: ['Art. 30(2)(c)'],
        prefillQuery: 'confidentiality integrity availability security of personal data',
        evidenceTerms: ['confidentiality', 'integrity', 'availability', 'data'],
      }),
      yesNo({
        id: 'CON-05',
        weight: 3,
        text: 'Does the contract ensure access to, recovery and return of our data in an easily accessible format on your insolvency, resolution or discontinuation of business, or on termination of the contract?',
        references: ['Art. 30(2)(d)'],
        prefillQuery: 'return of data export deletion upon termination',
        evidenceTerms: ['data', 'return', 'export', 'termination', 'delete'],
      }),
      yesNo({
        id: 'CON-06',
        weight: 2,
        text: 'Does the contract include service level descriptions, including their updates and revisions?',
        references: ['Art. 30(2)(e)'],
        prefillQuery: 'service level agreement uptime service credits',
        evidenceTerms: ['service', 'level', 'uptime', 'credit'],
      }),
      yesNo({
        id: 'CON-07',
        weight: 2,
        text: 'Are you obliged to assist us when an ICT incident related to the service occurs, at no additional cost or at a cost determined in advance?',
        references: ['Art. 30(2)(f)'],
        prefillQuery: 'assist customer security incident investigate mitigate',
        evidenceTerms: ['incident', 'assist', 'customer', 'mitigate'],
      }),
      yesNo({
        id: 'CON-08',
        weight: 2,
        text: 'Are you obliged to cooperate fully with our competent authorities and resolution authorities, including persons appointed by them?',
        references: ['Art. 30(2)(g)'],
        prefillQuery: 'cooperate with regulator supervisory authority audit',
        evidenceTerms: ['regulator', 'authority', 'cooperate', 'audit'],
      }),
      yesNo({
        id: 'CON-09',
        weight: 2,
        text: 'Does the contract set out termination rights and minimum notice periods that meet the expectations of competent and resolution authorities (including termination for breach, material change and supervisory reasons)?',
        references: ['Art. 30(2)(h)', 'Art. 28(7)'],
        prefillQuery: 'termination for cause notice period terminate agreement',
        evidenceTerms: ['terminate', 'notice', 'days', 'breach'],
      }),
      yesNo({
        id: 'CON-10',
        weight: 1,
        text: 'Will your staff take part in our ICT security awareness programmes and digital operational resilience training where we require it?',
        references: ['Art. 30(2)(i)', 'Art. 13(6)'],
        prefillQuery: 'security awareness training personnel',
        evidenceTerms: ['security', 'training', 'awareness'],
      }),
      num({
        id: 'CON-11',
        weight: 1,
        text: 'Minimum notice period you must give before terminating the contract for convenience (days; 0 if none).',
        references: ['Art. 30(2)(h)'],
        unit: 'days',
        min: 0,
        max: 3650,
        scoring: { kind: 'range', best: 180, worst: 30 },
        prefillQuery: 'terminate for convenience days notice',
        evidenceTerms: ['terminate', 'notice', 'days'],
      }),
    ],
  ),
  section(
    {
      id: 'critical',
      title: 'Services supporting critical or important functions (Art. 30(3))',
      description: 'Additional provisions for services that support critical or important functions; answer `na` where the service does not.',
      weight: 3,
    },
    [
      yesNo({
        id: 'CIF-01',
        weight: 2,
        text: 'Does the contract contain full service level descriptions with precise quantitative and qualitative performance targets, so that we can monitor the service and take corrective action when they are not met?',
        references: ['Art. 30(3)(a)'],
        prefillQuery: 'uptime percentage service level measured quarterly service credits',
        evidenceTerms: ['uptime', 'service', 'level', 'credit'],
      }),
      num({
        id: 'CIF-02',
        weight: 1,
        text: 'Contractual availability target of the service (percent).',
        references: ['Art. 30(3)(a)'],
        unit: '%',
        min: 0,
        max: 100,
        scoring: { kind: 'range', best: 99.99, worst: 99 },
        prefillQuery: 'uptime percentage availability commitment',
        evidenceTerms: ['uptime'],
      }),
      yesNo({
        id: 'CIF-03',
        weight: 2,
        text: 'Are you obliged to report to us, with defined notice periods, any development that might materially affect your ability to provide the service at the agreed service levels?',
        references: ['Art. 30(3)(b)'],
        prefillQuery: 'notify customer material change ability to provide services',
        evidenceTerms: ['notify', 'change', 'material'],
      }),
      yesNo({
        id: 'CIF-04',
        weight: 3,
        text: 'Are you required to implement and test business contingency plans and to have ICT security measures, tools and policies that give an appropriate level of security for the service?',
        references: ['Art. 30(3)(c)'],
        prefillQuery: 'business continuity disaster recovery plan tested security measures',
        evidenceTerms: ['continuity', 'recovery', 'plan', 'test'],
      }),
      yesNo({
        id: 'CIF-05',
        weight: 2,
        text: 'Are you obliged to take part and cooperate fully in our threat-led penetration testing (TLPT)?',
        references: ['Art. 30(3)(d)', 'Art. 26', 'Art. 27'],
        prefillQuery: 'penetration testing customer cooperate threat led',
        evidenceTerms: ['penetration', 'test'],
      }),
      yesNo({
        id: 'CIF-06',
        weight: 3,
        text: 'Do we, an appointed third party and the competent authority have unrestricted rights of access, inspection and audit, including the right to take copies of relevant documentation on site?',
        references: ['Art. 30(3)(e)(i)', 'Art. 28(6)'],
        prefillQuery: 'audit rights inspection access customer regulator',
        evidenceTerms: ['audit', 'inspect', 'access', 'right'],
      }),
      yesNo({
        id: 'CIF-07',
        weight: 2,
        text: 'Will you cooperate fully during on-site inspections and audits by the competent authorities, the Lead Overseer, us or an appointed third party, and tell us the scope, procedures and frequency of such inspections and audits?',
        references: ['Art. 30(3)(e)(iii)', 'Art. 30(3)(e)(iv)'],
        prefillQuery: 'on-site audit inspection cooperation scope frequency',
        evidenceTerms: ['audit', 'cooperate', 'scope'],
      }),
      yesNo({
        id: 'CIF-08',
        weight: 3,
        text: 'Does the contract provide a mandatory, adequate transition period on exit during which you keep providing the service while we migrate to another provider or in-house?',
        references: ['Art. 30(3)(f)', 'Art. 28(8)'],
        prefillQuery: 'transition period after termination continue to provide services migration',
        evidenceTerms: ['transition', 'termination', 'continue'],
      }),
      num({
        id: 'CIF-09',
        weight: 1,
        text: 'Length of the guaranteed transition period on exit (months; 0 if none).',
        references: ['Art. 30(3)(f)'],
        unit: 'months',
        min: 0,
        max: 120,
        scoring: { kind: 'range', best: 12, worst: 0 },
        prefillQuery: 'transition period months after termination',
        evidenceTerms: ['transition', 'months'],
      }),
    ],
  ),
  section(
    {
      id: 'third_party',
      title: 'Subcontracting, concentration and exit (Art. 28-29)',
      description: 'Subcontractors, data locations, security standards and exit planning.',
      weight: 2,
    },
    [
      yesNo({
        id: 'TPR-01',
        weight: 2,
        text: 'Do you keep a complete list of the subcontractors (subprocessors) involved in the service, with their locations, and publish changes to it in advance?',
        references: ['Art. 28(3)', 'Art. 29(2)', 'Art. 30(2)(a)'],
        prefillQuery: 'list of subprocessors location notice new subprocessor',
        evidenceTerms: ['subprocessor', 'location', 'notice'],
      }),
      num({
        id: 'TPR-02',
        weight: 1,
        text: 'Advance notice you give before a new subcontractor starts processing our data (days).',
        references: ['Art. 29(2)', 'Art. 30(2)(a)'],
        unit: 'days',
        min: 0,
        max: 365,
        scoring: { kind: 'range', best: 30, worst: 0 },
        prefillQuery: 'days notice before new subprocessor',
        evidenceTerms: ['subprocessor', 'days'],
      }),
      yesNo({
        id: 'TPR-03',
        weight: 2,
        text: 'Do your subcontractors carry the same obligations towards you (security, data location, audit, confidentiality) that you carry towards us, and do you remain fully responsible for them?',
        references: ['Art. 29(2)', 'Art. 30(2)(a)'],
        prefillQuery: 'subprocessor obligations same data protection remain responsible',
        evidenceTerms: ['subprocessor', 'obligation', 'responsible'],
      }),
      {
        id: 'TPR-04',
        type: 'text',
        text: 'Countries where our data is stored and where it is processed (including by subcontractors).',
        references: ['Art. 29(2)', 'Art. 30(2)(b)'],
        prefillQuery: 'data stored processed country location united states european union',
      },
      yesNo({
        id: 'TPR-05',
        weight: 2,
        text: 'Do you hold current information security certifications or attestations covering the service (e.g. ISO/IEC 27001, SOC 2 Type II)?',
        references: ['Art. 28(5)'],
        prefillQuery: 'ISO 27001 SOC 2 certification audit report',
        evidenceTerms: ['iso', 'soc', 'certif', 'audit'],
      }),
      {
        id: 'TPR-06',
        type: 'date',
        required: false,
        weight: 1,
        text: 'Expiry date of your main information security certification or the end of the period covered by your latest attestation report (leave empty if none).',
        references: ['Art. 28(5)'],
        scoring: { kind: 'validity', fullFromDays: 180 },
      },
      yesNo({
        id: 'TPR-07',
        weight: 2,
        text: 'Do you have a documented exit and termination-assistance plan (including return and deletion of our data) that you review or test periodically?',
        references: ['Art. 28(8)'],
        prefillQuery: 'termination assistance exit plan data deletion return',
        evidenceTerms: ['termination', 'data', 'delete', 'return'],
      }),
    ],
  ),
  section(
    {
      id: 'ict_risk',
      title: 'ICT risk management (Art. 5-16)',
      description: 'Your ICT risk management framework and controls protecting the service.',
      weight: 2,
    },
    [
      yesNo({
        id: 'ICT-01',
        weight: 3,
        text: 'Do you have a documented ICT risk management framework, approved by your management and reviewed at least yearly?',
        references: ['Art. 5', 'Art. 6'],
        prefillQuery: 'information security program risk management policy reviewed annually',
        evidenceTerms: ['risk', 'security', 'program', 'annual'],
      }),
      yesNo({
        id: 'ICT-02',
        weight: 2,
        text: 'Do you keep an up-to-date inventory of the ICT assets and dependencies that support the service?',
        references: ['Art. 8'],
        prefillQuery: 'asset inventory management',
        evidenceTerms: ['asset', 'inventory'],
      }),
      yesNo({
        id: 'ICT-03',
        weight: 3,
        text: 'Is our data encrypted in transit and at rest?',
        references: ['Art. 9'],
        prefillQuery: 'encrypted in transit at rest TLS HTTPS',
        evidenceTerms: ['encrypt', 'transit', 'rest'],
      }),
      yesNo({
        id: 'ICT-04',
        weight: 3,
        text: 'Is access to systems and data restricted on a least-privilege basis, with multi-factor authentication for privileged and remote access?',
        references: ['Art. 9'],
        prefillQuery: 'access control least privilege multi-factor authentication',
        evidenceTerms: ['access', 'authentication', 'privilege'],
      }),
      yesNo({
        id: 'ICT-05',
        weight: 2,
        text: 'Do you monitor continuously to detect anomalous activity (logging, alerting, security operations)?',
        references: ['Art. 10'],
        prefillQuery: 'continuous monitoring detect attacks logging alert',
        evidenceTerms: ['monitor', 'detect', 'alert'],
      }),
      yesNo({
        id: 'ICT-06',
        weight: 3,
        text: 'Do you have an ICT business continuity policy and disaster recovery plans for the service, tested at least yearly?',
        references: ['Art. 11'],
        prefillQuery: 'business continuity disaster recovery plan tested redundancy',
        evidenceTerms: ['continuity', 'recovery', 'test'],
      }),
      num({
        id: 'ICT-07',
        weight: 1,
        text: 'Recovery time objective (RTO) of the service (hours).',
        references: ['Art. 11', 'Art. 12'],
        unit: 'hours',
        min: 0,
        max: 8760,
        scoring: { kind: 'range', best: 4, worst: 72 },
        prefillQuery: 'recovery time objective hours',
        evidenceTerms: ['recovery', 'hours'],
      }),
      yesNo({
        id: 'ICT-08',
        weight: 2,
        text: 'Are backups taken regularly, stored in a segregated location and restored in periodic tests?',
        references: ['Art. 12'],
        prefillQuery: 'backups daily stored multiple locations encrypted restore',
        evidenceTerms: ['backup', 'locat', 'store'],
      }),
      yesNo({
        id: 'ICT-09',
        weight: 2,
        text: 'Do you run a vulnerability and patch management process with defined remediation times for critical vulnerabilities?',
        references: ['Art. 9', 'Art. 10'],
        prefillQuery: 'security patches vulnerability management updated regularly',
        evidenceTerms: ['patch', 'vulnerab', 'update'],
      }),
      yesNo({
        id: 'ICT-10',
        weight: 1,
        text: 'Do you carry out post-incident reviews and give your staff regular ICT security awareness training?',
        references: ['Art. 13'],
        prefillQuery: 'post-incident review lessons learned security training employees',
        evidenceTerms: ['training', 'incident', 'employee'],
      }),
      yesNo({
        id: 'ICT-11',
        weight: 1,
        text: 'Do you have crisis communication plans for informing clients about ICT incidents?',
        references: ['Art. 14'],
        prefillQuery: 'notify affected customers communication status page',
        evidenceTerms: ['notify', 'customer', 'communicat'],
      }),
    ],
  ),
  section(
    {
      id: 'incidents',
      title: 'ICT incident management and reporting (Art. 17-19)',
      description: 'How you detect, classify and report ICT-related incidents affecting the service.',
      weight: 2,
    },
    [
      yesNo({
        id: 'INC-01',
        weight: 3,
        text: 'Do you have a documented ICT incident management process (detection, logging, classification, escalation, response)?',
        references: ['Art. 17'],
        prefillQuery: 'incident response process record of security incidents team',
        evidenceTerms: ['incident', 'response', 'process'],
      }),
      yesNo({
        id: 'INC-02',
        weight: 1,
        text: 'Do you classify incidents by impact (clients affected, duration, geographic spread, data losses, criticality of services, economic impact)?',
        references: ['Art. 18'],
        prefillQuery: 'incident severity classification impact',
        evidenceTerms: ['incident', 'severity', 'impact'],
      }),
      num({
        id: 'INC-03',
        weight: 3,
        text: 'Maximum time to notify us of an incident affecting our service or data (hours).',
        references: ['Art. 19', 'Art. 30(3)(b)'],
        unit: 'hours',
        min: 0,
        max: 720,
        scoring: { kind: 'range', best: 4, worst: 72 },
        prefillQuery: 'notify customer security incident without undue delay hours',
        evidenceTerms: ['notify', 'incident', 'hours'],
      }),
      yesNo({
        id: 'INC-04',
        weight: 2,
        text: 'Will you give us the information we need to report major ICT-related incidents to our competent authority (initial notification, intermediate and final reports) within the regulatory deadlines?',
        references: ['Art. 19'],
        prefillQuery: 'assist customer notify regulatory authority incident information',
        evidenceTerms: ['assist', 'notify', 'authority', 'incident'],
      }),
      {
        id: 'INC-05',
        type: 'text',
        required: false,
        text: 'Describe any major ICT-related incidents affecting clients in the last 24 months and the remediation taken.',
        references: ['Art. 17', 'Art. 19'],
      },
    ],
  ),
  section(
    {
      id: 'testing',
      title: 'Digital operational resilience testing (Art. 24-27)',
      description: 'Your testing programme, penetration tests and threat-led testing.',
      weight: 2,
    },
    [
      yesNo({
        id: 'TST-01',
        weight: 2,
        text: 'Do you run a resilience testing programme for the service (vulnerability assessments and scans, network security assessments, scenario-based and performance tests)?',
        references: ['Art. 24', 'Art. 25'],
        prefillQuery: 'vulnerability scanning penetration testing program security researchers',
        evidenceTerms: ['test', 'vulnerab', 'security'],
      }),
      {
        id: 'TST-02',
        type: 'date',
        required: true,
        weight: 2,
        text: 'Date of the last independent penetration test of the service.',
        references: ['Art. 25'],
        scoring: { kind: 'recency', fullWithinDays: 365, zeroAfterDays: 730 },
        prefillQuery: 'penetration test third party last performed',
      },
      yesNo({
        id: 'TST-03',
        weight: 2,
        text: 'Are findings of tests tracked and critical findings remediated within defined times?',
        references: ['Art. 24(5)'],
        prefillQuery: 'findings remediated vulnerabilities fixed bug bounty',
        evidenceTerms: ['vulnerab', 'fix', 'remedi'],
      }),
      {
        id: 'TST-04',
        type: 'choice',
        required: true,
        weight: 1,
        text: 'Has the service been covered by threat-led penetration testing (TLPT)?',
        references: ['Art. 26', 'Art. 27'],
        options: TLPT_OPTIONS,
      },
    ],
  ),
  section(
    { id: 'info_sharing', title: 'Cyber threat information sharing (Art. 45)', description: 'Participation in threat intelligence sharing.', weight: 1 },
    [
      yesNo({
        id: 'INF-01',
        weight: 1,
        text: 'Do you take part in cyber threat information and intelligence sharing arrangements (e.g. ISACs, CERT communities)?',
        references: ['Art. 45'],
        prefillQuery: 'FIRST CERT community information sharing threat intelligence',
        evidenceTerms: ['first', 'cert', 'share'],
      }),
      yesNo({
        id: 'INF-02',
        weight: 1,
        text: 'Will you share with us threat intelligence and indicators of compromise relevant to the service?',
        references: ['Art. 45'],
        prefillQuery: 'share indicators of compromise threat information customers',
        evidenceTerms: ['share', 'threat', 'indicat'],
      }),
    ],
  ),
];

export const DORA_TEMPLATE: QuestionnaireTemplate = {
  id: DORA_TEMPLATE_ID,
  version: DORA_TEMPLATE_VERSION,
  title: 'DORA ICT third-party due diligence questionnaire',
  description:
    'Questions on the contractual provisions of DORA Article 30 and on the ICT risk management, incident reporting, testing and information-sharing practices (Articles 5-19, 24-29, 45) of an ICT third-party service provider.',
  sections: parts.map((p) => p.section),
  questions: parts.flatMap((p) => p.questions),
};

export const TEMPLATES: Record<string, QuestionnaireTemplate> = { [DORA_TEMPLATE_ID]: DORA_TEMPLATE };
export const TEMPLATE_IDS = Object.keys(TEMPLATES);
