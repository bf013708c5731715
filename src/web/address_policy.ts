import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Which hosts the web tools may reach. Only global unicast addresses, unless settings allow more
 * (`web.allow`: CIDR ranges, single addresses, host names; `.corp.example` or `*.corp.example`
 * covers the names below it). Everything a request reaches is judged on the address it connects
 * to, after resolution: a public name that resolves to 127.0.0.1 is refused like 127.0.0.1.
 */
export interface AddressPolicy {
  allow: readonly string[];
  /** Resolves a host name to every address it has; tests give their own. */
  resolve?: Resolver;
}

export type Resolver = (host: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export type TargetVerdict =
  | { ok: true; host: string; address: string; family: 4 | 6 }
  | { ok: false; reason: string };

const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address (cloud metadata lives there)',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a unique-local address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

/** The address as ipaddr reads it, IPv4-mapped IPv6 (`::ffff:127.0.0.1`) taken as the IPv4 it maps. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    return (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed;
}

/** Why an address is not a global unicast one, or undefined when it is. */
export function nonPublicReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  const range = parseAddress(address).range();
  if (range === 'unicast') return undefined;
  return RANGE_NAMES[range] ?? `a reserved address (${range})`;
}

function nameAllowed(host: string, entry: string): boolean {
  const name = entry.toLowerCase().replace(/^\*\./, '.');
  if (name.startsWith('.')) return host.endsWith(name) || host === name.slice(1);
  return host === name;
}

function addressAllowed(address: string, entry: string): boolean {
  try {
    const ip = parseAddress(address);
    if (ipaddr.isValidCIDR(entry)) {
      const [net, bits] = ipaddr.parseCIDR(entry);
      const range =
        net.kind() === 'ipv6' && (net as ipaddr.IPv6).isIPv4MappedAddress()
          ? ([(net as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)] as const)
          : ([net, bits] as const);
      return ip.kind() === range[0].kind() && ip.match(range[0], range[1]);
    }
    if (ipaddr.isValid(entry)) return parseAddress(entry).toString() === ip.toString();
  } catch {
    // an entry that is neither: a host name
  }
  return false;
}

/** Whether settings allow this host or address beyond global unicast. */
export function isAllowed(host: string, address: string, allow: readonly string[]): boolean {
  const name = host.toLowerCase();
  return allow.some((entry) => nameAllowed(name, entry) || addressAllowed(address, entry));
}

/**
 * Judges a URL before anything connects: the scheme, then every address its host resolves to.
 * The verdict names the one address the request must connect to (pin it with a custom `lookup`
 * so that a second resolution cannot swap it). A host with any refused address is refused.
 */
export async function checkTarget(url: URL, policy: AddressPolicy): Promise<TargetVerdict> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return {
      ok: false,
      reason: `${url.protocol.replace(/:$/, '')}: URLs are not fetched (only http and https)`,
    };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) return { ok: false, reason: 'the URL has no host' };
  let addresses: Array<{ address: string; family: 4 | 6 }>;
  if (ipaddr.isValid(host)) addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  else {
    try {
      addresses = await (policy.resolve ?? systemResolver)(host);
    } catch (error) {
      return {
        ok: false,
        reason: `${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      };
    }
    if (addresses.length === 0) return { ok: false, reason: `${host} has no address` };
  }
  for (const { address } of addresses) {
    const why = nonPublicReason(address);
    if (why && !isAllowed(host, address, policy.allow))
      return {
        ok: false,
        reason: `${host === address ? address : `${host} resolves to ${address}, which`} is ${why}; refused (allow it in settings "web.allow")`,
      };
  }
  const [first] = addresses;
  return { ok: true, host, address: first.address, family: first.family };
}
