import type dns from 'node:dns';
import t from 'tap';
import { createSecretBox } from '../../src/lib/secrets.js';
import { stdioRefusal } from '../../src/mcp/client.js';
import { addressRange, createNetworkGuard, UrlNotAllowedError } from '../../src/mcp/ssrf.js';

/** A resolver answering fixed addresses (no network in tests); unknown names fail. */
function fakeResolver(table: Record<string, string[]>): typeof dns.lookup {
  return ((host: string, _opts: unknown, cb: (err: Error | null, addrs?: dns.LookupAddress[]) => void) => {
    const addrs = table[host];
    if (!addrs) return process.nextTick(() => cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })));
    process.nextTick(() =>
      cb(
        null,
        addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      ),
    );
  }) as unknown as typeof dns.lookup;
}

const resolver = fakeResolver({
  'public.example': ['93.184.215.14'],
  'mixed.example': ['93.184.215.14', '10.1.2.3'],
  'internal.corp': ['10.20.30.40'],
  'v6only.example': ['2606:4700::6810:84e5'],
  'v6private.example': ['fd12:3456::1'],
  'mcp.intranet.example': ['192.168.7.7'],
  localhost: ['127.0.0.1', '::1'],
});

t.test('SSRF guard refuses non-public addresses by default', async (t) => {
  const guard = createNetworkGuard({ allowPrivateNetworks: false, allowedHosts: [] }, resolver);
  t.teardown(() => guard.close());
  const refused = [
    'http://127.0.0.1:8080/mcp',
    'http://127.1/mcp',
    'http://0.0.0.0/mcp',
    'http://10.0.0.5/mcp',
    'http://172.16.3.4/mcp',
    'http://192.168.1.10/mcp',
    'http://100.64.0.1/mcp',
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.10.10/mcp',
    'http://[::1]/mcp',
    'http://[fe80::1]/mcp',
    'http://[fd00:ec2::254]/mcp',
    'http://[fc00::1]/mcp',
    'http://[::ffff:10.0.0.1]/mcp',
    'http://[::ffff:127.0.0.1]/mcp',
    'http://[::]/mcp',
    // IPv6 forms that embed a refused IPv4 address
    'http://[::127.0.0.1]/mcp',
    'http://[::7f00:1]/mcp',
    'http://[::a9fe:a9fe]/mcp',
    'http://[::a00:1]/mcp',
    'http://[::ffff:0:7f00:1]/mcp',
    'http://[64:ff9b::7f00:1]/mcp',
    'http://[2002:7f00:1::1]/mcp',
    'http://224.0.0.1/mcp',
    'http://localhost:3000/mcp',
    'http://internal.corp/mcp',
    'http://mixed.example/mcp',
    'http://v6private.example/mcp',
  ];
  for (const url of refused) {
    await t.rejects(guard.checkUrl(url), UrlNotAllowedError, `${url} is refused`);
  }
  await t.resolves(guard.checkUrl('https://public.example/mcp'), 'a public host is allowed');
  await t.resolves(guard.checkUrl('https://93.184.215.14/mcp'), 'a public address is allowed');
  await t.resolves(guard.checkUrl('https://v6only.example/mcp'), 'a public IPv6 host is allowed');
  const err = await guard.checkUrl('http://localhost:3000/mcp').catch((e: UrlNotAllowedError) => e);
  t.match(
    err,
    { reason: 'refused', message: /127\.0\.0\.1 \(loopback\).*MCP_ALLOW_PRIVATE_NETWORKS/ },
    'the message names the address, its range and the setting',
  );
});

t.test('SSRF guard rejects unusable URLs', async (t) => {
  const guard = createNetworkGuard({ allowPrivateNetworks: true, allowedHosts: [] }, resolver);
  t.teardown(() => guard.close());
  await t.rejects(guard.checkUrl('ftp://public.example/x'), { reason: 'invalid', message: /http or https/ });
  await t.rejects(guard.checkUrl('file:///etc/passwd'), { name: 'UrlNotAllowedError', reason: 'invalid' });
  await t.rejects(guard.checkUrl('not a url'), { name: 'UrlNotAllowedError', reason: 'invalid' });
  await t.rejects(guard.checkUrl('https://user:pw@public.example/mcp'), { reason: 'invalid', message: /credentials/ });
  await t.rejects(guard.checkUrl('https://nowhere.invalid/mcp'), { name: 'UrlNotAllowedError', reason: 'unresolvable' });
});

