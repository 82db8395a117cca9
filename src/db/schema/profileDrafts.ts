import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { DraftFieldState, DraftSummary } from '../../domain/profileDrafts.js';
import { newId } from '../../lib/ids.js';
import { users } from './users.js';
import { workspaces } from './workspaces.js';

/** `pending` (queued) -> `running` -> `completed` | `failed` (docs/register-drafting.md). */
export const PROFILE_DRAFT_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type ProfileDraftStatus = (typeof PROFILE_DRAFT_STATUSES)[number];

/**
 * A draft of a vendor's register fields from its documents: one proposal per field (value,
 * passages, confidence, or not found / conflict) and the analyst's decision on each.
 */
export const profileDrafts = pgTable(
  'profile_drafts',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    status: text('status').$type<ProfileDraftStatus>().notNull().default('pending'),
    /** `offline` (rules) or `anthropic` (Claude with a tool schema per field). */
    extractor: text('extractor').notNull().default('offline'),
    fields: jsonb('fields').$type<DraftFieldState[]>(),
    summary: jsonb('summary').$type<DraftSummary>(),
    errorMessage: text('error_message'),
    jobId: text('job_id'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('profile_drafts_workspace_idx').on(t.workspaceId, t.createdAt)],
);
