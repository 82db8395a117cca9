/**
 * The database driver under connection loss (docs/reliability.md, "Wrong results after a reset").
 *
 *   node --import=tsx bench/db-driver-stress.ts [seconds=60]
 *
 * On the local PostgreSQL (127.0.0.1:5432, a scratch database created and dropped): 8 clients
 * read a row that is always there (a workspace access check's shape, prepared), 6 run short
 * transactions, 6 read another table, while every backend of the pool is terminated every
 * 0.2-0.6 s. Prints how many queries succeeded, failed (expected: they met the outage) and came
 * back WRONG (an empty or foreign result without an error; must be 0), with the load average.
 */
import { loadavg } from 'node:os';
import postgres from 'postgres';
const url = 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = postgres(url, { max: 1, onnotice: () => {} });
await admin.unsafe('drop database if exists drvstress');
await admin.unsafe('create database drvstress');
const u = 'postgres://postgres@127.0.0.1:5432/drvstress';
const sql = postgres(u, { max: 10, onnotice: () => {} });
await sql`create table ws (id text primary key, slug text, org text)`;
await sql`create table m (org text, usr text, role text)`;
await sql`create table log (id serial, v text)`;
await sql`insert into ws values ('w1','s1','o1')`;
await sql`insert into m values ('o1','u1','admin')`;
let running = true;
const bad: string[] = [];
let ok = 0,
  err = 0;
const reader = async () => {
  while (running) {
    try {
      const r = await sql.unsafe(
        'select ws.id, m.role from ws left join m on m.org = ws.org and m.usr = $2 where ws.id = $1 or ws.slug = $1 limit 1',
        ['w1', 'u1'],
        { prepare: true },
      );
      if (r.length !== 1 || r[0].role !== 'admin' || r[0].id !== 'w1') bad.push(JSON.stringify([...r]));
      else ok++;
    } catch {
      err++;
    }
  }
};
const writer = async () => {
  while (running) {
    try {
      await sql.begin(async (tx) => {
        await tx`insert into log (v) values ('x')`;
        const r = await tx`select count(*)::int as n from log`;
        await tx`select pg_sleep(0.002)`;
        return r;
      });
      ok++;
    } catch {
      err++;
    }
  }
};
const other = async () => {
  while (running) {
    try {
      const r = await sql.unsafe('select id, v from log order by id desc limit 3', [], { prepare: true });
      ok++;
    } catch {
      err++;
    }
  }
};
const loops = [...Array(8)]
  .map(reader)
  .concat([...Array(6)].map(writer))
  .concat([...Array(6)].map(other));
const end = Date.now() + Number(process.argv[2] ?? 60) * 1000;
let rounds = 0;
while (Date.now() < end) {
  await new Promise((r) => setTimeout(r, 200 + Math.random() * 400));
  await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = 'drvstress' and pid <> pg_backend_pid()`;
  rounds++;
}
running = false;
await Promise.all(loops);
console.log(
  JSON.stringify({
    seconds: Number(process.argv[2] ?? 60),
    terminations: rounds,
    succeeded: ok,
    failed: err,
    wrong: bad.length,
    sample: bad.slice(0, 5),
    load: loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
  }),
);
if (bad.length) process.exitCode = 1;
await sql.end({ timeout: 1 });
await admin.unsafe('drop database drvstress');
await admin.end();
