import type { Source } from '../../src/domain/sources.js';

/** Builds numbered Source values (inputs of the pure answer functions). */
export function makeSources(items: { title: string; content: string; section?: string; score?: number; url?: string }[]): Source[] {
  return items.map((it, i) => ({
    id: `chunk-${i + 1}`,
    sourceNumber: i + 1,
    title: it.title,
    content: it.content,
    url: it.url ?? `https://example.com/${i + 1}`,
    section: it.section ?? '',
    score: it.score ?? 0.8,
    documentId: `doc-${i + 1}`,
    dataSourceId: 'ds-1',
    page: null,
    workspaceId: 'ws-1',
  }));
}

/** Passages of the real vendor documents (shared/data/vendor-docs), shortened. */
export const GITHUB_DPA_INCIDENT =
  'Security Incident Notification. If GitHub becomes aware of a Security Incident, GitHub will promptly and without undue delay notify Customer of the Security Incident. ' +
  'GitHub will investigate the Security Incident and provide Customer with detailed information about the Security Incident. ' +
  "Notification(s) of Security Incidents will be delivered to one or more of Customer's administrators by any means GitHub selects, including via email.";
export const GITHUB_SLA =
  'GitHub commits to maintain at least 99.9% Uptime for the applicable GitHub service. ' +
  "If GitHub does not meet the SLA, Customer will be entitled to service credits to Customer's account. " +
  'Service Credits are calculated as 10% of the fees for each 0.1% below the Service Level.';
export const BASECAMP_SECURITY =
  'All data are written to multiple disks instantly, backed up daily, and stored in multiple locations. ' +
  'Files that you upload are stored on servers that use modern techniques to remove bottlenecks and points of failure. ' +
  'Our infrastructure is hosted in the United States.';
export const DORA_ART_19 =
  'Financial entities shall report major ICT-related incidents to the relevant competent authority. ' +
  'Financial entities shall produce, after collecting and analysing all relevant information, the initial notification and reports referred to in paragraph 4.';
