/** Shapes of the public API the dashboard reads (docs/*.md are the reference). */

export interface User {
  id: string;
  email: string;
  name: string;
  role: string;
  status: string;
  emailVerified: boolean;
  createdAt: string;
  lastLoginAt: string | null;
}

export type OrgRole = 'org_admin' | 'analyst' | 'viewer';
export interface Organization {
  id: string;
  name: string;
  lei: string | null;
  country: string | null;
  myRole: OrgRole;
  memberCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface Permissions {
  canQuery: boolean;
  canViewSources: boolean;
  canInvite: boolean;
  canManageSync: boolean;
  canEditSettings: boolean;
  canDeleteWorkspace: boolean;
}

export type SyncStatus = 'active' | 'syncing' | 'error';
export interface WorkspaceListItem {
  id: string;
  workspaceName: string;
  workspaceId: string;
  syncStatus: SyncStatus;
  myRole: string;
  permissions: Permissions;
  memberCount: number;
  createdAt: string;
  syncSchedule: { enabled: boolean; intervalHours: number };
  documentCount?: number;
  lastSyncedAt?: string | null;
  /** The inventory's columns (docs/inventory.md); absent on a workspace's detail. */
  vendorOwner?: { id: string; name: string } | null;
  lifecycle?: Lifecycle;
  criticalityTier?: Tier | null;
  supportsCriticalFunction?: boolean | null;
  exitPlan?: boolean;
  riskRating?: Tier | null;
  latestAssessment?: { id: string; score: number | null; riskRating: Tier | null; completedAt: string | null; signedOffAt: string | null } | null;
  lastSignedOffAt?: string | null;
  contractEnd?: string | null;
  nextReviewDate?: string | null;
  reviewCycleMonths?: number;
  outstandingQuestionnaires?: number;
  overdueQuestionnaires?: number;
}
export type Lifecycle = 'onboarding' | 'active' | 'exiting' | 'exited';
export type Tier = 'critical' | 'high' | 'medium' | 'low';

export interface Workspace extends WorkspaceListItem {
  organizationId: string;
  /** The person accountable for the vendor relationship (docs/inventory.md). */
  vendorOwnerId?: string | null;
  owner: { id: string; name: string; email: string };
  stats: { totalPages: number; totalDatabases: number; totalDocuments: number };
  vendorProfile: Record<string, unknown>;
  updatedAt: string;
}

export type DataSourceStatus = 'pending' | 'processing' | 'ready' | 'failed';
export interface DataSourceFile {
  id: string;
  filename: string;
  format: string;
  mimeType: string;
  sizeBytes: number;
  url: string;
  document: { id: string; title: string; url: string; pageCount: number; chunkCount: number; date: string | null; indexedAt: string | null } | null;
}
export interface DataSource {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  kind: string;
  status: DataSourceStatus;
  error: { code: string; message: string } | null;
  documentCount: number;
  chunkCount: number;
  pageCount: number;
  fileCount: number;
  totalBytes: number;
  attempts: number;
  createdAt: string;
  updatedAt: string;
  lastSyncedAt: string | null;
  files: DataSourceFile[];
}

export interface PageInfo {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export interface Source {
  id: string;
  sourceNumber: number;
  title: string;
  content?: string;
  url: string;
  section: string;
  score: number;
  documentId?: string | null;
  dataSourceId?: string | null;
  /** First page of the passage (a string in the API: PDF page, worksheet). */
  page?: string | number | null;
}
export interface CitedSource {
  sourceNumber: number;
  title: string;
  url: string;
}
export interface Validation {
  confidence: number;
  isGrounded: boolean;
  hasHallucinations: boolean;
  isRelevant: boolean;
  issues: string[];
}

export interface Conversation {
  id: string;
  title: string;
  messageCount: number;
  lastMessageAt: string;
  status: 'active' | 'archived' | 'deleted';
  createdAt: string;
}
export interface Message {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  timestamp: string;
  metadata?: {
    confidence?: number;
    sources?: Source[];
    citedSources?: CitedSource[];
    validation?: Validation;
    generator?: string;
    model?: string | null;
    totalTime?: number;
  };
}

export interface Notification {
  id: string;
  type: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  workspaceId: string | null;
  read: boolean;
  readAt: string | null;
  createdAt: string;
}