t.test('SSRF guard: MCP_ALLOW_PRIVATE_NETWORKS and the allow-list', async (t) => {
  const open = createNetworkGuard({ allowPrivateNetworks: true, allowedHosts: [] }, resolver);
  t.teardown(() => open.close());
  await t.resolves(open.checkUrl('http://127.0.0.1:8080/mcp'));
  await t.resolves(open.checkUrl('http://internal.corp/mcp'));
  await t.resolves(open.checkUrl('http://[fd12::1]/mcp'));
  await t.rejects(open.checkUrl('http://169.254.169.254/latest/meta-data/'), { message: /metadata/ }, 'metadata stays refused');
  await t.rejects(open.checkUrl('http://[::ffff:169.254.169.254]/'), { message: /metadata/ }, 'also IPv4-mapped');
  await t.rejects(open.checkUrl('http://[::a9fe:a9fe]/'), { message: /metadata/ }, 'also IPv4-compatible (::/96)');
  await t.rejects(open.checkUrl('http://[64:ff9b::a9fe:a9fe]/'), { message: /metadata/ }, 'also behind NAT64');

  const listed = createNetworkGuard(
    { allowPrivateNetworks: false, allowedHosts: ['mcp.intranet.example', '10.20.0.0/16', '*.lab.example', 'fd12:3456::/32'] },
    resolver,
  );
  t.teardown(() => listed.close());
  await t.resolves(listed.checkUrl('http://mcp.intranet.example/mcp'), 'host name listed');
  await t.resolves(listed.checkUrl('http://internal.corp/mcp'), 'address in a listed CIDR');
  await t.resolves(listed.checkUrl('http://10.20.99.1/mcp'), 'literal address in a listed CIDR');
  await t.resolves(listed.checkUrl('http://v6private.example/mcp'), 'IPv6 CIDR');
  await t.rejects(listed.checkUrl('http://10.21.0.1/mcp'), UrlNotAllowedError, 'outside the CIDR');
  await t.rejects(listed.checkUrl('http://localhost/mcp'), UrlNotAllowedError, 'unlisted loopback');
});

t.test('the guarded fetch re-checks at connection time (DNS rebinding)', async (t) => {
  // The name resolves publicly when checked, then to loopback when connecting.
  let calls = 0;
  const rebinding = ((host: string, opts: unknown, cb: (err: Error | null, a?: dns.LookupAddress[]) => void) => {
    calls += 1;
    const address = calls === 1 ? '93.184.215.14' : '127.0.0.1';
    process.nextTick(() => cb(null, [{ address, family: 4 }]));
  }) as unknown as typeof dns.lookup;
  const guard = createNetworkGuard({ allowPrivateNetworks: false, allowedHosts: [] }, rebinding);
  t.teardown(() => guard.close());
  const err = await guard.fetch('http://rebind.example:8080/mcp').catch((e: Error) => e);
  t.ok(err instanceof Error, 'the request fails');
  const cause = (err as Error & { cause?: Error }).cause;
  t.match(cause?.message ?? (err as Error).message, /loopback/, 'refused by the connection-time check');
});

t.test('address ranges', async (t) => {
  t.equal(addressRange('8.8.8.8'), 'unicast');
  t.equal(addressRange('::ffff:192.168.0.1'), 'private');
  t.equal(addressRange('fe80::1'), 'linkLocal');
  t.equal(addressRange('fd00::1'), 'uniqueLocal');
});

t.test('stdio policy', async (t) => {
  t.match(stdioRefusal({ enabled: false, allowedCommands: [], cwd: '.' }, 'node'), /disabled/);
  t.equal(stdioRefusal({ enabled: true, allowedCommands: [], cwd: '.' }, 'node'), null);
  t.match(stdioRefusal({ enabled: true, allowedCommands: ['/usr/bin/mcp-docs'], cwd: '.' }, 'node'), /not in the allowed/);
  t.equal(stdioRefusal({ enabled: true, allowedCommands: ['/usr/bin/mcp-docs'], cwd: '.' }, '/usr/bin/mcp-docs'), null);
});

t.test('secrets: AES-256-GCM sealing', async (t) => {
  const box = createSecretBox('k'.repeat(40));
  const sealed = box.seal('{"authorization":"Bearer s3cr3t"}', 'mcp_source:1');
  t.notMatch(sealed, /s3cr3t/, 'ciphertext does not contain the secret');
  t.not(box.seal('same', 'a'), box.seal('same', 'a'), 'random IV: two seals differ');
  t.equal(box.open(sealed, 'mcp_source:1'), '{"authorization":"Bearer s3cr3t"}');
  t.throws(() => box.open(sealed, 'mcp_source:2'), /could not be decrypted/, 'bound to its record');
  const parts = sealed.split('.');
  const tampered = [...parts.slice(0, 4), Buffer.from('x' + Buffer.from(parts[4]!, 'base64url').toString('latin1'), 'latin1').toString('base64url')].join('.');
  t.throws(() => box.open(tampered, 'mcp_source:1'), /could not be decrypted/, 'tampering is detected');
  t.throws(() => createSecretBox('other'.repeat(10)).open(sealed, 'mcp_source:1'), /not configured/, 'another key cannot open it');
  const rotated = createSecretBox('new'.repeat(15), ['k'.repeat(40)]);
  t.equal(rotated.open(sealed, 'mcp_source:1'), '{"authorization":"Bearer s3cr3t"}', 'a previous key still opens');
  t.notOk(rotated.isCurrent(sealed), 'and the value is reported for re-sealing');
  t.ok(rotated.isCurrent(rotated.seal('x', 'y')));
});
