/**
 * PostgreSQL's CPU per workspace list: the service call behind authenticated
 * `GET /api/v1/workspaces` (one page of 20, sorted by creation) for an organization with N
 * vendor workspaces of two data sources each, run by C concurrent callers; the CPU time of
 * every `postgres` process on this machine (read from /proc before and after each round)
 * divided by the lists run, beside this process's own CPU per list. Independent of the HTTP
 * load generator, so steadier than req/s on a shared machine; still run it under `heavy -x`
 * (another client's queries on the same server would be counted).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import=tsx bench/workspace-list-db.ts [--vendors 20] [--lists 3000] [--rounds 3] [--concurrency 5]
 *
 * WORKERS=0: the data sources stay `pending`; a fresh database beside DATABASE_URL's, dropped at the end.
 */
import './lib/load.js';
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildTestApp, registerUser } from '../test/helpers/app.js';
import { createOrg } from '../test/helpers/workspaces.js';
import { scopeOf } from '../src/domain/scope.js';

const { values: args } = parseArgs({
  options: {
    vendors: { type: 'string', default: '20' },
    lists: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '5' },
  },
});
if (!process.env.DATABASE_URL) throw new Error('bench/workspace-list-db.ts measures PostgreSQL processes: set DATABASE_URL');
const VENDORS = Number(args.vendors);
const LISTS = Number(args.lists);
const C = Number(args.concurrency);

/** CPU seconds (user + system) of every process named postgres. */
function postgresCpu(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15 of stat)
  }
  return ticks / 100;
}

const ctx = await buildTestApp({ workers: 0 }, { seed: false });
try {
  const { app } = ctx;
  const owner = await registerUser(app);
  await createOrg(app, owner, 'Bench Bank');
  for (let i = 0; i < VENDORS; i++) {
    const ws = await app.services.workspaces.create(owner.id, { workspaceName: `Vendor ${i}` });
    for (let d = 0; d < 2; d++) {
      await app.services.dataSources.create(scopeOf({ id: ws.id, slug: ws.workspaceId, name: ws.workspaceName, orgId: ws.organizationId }, owner.id), {
        kind: 'json',
        name: `Docs ${d}`,
        files: [{ filename: 'a.txt', declaredType: 'text/plain', content: Buffer.from(`Policy ${i}.${d}`) }],
      });
    }
  }
  const q = { page: 1, limit: 20, sort: 'createdAt' as const, descending: false };
  for (let i = 0; i < 200; i++) await app.services.workspaces.page(owner.id, q);
  for (let round = 1; round <= Number(args.rounds); round++) {
    const pg0 = postgresCpu();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: C }, async () => {
        for (let i = 0; i < LISTS / C; i++) await app.services.workspaces.page(owner.id, q);
      }),
    );
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const pg = postgresCpu() - pg0;
    console.log(
      `round ${round}: PostgreSQL CPU ${((pg * 1000) / LISTS).toFixed(3)} ms/list, this process ${((cpu.user + cpu.system) / 1000 / LISTS).toFixed(3)} ms/list, wall ${(wall / LISTS).toFixed(3)} ms/list (${C} callers)`,
    );
  }
} finally {
  await ctx.close();
}
