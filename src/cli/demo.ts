import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scopeOf, type Scope } from '../domain/scope.js';
import type { Services } from '../services.js';

/** The demo account (README): an org admin owning the two vendor workspaces. */
export const DEMO_USER = { email: 'demo@dora.local', password: 'demo-password-2024', name: 'Demo Analyst' };
export const DEMO_ORG = 'Demo Bank';
export const DEMO_VENDORS = [
  {
    folder: 'github',
    workspaceName: 'GitHub',
    slug: 'github',
    sourceName: 'GitHub site policies',
    description: 'GitHub, Inc. terms, DPA, SLA, subprocessors, privacy and security policies (CC0-1.0)',
  },
  {
    folder: 'basecamp',
    workspaceName: 'Basecamp',
    slug: 'basecamp',
    sourceName: 'Basecamp policies',
    description: '37signals LLC terms, DPA, SLA, security and privacy policies (CC BY 4.0)',
  },
] as const;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `data/vendor-docs` in the repository when present, else `../shared/data/vendor-docs` beside it. */
export function defaultVendorDocsDir(): string {
  const inRepo = path.join(repoRoot, 'data/vendor-docs');
  return existsSync(inRepo) ? inRepo : path.resolve(repoRoot, '../shared/data/vendor-docs');
}

type DemoServices = Pick<Services, 'auth' | 'organizations' | 'workspaces' | 'dataSources'>;

/** A vendor workspace with its documents ingested. */
export interface LoadedVendor {
  workspaceId: string;
  workspaceName: string;
  scope: Scope;
  dataSourceId: string;
  status: string;
  documents: number;
  chunks: number;
}

/**
 * One vendor workspace of the user's organization holding one data source with the
 * vendor's documents, ingested through the same job as any upload and waited for.
 * Repeatable: an existing workspace and data source (by name) are kept, synced again
 * with `resync` or when the last sync failed.
 */
export async function loadVendorWorkspace(
  services: Pick<Services, 'workspaces' | 'dataSources'>,
  owner: { userId: string; orgId: string },
  v: {
    workspaceName: string;
    sourceName: string;
    description: string;
    files: () => { filename: string; declaredType: string | null; content: Buffer }[];
    resync?: boolean;
    timeoutMs?: number;
    log?: (msg: string) => void;
  },
): Promise<LoadedVendor> {
  const log = v.log ?? (() => {});
  const existing = (await services.workspaces.list(owner.userId)).find((w) => w.workspaceName === v.workspaceName);
  const ws = existing ?? (await services.workspaces.create(owner.userId, { workspaceName: v.workspaceName }));
  if (!existing) log(`created workspace ${v.workspaceName}`);
  // Outside a request (CLI, benches): the owner's scope, built explicitly.
  const scope = scopeOf({ id: ws.id, slug: ws.workspaceId, name: ws.workspaceName, orgId: owner.orgId }, owner.userId);
  const current = (await services.dataSources.list(scope, { page: 1, limit: 100 })).dataSources.find((d) => d.name === v.sourceName);
  let dsId: string;
  if (!current) {
    const files = v.files();
    const ds = await services.dataSources.create(scope, { name: v.sourceName, description: v.description, kind: 'upload', files });
    dsId = ds.id;
    log(`uploaded ${files.length} ${v.workspaceName} documents`);
  } else {
    dsId = current.id;
    if (v.resync || current.status === 'failed') await services.dataSources.sync(scope, dsId, null);
  }
  const deadline = Date.now() + (v.timeoutMs ?? 10 * 60_000);
  let ds = await services.dataSources.get(scope, dsId);
  while (ds.status === 'pending' || ds.status === 'processing') {
    if (Date.now() > deadline) throw new Error(`ingestion of ${v.sourceName} did not finish in time (status ${ds.status})`);
    await new Promise((r) => setTimeout(r, 200));
    ds = await services.dataSources.get(scope, dsId);
  }
  return {
    workspaceId: ws.id,
    workspaceName: v.workspaceName,
    scope,
    dataSourceId: dsId,
    status: ds.status,
    documents: ds.documentCount,
    chunks: ds.chunkCount,
  };
}

/**
 * Loads the demo: the demo user, its organization, one workspace per vendor, and one
 * data source per vendor holding that vendor's real policy documents, ingested through
 * the same job as any upload. Repeatable: what exists is kept (a vendor's data source
 * is created once; with `resync` it is synced again).
 */
export async function loadDemo(
  services: DemoServices,
  opts: { vendorDocsDir?: string; resync?: boolean; timeoutMs?: number; log?: (msg: string) => void } = {},
) {
  const log = opts.log ?? (() => {});
  const dir = opts.vendorDocsDir ?? defaultVendorDocsDir();
  let user = await services.auth.findByEmail(DEMO_USER.email);
  if (!user) {
    const session = await services.auth.register(DEMO_USER);
    user = { id: session.user.id, name: session.user.name, email: session.user.email, status: session.user.status };
    log(`created user ${DEMO_USER.email}`);
  }
  if (!(await services.organizations.membershipOf(user.id))) {
    await services.organizations.create(user.id, { name: DEMO_ORG });
    log(`created organization ${DEMO_ORG}`);
  }
  const orgId = (await services.organizations.membershipOf(user.id))!.orgId;
  const out: LoadedVendor[] = [];
  for (const v of DEMO_VENDORS) {
    out.push(
      await loadVendorWorkspace(
        services,
        { userId: user.id, orgId },
        {
          workspaceName: v.workspaceName,
          sourceName: v.sourceName,
          description: v.description,
          files: () =>
            readdirSync(path.join(dir, v.folder))
              .filter((f) => /\.(md|txt)$/i.test(f))
              .sort()
              .map((f) => ({ filename: f, declaredType: null, content: readFileSync(path.join(dir, v.folder, f)) })),
          resync: opts.resync,
          timeoutMs: opts.timeoutMs,
          log,
        },
      ),
    );
  }
  return { user: { id: user.id, email: DEMO_USER.email }, vendors: out };
}
