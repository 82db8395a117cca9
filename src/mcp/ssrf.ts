import dns, { type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * Outbound HTTP guard for MCP servers (docs/mcp-sources.md, "Network rules").
 *
 * A URL is refused unless it is http(s), carries no credentials, and EVERY address its
 * host resolves to is public unicast. Loopback, private (RFC 1918), carrier-grade NAT,
 * link-local (incl. the 169.254.169.254 cloud metadata address), unique-local (fc00::/7),
 * multicast, unspecified, documentation, benchmarking, IPv4-mapped/translated private
 * addresses and every other reserved range are refused, unless:
 *  - `allowPrivateNetworks` is true (MCP_ALLOW_PRIVATE_NETWORKS=true), or
 *  - the host name, or the address, matches an entry of `allowedHosts`
 *    (MCP_ALLOWED_HOSTS: host names, `*.suffix` wildcards, IP addresses or CIDR ranges).
 *
 * Cloud metadata addresses stay refused even with MCP_ALLOW_PRIVATE_NETWORKS=true unless
 * an allow-list entry names them.
 *
 * The check runs twice: when a URL is saved or tested (clear 400 for the client), and
 * again on every connection the MCP client opens (a DNS lookup hook of the HTTP agent),
 * so a host that later resolves elsewhere (DNS rebinding) or a redirect cannot reach a
 * refused address.
 */
export interface NetworkPolicy {
  allowPrivateNetworks: boolean;
  allowedHosts: string[];
}

export class UrlNotAllowedError extends Error {
  constructor(
    message: string,
    /** `invalid` (not a usable URL), `unresolvable` (DNS failed), `refused` (blocked address). */
    public readonly reason: 'invalid' | 'unresolvable' | 'refused',
  ) {
    super(message);
    this.name = 'UrlNotAllowedError';
  }
}

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

/** The range name of an address (`unicast` for a public address), IPv4-mapped IPv6 unwrapped. */
export function addressRange(address: string): string {
  let a: Addr = ipaddr.parse(address);
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  return a.range();
}

/**
 * The IPv4 address an IPv6 address carries inside it, if any: IPv4-compatible
 * (`::a.b.c.d`, the deprecated ::/96, `::7f00:1` included), IPv4-mapped (`::ffff:0:0/96`),
 * IPv4-translated (`::ffff:0:0:0/96`), NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`), 6to4
 * (`2002::/16`) and Teredo (`2001::/32`, the client address inverted). A host that
 * resolves to one of these is judged by the embedded address too.
 */
export function embeddedIPv4(address: string): string | null {
  const a = ipaddr.parse(address);
  if (a.kind() !== 'ipv6') return null;
  const p = (a as ipaddr.IPv6).parts;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  if (zero(0, 6) && !(p[6] === 0 && (p[7] ?? 0) <= 1)) return v4(p[6]!, p[7]!); // ::/96 except :: and ::1
  if (zero(0, 5) && p[5] === 0xffff) return v4(p[6]!, p[7]!); // mapped
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) return v4(p[6]!, p[7]!); // translated
  if (p[0] === 0x64 && p[1] === 0xff9b) return v4(p[6]!, p[7]!); // NAT64
  if (p[0] === 0x2002) return v4(p[1]!, p[2]!); // 6to4
  if (p[0] === 0x2001 && p[1] === 0) return v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff); // Teredo
  return null;
}

/**
 * Cloud instance metadata endpoints (AWS/GCP/Azure/OpenStack 169.254.169.254, AWS ECS
 * 169.254.170.2, AWS IPv6 fd00:ec2::254, Alibaba 100.100.100.200): refused even when
 * private networks are allowed, unless an allow-list entry names them explicitly.
 */
const METADATA_ADDRESSES = ['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200'].map((a) => ipaddr.parse(a).toNormalizedString());

export function isMetadataAddress(address: string): boolean {
  let a: Addr = ipaddr.parse(address);
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  return METADATA_ADDRESSES.includes(a.toNormalizedString());
}

interface AllowEntry {
  host?: string;
  suffix?: string;
  cidr?: [Addr, number];
}

