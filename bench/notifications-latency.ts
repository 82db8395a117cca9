/**
 * Latency of the notification push channel: from `services.notifications.notify()` (or an
 * HTTP request that notifies) to the parsed `notification:new` event on an open
 * GET /notifications/stream of a real listening port.
 *   node --import=tsx bench/notifications-latency.ts [notifications] [streams]
 *     PGlite in memory: one instance.
 *   DATABASE_URL=postgres://... node --import=tsx bench/notifications-latency.ts
 *     PostgreSQL: two app instances on one database (streams on A, notify on B, LISTEN/NOTIFY).
 * `streams` open streams of different users on A all receive each (workspace) notification.
 */
import './lib/load.js';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { createDatabase } from '../src/db/client.js';
import { freshDatabase, registerUser, testConfig } from '../test/helpers/app.js';
import { connectSse } from '../test/helpers/sse.js';
import { addOrgMember, createOrg, createWorkspace } from '../test/helpers/workspaces.js';

const rounds = Number(process.argv[2] ?? 50);
const streamCount = Number(process.argv[3] ?? 5);

const { database, drop } = await freshDatabase();
const config = testConfig({ notifications: { heartbeatMs: 25_000, maxStreamsPerUser: 10 } });
const two = database.kind === 'postgres';
const databaseB = two ? await createDatabase({ url: database.url!, max: 5 }) : database;
const a: FastifyInstance = await buildApp({ config, database });
const b: FastifyInstance = two ? await buildApp({ config, database: databaseB }) : a;
await a.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(a.server.address() as AddressInfo).port}/api/v1/notifications/stream`;

const owner = await registerUser(b);
const orgId = await createOrg(b, owner, 'Bench Bank');
const ws = await createWorkspace(b, owner, 'GitHub');
const users = [owner];
for (let i = 1; i < streamCount; i++) users.push(await addOrgMember(b, owner, orgId, 'analyst'));
const streams = await Promise.all(users.map((u) => connectSse(url, u.headers)));
await Promise.all(streams.map((s) => s.next('notification:count')));

const perEvent: number[] = [];
const lastOfRound: number[] = [];
const notifyCall: number[] = [];
for (let i = 0; i < rounds; i++) {
  const t0 = Date.now();
  await b.services.notifications.notify({ workspaceId: ws.id, type: 'sync_completed', title: `Round ${i}` });
  notifyCall.push(Date.now() - t0);
  const evs = await Promise.all(streams.map((s) => s.next('notification:new', 10_000)));
  const lat = evs.map((e) => e.receivedAt - t0);
  perEvent.push(...lat);
  lastOfRound.push(Math.max(...lat));
}

const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const fmt = (xs: number[]) => `median ${q(xs, 0.5)} ms, p95 ${q(xs, 0.95)} ms, max ${Math.max(...xs)} ms (n=${xs.length})`;
console.log(
  `${two ? 'PostgreSQL, notify on instance B, streams on instance A (LISTEN/NOTIFY)' : 'PGlite, one instance'}; ${streamCount} streams, ${rounds} workspace notifications`,
);
console.log(`  notify() -> notification:new on a stream:     ${fmt(perEvent)}`);
console.log(`  notify() itself (recipients, insert + NOTIFY, commit): ${fmt(notifyCall)}`);
console.log(`  notify() -> the last of the ${streamCount} streams has it: ${fmt(lastOfRound)}`);

for (const s of streams) s.close();
await a.close();
if (two) {
  await b.close();
  await databaseB.close();
}
await drop();
