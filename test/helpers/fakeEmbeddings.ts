import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LocalHashEmbedder } from '../../src/rag/embedders/local.js';

export interface FakeEmbeddings {
  server: Server;
  /** Base URL for the `openai` embeddings provider (`.../v1`). */
  url: string;
  /**
   * Set `fail` to an HTTP status to make every request fail with it; null answers normally.
   * Set `hold` to a promise to keep requests waiting until it settles (a sync caught mid-run).
   */
  mode: { fail: number | null; hold: Promise<void> | null };
  requests: { auth?: string; body: { model: string; input: string[]; dimensions: number } }[];
  close(): Promise<void>;
}

/** An OpenAI-compatible embeddings server on 127.0.0.1: answers with the local embedder's vectors, or fails on demand. */
export async function fakeEmbeddings(): Promise<FakeEmbeddings> {
  const local = new LocalHashEmbedder(384);
  const mode: FakeEmbeddings['mode'] = { fail: null, hold: null };
  const requests: FakeEmbeddings['requests'] = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((r) => {
      let s = '';
      req.on('data', (c) => (s += c));
      req.on('end', () => r(s));
    });
  const server = createServer(async (req, res) => {
    const body = JSON.parse(await read(req));
    requests.push({ auth: req.headers.authorization, body });
    if (req.url !== '/v1/embeddings') return void res.writeHead(404).end();
    if (mode.hold) await mode.hold;
    if (mode.fail)
      return void res.writeHead(mode.fail, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model not available' } }));
    const vectors = await local.embed(body.input);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })) }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    mode,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