function parseAllowList(entries: string[]): AllowEntry[] {
  const out: AllowEntry[] = [];
  for (const raw of entries) {
    const e = raw.trim().toLowerCase();
    if (!e) continue;
    if (e.startsWith('*.')) out.push({ suffix: e.slice(1) });
    else if (e.includes('/')) out.push({ cidr: ipaddr.parseCIDR(e) });
    else if (ipaddr.isValid(e)) {
      const a = ipaddr.parse(e);
      out.push({ cidr: [a, a.kind() === 'ipv4' ? 32 : 128] });
    } else out.push({ host: e });
  }
  return out;
}

function hostAllowed(list: AllowEntry[], host: string): boolean {
  const h = host.toLowerCase();
  return list.some((e) => (e.host !== undefined && e.host === h) || (e.suffix !== undefined && h.endsWith(e.suffix)));
}

function addressAllowed(list: AllowEntry[], address: string): boolean {
  let a: Addr = ipaddr.parse(address);
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  return list.some((e) => e.cidr !== undefined && a.kind() === e.cidr[0].kind() && a.match(e.cidr as [ipaddr.IPv4, number]));
}

export interface NetworkGuard {
  readonly policy: NetworkPolicy;
  /** Validates a URL and resolves its host; throws UrlNotAllowedError. Returns the parsed URL. */
  checkUrl(url: string): Promise<URL>;
  /** A fetch that applies the guard to every request and every connection (for the MCP SDK). */
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  close(): Promise<void>;
}

export function createNetworkGuard(policy: NetworkPolicy, resolver: typeof dns.lookup = dns.lookup): NetworkGuard {
  const allow = parseAllowList(policy.allowedHosts);

  /** Throws when an address of `host` (or the IPv4 address it embeds) is refused. */
  const checkAddresses = (host: string, resolved: string[]) => {
    if (hostAllowed(allow, host)) return;
    const addresses = resolved.flatMap((a) => {
      const inner = embeddedIPv4(a);
      return inner ? [a, inner] : [a];
    });
    for (const address of addresses) {
      if (isMetadataAddress(address) && !addressAllowed(allow, address)) {
        throw new UrlNotAllowedError(
          `host ${host} resolves to ${address}, a cloud metadata address; it is refused unless listed in MCP_ALLOWED_HOSTS`,
          'refused',
        );
      }
      if (policy.allowPrivateNetworks) continue;
      const range = addressRange(address);
      if (range !== 'unicast' && !addressAllowed(allow, address)) {
        throw new UrlNotAllowedError(
          `host ${host} resolves to ${address} (${range}), a non-public address; set MCP_ALLOW_PRIVATE_NETWORKS=true or list the host in MCP_ALLOWED_HOSTS to allow it`,
          'refused',
        );
      }
    }
  };

  const resolveAll = (host: string) =>
    new Promise<LookupAddress[]>((resolve, reject) => {
      resolver(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses as LookupAddress[])));
    });

  const parse = (url: string): URL => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new UrlNotAllowedError('must be an absolute http(s) URL', 'invalid');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UrlNotAllowedError('must use http or https', 'invalid');
    if (u.username || u.password) throw new UrlNotAllowedError('must not contain credentials; send them as headers', 'invalid');
    if (!u.hostname) throw new UrlNotAllowedError('must name a host', 'invalid');
    return u;
  };

  const bareHost = (u: URL) => (u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname);

  const checkUrl = async (url: string): Promise<URL> => {
    const u = parse(url);
    const host = bareHost(u);
    if (isIP(host)) {
      checkAddresses(host, [host]);
      return u;
    }
    let addresses: LookupAddress[];
    try {
      addresses = await resolveAll(host);
    } catch {
      throw new UrlNotAllowedError(`host ${host} could not be resolved`, 'unresolvable');
    }
    if (!addresses.length) throw new UrlNotAllowedError(`host ${host} could not be resolved`, 'unresolvable');
    checkAddresses(
      host,
      addresses.map((a) => a.address),
    );
    return u;
  };

  // Connection-time check: every address undici is about to connect to passes the guard.
  const guardedLookup = (hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    resolver(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err);
      const list = addresses as LookupAddress[];
      try {
        checkAddresses(
          hostname,
          list.map((a) => a.address),
        );
      } catch (e) {
        return callback(e);
      }
      if (options.all) callback(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    });
  };
  const agent = new Agent({ connect: { lookup: guardedLookup as unknown as typeof dns.lookup } });

  const guardedFetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    await checkUrl(String(url));
    return undiciFetch(url, { ...(init as object), dispatcher: agent } as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>;
  };

  return { policy, checkUrl, fetch: guardedFetch, close: () => agent.close() };
}
