import net from 'node:net';

/**
 * `up`: forwards both ways. `hang`: accepts connections and keeps them open, but nothing
 * passes (held back, delivered when the proxy is up again, as TCP would after a stall).
 * `refuse`: not listening (connection refused) and every open connection reset.
 */
export type ProxyMode = 'up' | 'hang' | 'refuse';

export interface TcpProxy {
  port: number;
  url(scheme: string): string;
  mode(): ProxyMode;
  set(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

interface Conn {
  client: net.Socket;
  upstream: net.Socket | null;
  toUpstream: Buffer[];
  toClient: Buffer[];
}

/** A TCP proxy on 127.0.0.1 (random port) to `target`, to simulate a server that hangs or goes away. */
export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'up';
  const conns = new Set<Conn>();
  const drop = (c: Conn) => {
    conns.delete(c);
    c.client.destroy();
    c.upstream?.destroy();
  };
  const flush = (c: Conn) => {
    if (!c.upstream) {
      const upstream = net.connect(target);
      c.upstream = upstream;
      upstream.on('error', () => drop(c));
      upstream.on('close', () => drop(c));
      upstream.on('data', (d: Buffer) => {
        if (mode === 'up') c.client.write(d);
        else c.toClient.push(d);
      });
    }
    for (const d of c.toUpstream.splice(0)) c.upstream.write(d);
    for (const d of c.toClient.splice(0)) c.client.write(d);
  };
  const server = net.createServer((client) => {
    const c: Conn = { client, upstream: null, toUpstream: [], toClient: [] };
    conns.add(c);
    client.on('error', () => drop(c));
    client.on('close', () => drop(c));
    client.on('data', (d: Buffer) => {
      if (mode === 'up' && c.upstream) c.upstream.write(d);
      else c.toUpstream.push(d);
    });
    if (mode === 'up') flush(c);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: '127.0.0.1', port }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const c of [...conns]) drop(c);
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  return {
    port,
    url: (scheme) => `${scheme}://127.0.0.1:${port}`,
    mode: () => mode,
    async set(next) {
      if (next === mode) return;
      const previous = mode;
      mode = next;
      if (next === 'refuse') return stop();
      if (previous === 'refuse') await listen(port);
      if (next === 'up') for (const c of conns) flush(c);
    },
    close: () => {
      mode = 'refuse';
      return stop();
    },
  };
}
