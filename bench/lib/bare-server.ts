/**
 * The floor of the machine for bench/request-path.ts: a bare Fastify process (no plugins,
 * no database, no logging) answering a tiny JSON body and the DORA articles list as the
 * service serialises it (the same bytes, built once at start).
 */
import Fastify from 'fastify';
import { readDoraArticles } from '../../src/compliance/dora.js';

const articles = readDoraArticles().map((a) => ({
  regulation: 'DORA',
  article: `Article ${a.number}`,
  title: a.title,
  domain: a.domain,
  chapter: a.chapter,
  obligations: a.obligations,
}));
const body = JSON.stringify({ status: 'success', message: 'OK', data: { total: articles.length, articles } });

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
app.get('/articles', async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`bare server listening at ${address}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
