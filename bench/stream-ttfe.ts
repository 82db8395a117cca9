/**
 * Time to first event of POST /rag/stream over the demo corpus (the DORA articles plus the
 * GitHub and Basecamp vendor documents of data/vendor-docs, ingested through the API;
 * bench/demo-server.ts, in a child process), over a real connection: per question, the time
 * from sending the request to the first SSE event, to the `sources` event, to the first
 * `chunk` and to `done`. Prints median and p95.
 *   node --import=tsx bench/stream-ttfe.ts [requests]       (PGlite in memory)
 *   DATABASE_URL=postgres://... node --import=tsx bench/stream-ttfe.ts
 * The generator is the configured one (extractive unless ANTHROPIC_API_KEY is set).
 */
import './lib/load.js';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createParser } from 'eventsource-parser';

const requests = Number(process.argv[2] ?? 60);
const QUESTIONS: [vendor: 'github' | 'basecamp', q: string][] = [
  ['github', 'What uptime does GitHub commit to in the Enterprise SLA?'],
  ['github', 'How does GitHub notify customers of a security incident?'],
  ['github', 'Where are GitHub subprocessors located?'],
  ['github', 'Can customers audit GitHub under the data protection agreement?'],
  ['github', 'What happens to customer data when the GitHub agreement terminates?'],
  ['basecamp', 'How often is Basecamp data backed up?'],
  ['basecamp', 'What happens to my data after I cancel Basecamp?'],
  ['basecamp', 'Where is Basecamp customer data hosted?'],
  ['basecamp', 'What must financial entities report about major ICT-related incidents?'],
  ['basecamp', 'What must contractual arrangements on the use of ICT services include under DORA?'],
];

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const fmt = (name: string, xs: number[]) =>
  `${name.padEnd(22)} median ${quantile(xs, 0.5).toFixed(1).padStart(7)} ms   p95 ${quantile(xs, 0.95).toFixed(1).padStart(7)} ms   max ${Math.max(...xs)
    .toFixed(1)
    .padStart(7)} ms`;

// The server runs in its own process, so that the client's clock is not held up by the
// server's work (embedded PGlite runs its queries on the server's event loop).
const server = spawn(process.execPath, ['--import=tsx', 'bench/demo-server.ts'], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
const info = await new Promise<{
  port: number;
  github: Record<string, string>;
  basecamp: Record<string, string>;
  database: string;
  generator: string;
  doraArticles: number;
  vendorDocuments: number;
  setupMs: number;
}>((resolve, reject) => {
  createInterface({ input: server.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
  server.once('exit', (code) => reject(new Error(`demo server exited with ${code}`)));
});
const port = info.port;
const gh = { headers: info.github };
const bc = { headers: info.basecamp };
console.log(
  `corpus: ${info.doraArticles} DORA articles + ${info.vendorDocuments} vendor documents, ${info.database}, generator ${info.generator}; set-up ${(info.setupMs / 1000).toFixed(1)} s`,
);

async function once(headers: Record<string, string>, question: string) {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/rag/stream`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ question }),
  });
  if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}: ${await res.text()}`);
  const at: Record<string, number> = {};
  const parser = createParser({
    onEvent: (m) => {
      const name = m.event ?? 'message';
      const now = performance.now() - started;
      at.first ??= now;
      at[name] ??= now;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
  if (at.error !== undefined || at.done === undefined) throw new Error(`stream for "${question}" ended without done`);
  return at;
}

// Warm-up (JIT, embedder, query plans), not counted.
for (const [vendor, q] of QUESTIONS) await once(vendor === 'github' ? gh.headers : bc.headers, q);
const first: number[] = [];
const sources: number[] = [];
const chunk: number[] = [];
const done: number[] = [];
for (let i = 0; i < requests; i++) {
  const [vendor, q] = QUESTIONS[i % QUESTIONS.length];
  const at = await once(vendor === 'github' ? gh.headers : bc.headers, q);
  first.push(at.first);
  sources.push(at.sources);
  chunk.push(at.chunk ?? at.metadata);
  done.push(at.done);
}
console.log(`POST /rag/stream, ${requests} sequential requests over ${QUESTIONS.length} questions:`);
console.log(fmt('first event (status)', first));
console.log(fmt('sources event', sources));
console.log(fmt('first chunk', chunk));
console.log(fmt('done', done));
server.kill('SIGTERM');
