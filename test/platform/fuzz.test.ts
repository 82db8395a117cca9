import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { multipartBody } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * Hostile input against every operation of the OpenAPI document (docs/reliability.md):
 * each path parameter, query parameter and body field in turn gets NUL, unpaired
 * surrogates, huge and fractional numbers, very long strings, wrong types and deep
 * nesting; JSON bodies are replaced whole by hostile documents; upload routes get
 * malformed multipart. Any 5xx answer fails the test (the list is printed).
 */
const STRINGS = ['\u0000', 'a\ud800', 'x'.repeat(20_000), '1e309', '99999999999999999999', "' OR '1'='1"];
const VALUES: unknown[] = [
  '\u0000',
  '\ud800',
  'x'.repeat(20_000),
  '1e309',
  1e308,
  // biome-ignore lint/correctness/noPrecisionLoss: a number beyond 2^53 is one of the hostile inputs
  99999999999999999999,
  -1,
  0.5,
  true,
  null,
  [],
  {},
  [['\u0000']],
  { a: { b: '\ud800' } },
];
/** Each body field alone gets these; all fields at once get every value of VALUES. */
const PER_FIELD: unknown[] = ['\u0000', 1e308, { a: '\ud800' }];
/** Raw JSON bodies that JSON.stringify cannot produce. */
const RAW_BODIES = [
  '{"page":1e309}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`,
  '{"\\u0000":1}',
  '{"x":"\\ud800"}',
  '{',
];
/** encodeURIComponent, except that an unpaired surrogate is sent as its raw (WTF-8) bytes instead of throwing. */
function enc(v: string): string {
  let out = '';
  for (const ch of v) {
    const cu = ch.charCodeAt(0);
    out +=
      ch.length === 1 && cu >= 0xd800 && cu <= 0xdfff
        ? [0xe0 | (cu >> 12), 0x80 | ((cu >> 6) & 0x3f), 0x80 | (cu & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')
        : encodeURIComponent(ch);
  }
  return out;
}
const SKIP = new Set(['GET /api/v1/notifications/stream']); // a stream that stays open by design

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

t.test('no hostile input gets a 5xx on any operation of the OpenAPI document', async (t) => {
  const ctx = await buildTestApp({ workers: 0 }, { seed: false });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const { headers } = await createOrgAndWorkspace(app, owner);
  const doc = app.swagger() as { paths: Record<string, Record<string, Operation>> };

  const failures: string[] = [];
  let requests = 0;
  const send = async (method: string, url: string, opts: { payload?: string | Buffer; contentType?: string; label: string }) => {
    requests += 1;
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: { ...headers, ...(opts.contentType ? { 'content-type': opts.contentType } : {}) },
      payload: opts.payload,
    });
    if (res.statusCode >= 500) failures.push(`${method} ${url.slice(0, 120)} ${opts.label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  };

  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const m = method.toUpperCase();
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(m) || SKIP.has(`${m} ${path}`) || !path.startsWith('/api/')) continue;
      const params = op.parameters ?? [];
      const pathNames = params.filter((p) => p.in === 'path').map((p) => p.name);
      const queryNames = params.filter((p) => p.in === 'query').map((p) => p.name);
      const fill = (over: Record<string, string> = {}) => path.replace(/\{(\w+)\}/g, (_, n: string) => enc(over[n] ?? 'no-such-id'));
      const content = op.requestBody?.content ?? {};
      const jsonProps = Object.keys(content['application/json']?.schema?.properties ?? {});
      const hasBody = m !== 'GET' && m !== 'DELETE';

      for (const name of pathNames) for (const v of STRINGS) await send(m, fill({ [name]: v }), { label: `path ${name}` });
      for (const name of queryNames) {
        for (const v of STRINGS) await send(m, `${fill()}?${enc(name)}=${enc(v)}`, { label: `query ${name}` });
      }
      if (hasBody) {
        for (const v of VALUES) {
          if (jsonProps.length)
            await send(m, fill(), {
              payload: JSON.stringify(Object.fromEntries(jsonProps.map((p) => [p, v]))),
              contentType: 'application/json',
              label: `every body field ${JSON.stringify(v).slice(0, 20)}`,
            });
        }
        for (const prop of jsonProps) {
          for (const v of PER_FIELD) await send(m, fill(), { payload: JSON.stringify({ [prop]: v }), contentType: 'application/json', label: `body ${prop}` });
        }
        for (const raw of RAW_BODIES) await send(m, fill(), { payload: raw, contentType: 'application/json', label: `raw body ${raw.slice(0, 20)}` });
        if (content['multipart/form-data'] || path.endsWith('/data-sources')) {
          const good = multipartBody([{ filename: 'a.txt', content: 'Some policy text.' }], { name: 'x' });
          const variants: [string, Buffer | string, string][] = [
            ['no boundary', 'hello', 'multipart/form-data'],
            ['truncated', good.payload.subarray(0, good.payload.length - 30), good.contentType],
            ['empty', '', good.contentType],
            ['wrong boundary', good.payload, 'multipart/form-data; boundary=nope'],
          ];
          const nul = multipartBody([{ filename: 'a\u0000.txt', content: 'x' }]);
          variants.push(['NUL file name', nul.payload, nul.contentType]);
          for (const [label, payload, type] of variants) await send(m, fill(), { payload, contentType: type, label: `multipart ${label}` });
          const bad = multipartBody([{ filename: 'b\ud800.txt', content: '\u0000\u0000' }], { name: 'n\u0000', '\u0000': 'x' });
          await send(m, fill(), { payload: bad.payload, contentType: bad.contentType, label: 'multipart hostile fields' });
        }
      }
    }
  }
  t.comment(`${requests} requests over ${Object.keys(doc.paths).length} paths`);
  t.ok(requests > 1000, `the document was walked (${requests} requests)`);
  t.ok(Object.keys(doc.paths).length > 50, 'over the whole API');
  t.same(failures, [], `no 5xx (${failures.length} of ${requests})`);
});
