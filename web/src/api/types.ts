/**
 * Shapes of the public API the dashboard reads, taken from the types generated from the OpenAPI
 * document (openapi.d.ts, regenerated and checked by test/platform/webTypes.test.ts). Nothing here
 * restates a field: a field the API does not have fails the dashboard's type check.
 */
import type { operations } from './openapi';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON body of an operation's success response (200, else 201, else 202). */
type Success<R> = R extends { 200: infer O } ? Json<O> : R extends { 201: infer C } ? Json<C> : R extends { 202: infer A } ? Json<A> : never;
/** The `data` of an operation's success response. */
export type ApiData<Op extends keyof operations> = Success<operations[Op]['responses']> extends { data: infer D } ? D : never;
/** The JSON body an operation takes. */
export type ApiBody<Op extends keyof operations> = operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type User = ApiData<'getMe'>['user'];
export type Organization = ApiData<'getMyOrganization'>['organization'];
export type OrgRole = Organization['myRole'];

export type WorkspaceListItem = ApiData<'listWorkspaces'>['workspaces'][number];
export type Workspace = ApiData<'getWorkspace'>['workspace'];
export type Permissions = WorkspaceListItem['permissions'];
export type SyncStatus = WorkspaceListItem['syncStatus'];
export type Lifecycle = WorkspaceListItem['lifecycle'];
export type Tier = NonNullable<WorkspaceListItem['criticalityTier']>;
export type PageInfo = ApiData<'listWorkspaces'>['pagination'];

export type DataSource = ApiData<'getDataSource'>['dataSource'];
export type DataSourceStatus = DataSource['status'];
export type DataSourceFile = DataSource['files'][number];

export type Conversation = ApiData<'listConversations'>['conversations'][number];
export type Message = ApiData<'listMessages'>['messages'][number];
/** What an assistant message keeps of its answer (sources, validation, timing). */
export type AnswerMetadata = NonNullable<Message['metadata']>;
export type Source = AnswerMetadata['sources'][number];
export type CitedSource = AnswerMetadata['citedSources'][number];
export type Validation = AnswerMetadata['validation'];

export type Notification = ApiData<'listNotifications'>['notifications'][number];
