/**
 * The register fields a draft covers (docs/register-drafting.md, "Fields"): where each
 * accepted value goes in the vendor profile, its form, and the retrieval queries that
 * find the passages that can settle it.
 */

import { DRAFT_FIELDS, type DraftField, type FieldForm } from '../../domain/profileDrafts.js';

export interface FieldSpec {
  label: string;
  form: FieldForm;
  /** `profile`: a top-level profile field; `contract`: a field of the draft's contract (the first one). */
  target: 'profile' | 'contract';
  queries: string[];
  /** Passages per query when a field's evidence is spread over many passages (a long subprocessor table). */
  limit?: number;
  /**
   * What settles the field and what does not: the rules of src/compliance/drafting/extractors.ts
   * in words, given to the model path (model.ts) as the tool's description, so both read a
   * field the same way.
   */
  definition: string;
}

/**
 * The notice periods of both parties are read from the same passages: a clause of "either party" or one that
 * names both sets both, and a query worded for one party's clause finds the other's too (the search results
 * are shared between fields, so the union costs no extra search).
 */
const NOTICE_QUERIES = [
  'terminate agreement prior written notice days',
  'termination for convenience notice period',
  'cancel account notice',
  'you may terminate cancel at any time',
  'we may terminate notice',
  'we may terminate suspend discontinue at any time without notice',
  'notice of non-renewal days prior to the end of the term',
];

