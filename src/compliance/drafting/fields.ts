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
}

export const FIELD_SPECS: Record<DraftField, FieldSpec> = {
  legalName: {
    label: 'Legal name of the provider',
    form: 'text',
    target: 'profile',
    queries: ['data importer name address', 'company we are referring to LLC Inc', 'agreement between customer and provider'],
  },
  address: {
    label: 'Address of the provider',
    form: 'text',
    target: 'profile',
    queries: ['data importer name address', 'mailing address contact us', 'street address postal'],
  },
  description: {
    label: 'Description of the ICT service',
    form: 'text',
    target: 'profile',
    queries: ['activities relevant to the data transferred', 'provider of software services', 'services we provide'],
  },
  ictServiceType: {
    label: 'Type of ICT service (EBA S01-S19)',
    form: 'serviceType',
    target: 'profile',
    queries: ['software-as-a-service provider cloud', 'activities relevant to the data transferred', 'hosting infrastructure platform services'],
  },
  startDate: {
    label: 'Contract start date',
    form: 'date',
    target: 'contract',
    queries: ['agreement starts effective date', 'commencement date of the agreement'],
  },
  endDate: {
    label: 'Contract end date (or indefinite)',
    form: 'dateOrIndefinite',
    target: 'contract',
    queries: ['term of agreement until terminated', 'agreement expires end date term'],
  },
  renewal: { label: 'Renewal', form: 'text', target: 'contract', queries: ['renewal subscription term', 'automatically renew'] },
  noticePeriodDaysEntity: {
    label: 'Termination notice period of the financial entity (days)',
    form: 'days',
    target: 'contract',
    queries: ['terminate agreement prior written notice days', 'termination for convenience notice period', 'cancel account notice'],
  },
  noticePeriodDaysProvider: {
    label: 'Termination notice period of the provider (days)',
    form: 'days',
    target: 'contract',
    queries: ['terminate agreement prior written notice days', 'termination for convenience notice period', 'we may terminate notice'],
  },
  governingLaw: {
    label: 'Governing law (country)',
    form: 'country',
    target: 'contract',
    queries: ['governed by the laws of', 'governing law jurisdiction courts'],
  },
  serviceLocations: {
    label: 'Countries where the service is provided',
    form: 'countries',
    target: 'contract',
    queries: ['services operated in country', 'where the service is provided'],
  },
  dataStorageLocations: {
    label: 'Countries where data is stored',
    form: 'countries',
    target: 'contract',
    queries: ['data stored in country', 'data centers located infrastructure hosted', 'location of data storage'],
  },
  dataProcessingLocations: {
    label: 'Countries where data is processed',
    form: 'countries',
    target: 'contract',
    queries: ['data processed in country location of processing', 'transfer of personal data to the United States'],
  },
  subcontractors: {
    label: 'Subcontractors (subprocessors) with role and location',
    form: 'subcontractors',
    target: 'profile',
    queries: [
      'subprocessors list name location',
      'third party subprocessors',
      'subprocessors located in',
      'name of subprocessor description of processing location of processing',
      'subsidiaries subprocessor corporate location',
    ],
    limit: 30,
  },
  personalData: {
    label: 'Personal data processed',
    form: 'boolean',
    target: 'contract',
    queries: ['processes personal data on behalf of customer', 'personal data processing'],
  },
  auditRights: {
    label: 'Audit and access rights',
    form: 'text',
    target: 'contract',
    queries: ['customer audit rights inspection', 'audits and certifications request', 'on-site audit'],
  },
  exitProvisions: {
    label: 'Exit and transition provisions',
    form: 'text',
    target: 'contract',
    queries: ['upon termination return or delete customer data', 'export data after cancellation', 'transition assistance termination'],
  },
};

export const isDraftField = (f: string): f is DraftField => (DRAFT_FIELDS as readonly string[]).includes(f);
