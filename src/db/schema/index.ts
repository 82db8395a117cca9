// Every table of the service. Add a domain's schema file here when its migration is generated.
export * from './users.js';
export * from './compliance.js';
export * from './organizations.js';
export * from './workspaces.js';
export * from './conversations.js';
export * from './documents.js';
export * from './questionnaires.js';
export * from './notifications.js';
export * from './assessments.js';
export * from './mcp.js';
export * from './syncSchedule.js';
export * from './profileDrafts.js';
export * from './workspaceSyncCounts.js';
export * from './register.js';
export * from './idempotency.js';
export * from './apiKeys.js';
export * from './concentration.js';
