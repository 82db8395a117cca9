import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 to PostgreSQL that can lose connections where it hurts most:
 * `cutNextCommit()` forwards the next `commit` a client sends and then drops that connection
 * before the server's acknowledgement reaches the client (the transaction is committed, the
 * service cannot know); `cutAll()` drops every open connection at once.
 */
export interface CommitCutter {
  port: number;
  /** Cuts the next commit of a transaction that sent a statement matching `after` (any transaction without it). */
  cutNextCommit(after?: RegExp): Promise<void>;
  cutAll(): void;
  /** Commits whose acknowledgement was dropped so far. */
  lostAcks(): number;
  close(): Promise<void>;
}

/** A simple-protocol `commit`, or the Parse of a prepared one (whose name is kept: later Binds of it are commits too). */
const COMMIT = /\bcommit\b/i;
const PARSE_COMMIT = /P[\s\S]{4}([^\0]*)\0commit\0/gi;
const BIND = /B[\s\S]{4}[^\0]*\0([^\0]+)\0/g;

export async function commitCutter(target: { host: string; port: number }): Promise<CommitCutter> {
  const conns = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let armed: (() => void) | null = null;
  let armedAfter: RegExp | null = null;
  let lost = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    const c = { client, upstream };
    conns.add(c);
    let dropOnReply = false;
    let sawStatement = false;
    /** Names of the prepared `commit` statements of this connection. */
    const commitNames = new Set<string>();
    const isCommit = (text: string) => {
      for (const m of text.matchAll(PARSE_COMMIT)) commitNames.add(m[1]);
      if (COMMIT.test(text)) return true;
      for (const m of text.matchAll(BIND)) if (commitNames.has(m[1])) return true;
      return false;
    };
    const drop = () => {
      conns.delete(c);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    client.on('data', (d: Buffer) => {
      const text = d.toString('latin1');
      if (armed && armedAfter?.test(text)) sawStatement = true;
      const commit = isCommit(text);
      if (armed && (!armedAfter || sawStatement) && commit) {
        dropOnReply = true;
        const done = armed;
        armed = null;
        upstream.write(d);
        upstream.once('data', () => {
          lost += 1;
          drop();
          done();
        });
        return;
      }
      upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      if (!dropOnReply) client.write(d);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cutNextCommit: (after?: RegExp) =>
      new Promise<void>((resolve) => {
        armedAfter = after ?? null;
        armed = resolve;
      }),
    cutAll() {
      for (const c of [...conns]) {
        c.client.destroy();
        c.upstream.destroy();
      }
      conns.clear();
    },
    lostAcks: () => lost,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of conns) {
          c.client.destroy();
          c.upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