export const FIELD_SPECS: Record<DraftField, FieldSpec> = {
  legalName: {
    label: 'Legal name of the provider',
    definition:
      'The provider\'s legal entity name (with its suffix: Inc., LLC, GmbH, Ltd, LLP ...) as the contract names it: the preamble ("entered into by and between X Inc.", "between you and X LLP"), a definition ("“Company”, “we” means X Inc."), the data importer block of the SCC annexes, a signature or imprint block. Not an affiliate, a subprocessor or the customer.',
    form: 'text',
    target: 'profile',
    queries: [
      'data importer name address',
      'company we are referring to LLC Inc',
      'agreement between customer and provider',
      'entered into by and between you and corporation',
      '“we”, “us” and “our” means company',
      'registered with the commercial register under',
    ],
  },
  address: {
    label: 'Address of the provider',
    definition:
      "The postal address of the provider's legal entity named as the provider (\"X Inc., located at 1 Main Street, City, ST 12345\", `Address:` of the data importer, a contact or signature block under the provider's name). Not an affiliate's, an agent's or a subprocessor's address.",
    form: 'text',
    target: 'profile',
    queries: ['data importer name address', 'mailing address contact us', 'street address postal', 'corporation located at offices at'],
  },
  description: {
    label: 'Description of the ICT service',
    definition:
      'What the ICT service is, in the provider\'s words: "X provides / operates / is a ... platform for ...", the definition of the Services or Platform. Not marketing about customers, not a third party\'s service.',
    form: 'text',
    target: 'profile',
    queries: [
      'activities relevant to the data transferred',
      'provider of software services',
      'services we provide',
      'platform means proprietary software-as-a-service',
      'provides operates a hosted platform service',
      'is a cloud-based web application interface for',
      'our platform enables users to create and manage',
    ],
  },
  ictServiceType: {
    label: 'Type of ICT service (EBA S01-S19)',
    definition:
      "The EBA type of the service (S01-S19) only where a passage describing the provider's own service names it (software-as-a-service → S19, platform-as-a-service → S18, infrastructure-as-a-service → S17). Never inferred from the kind of product alone.",
    form: 'serviceType',
    target: 'profile',
    queries: [
      'software-as-a-service provider cloud',
      'activities relevant to the data transferred',
      'hosting infrastructure platform services',
      'provided as a service SaaS basis',
    ],
  },
  startDate: {
    label: 'Contract start date',
    definition:
      'A calendar date on which the contract starts ("This Agreement commences on 1 March 2024"). A start tied to an event (order form, sign-up, acceptance, first use) has no date: record nothing and give it as open. A version or last-updated date is not a start date.',
    form: 'date',
    target: 'contract',
    queries: [
      'agreement starts effective date',
      'commencement date of the agreement',
      'effective date means order form first access',
      'these terms take effect when you accept them or begin using the services',
      'the contract is concluded when the order is accepted',
    ],
  },
  endDate: {
    label: 'Contract end date (or indefinite)',
    definition:
      'A calendar date on which the contract ends, or null when it runs until terminated ("continues until terminated", "indefinite term", "remains in effect while you use the Services"). A term set in an order form, tied to an active subscription, or month to month has no end date: open.',
    form: 'dateOrIndefinite',
    target: 'contract',
    queries: ['term of agreement until terminated', 'agreement expires end date term', 'terms remain in effect while active subscription'],
  },
  renewal: {
    label: 'Renewal',
    definition:
      'How the contract or subscription renews: "automatically renews for successive one-year terms", "month-to-month", "automatically extended for periods of the same duration", charged on a recurring basis.',
    form: 'text',
    target: 'contract',
    queries: ['renewal subscription term', 'automatically renew', 'automatically renewed extended successive periods'],
  },
  noticePeriodDaysEntity: {
    label: 'Termination notice period of the financial entity (days)',
    definition:
      'The notice in days (months x 30, weeks x 7) the customer (financial entity) must give to terminate for convenience, or of non-renewal, from a clause whose subject is the customer or either party ("Either Party may terminate upon thirty (30) days\' notice"). Termination for breach, insolvency or suspension does not count. A customer who may terminate or cancel at any time, immediately or without notice has no period: open, with that reason.',
    form: 'days',
    target: 'contract',
    queries: NOTICE_QUERIES,
  },
  noticePeriodDaysProvider: {
    label: 'Termination notice period of the provider (days)',
    definition:
      'The notice in days the provider must give to terminate for convenience, or of non-renewal, from a clause whose subject is the provider or either party ("We may terminate upon 30 days\' notice", "X shall observe a notice period of one (1) month"). Termination for breach or suspension does not count. A provider that may terminate or discontinue at any time, immediately, without notice or at its sole discretion has no period: open.',
    form: 'days',
    target: 'contract',
    queries: NOTICE_QUERIES,
  },
  governingLaw: {
    label: 'Governing law (country)',
    definition:
      'The country whose law governs the contract (ISO code): "governed by the laws of X" (a US state → US, a Canadian province → CA, an Australian state → AU, England and Wales → GB). Never the courts, venue or jurisdiction, nor the law of the SCCs. Where the law depends on where the customer is or which instance it uses, the branch for EU customers.',
    form: 'country',
    target: 'contract',
    queries: ['governed by the laws of', 'governing law jurisdiction courts', 'construed in accordance with the laws of the State of'],
  },
  serviceLocations: {
    label: 'Countries where the service is provided',
    definition:
      'Countries (ISO codes) where the provider provides or operates the service ("operated in the United States", "run on servers in the USA"). Only countries stated as where the service is, not a third party\'s office, a website\'s cookies or analytics, or a hedged or open list ("primarily", "and other countries"). Only a region (EU, EEA) named: open.',
    form: 'countries',
    target: 'contract',
    queries: ['services operated in country', 'where the service is provided', 'servers running in hosted in', 'hosting subprocessor location'],
  },
  dataStorageLocations: {
    label: 'Countries where data is stored',
    definition:
      'Countries (ISO codes) where the customer\'s data is stored or hosted ("hosted in", "data centers in", "stored in"), including the single hosting subprocessor\'s processing location. Not a website\'s cookies or analytics, not hedged or open-ended lists; only a region named, or several hosts in different places: open.',
    form: 'countries',
    target: 'contract',
    queries: ['data stored in country', 'data centers located infrastructure hosted', 'location of data storage', 'hosting subprocessor location'],
  },
  dataProcessingLocations: {
    label: 'Countries where data is processed',
    definition:
      'Countries (ISO codes) where the customer\'s data is processed ("processed in", "processed entirely within"), including the single hosting subprocessor\'s processing location. Not hedged or open-ended lists ("may be processed in the US and other countries"): open.',
    form: 'countries',
    target: 'contract',
    queries: [
      'data processed in country location of processing',
      'transfer of personal data to the United States',
      'servers running in hosted in',
      'hosting subprocessor location',
    ],
  },
  subcontractors: {
    label: 'Subcontractors (subprocessors) with role and location',
    definition:
      "Every subprocessor or subcontractor the provider lists for the service: the rows of a subprocessor table (its name / entity / company column, with its purpose and location) or the items of a list under a heading or lead-in about subprocessors. Never a privacy policy's cookie or analytics suppliers.",
    form: 'subcontractors',
    target: 'profile',
    queries: [
      'subprocessors list name location',
      'third party subprocessors',
      'subprocessors located in',
      'name of subprocessor description of processing location of processing',
      'subsidiaries subprocessor corporate location',
      'list of sub-processors used',
      'company purpose country sub-processing',
    ],
    limit: 30,
  },
  personalData: {
    label: 'Personal data processed',
    definition:
      'Whether the provider processes personal data for the customer: true where it is the processor ("Customer is the controller and X is the processor", "processes personal data on behalf of Customer") or uses subprocessors with access to customer data; false where it says it processes none. Personal data processed on the provider\'s own behalf (its marketing) does not settle it: open.',
    form: 'boolean',
    target: 'contract',
    queries: ['processes personal data on behalf of customer', 'personal data processing', 'customer is the controller and the processor'],
  },
  auditRights: {
    label: 'Audit and access rights',
    definition:
      'The customer\'s right to audit or inspect the provider, or to receive its audit reports: "Customer may audit", "permit the Client to conduct audits and inspections", "SOC 2 report available upon request". Never from a sentence that negates ("we do not hold a SOC 2 report", "nothing grants audit rights").',
    form: 'text',
    target: 'contract',
    queries: ['customer audit rights inspection', 'audits and certifications request', 'on-site audit', 'SOC 2 report upon request'],
  },
  exitProvisions: {
    label: 'Exit and transition provisions',
    definition:
      'What happens to the customer\'s data when the contract ends: return, export, retrieval or deletion of the data upon or after termination or cancellation ("within 90 days of termination we delete your content"), transition assistance at exit.',
    form: 'text',
    target: 'contract',
    queries: [
      'upon termination return or delete customer data',
      'export data after cancellation',
      'transition assistance termination',
      'retrieve content after account termination',
    ],
  },
};

export const isDraftField = (f: string): f is DraftField => (DRAFT_FIELDS as readonly string[]).includes(f);
