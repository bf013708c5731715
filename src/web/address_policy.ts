import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { type EmbeddedIPv4, embeddedIPv4 } from './embedded_ipv4.js';

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

/** IPv6 addresses outside it are not routed on the internet (ipaddr.js calls most `unicast`). */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** Why an address's own range is not global unicast, or undefined when it is. */
function rangeReason(ip: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  const range = ip.range();
  if (range !== 'unicast') return RANGE_NAMES[range] ?? `a reserved address (${range})`;
  if (ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST)) return 'outside the global unicast range 2000::/3';
  return undefined;
}

function embeddedOf(ip: ipaddr.IPv4 | ipaddr.IPv6): EmbeddedIPv4 | undefined {
  return ip.kind() === 'ipv6' ? embeddedIPv4(ip as ipaddr.IPv6) : undefined;
}

/** An IPv6 address that carries IPv4 addresses is judged by them: it leads there. */
function embeddedReason({ form, ipv4 }: EmbeddedIPv4): string | undefined {
  if (ipv4.length === 0)
    return `${form} whose IPv4 address cannot be told (it depends on the network's prefix length)`;
  for (const address of ipv4) {
    const why = rangeReason(address);
    if (why) return `${form} carrying ${address}, ${why}`;
  }
  return undefined;
}

/** Why an address is not a global unicast one, or undefined when it is. */
export function nonPublicReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  const ip = ipaddr.parse(address);
  const embedded = embeddedOf(ip);
  return embedded ? embeddedReason(embedded) : rangeReason(ip);
}

function nameAllowed(host: string, entry: string): boolean {
  const name = entry.toLowerCase().replace(/^\*\./, '.');
  if (name.startsWith('.')) return host.endsWith(name) || host === name.slice(1);
  return host === name;
}

/** An entry as an address range; IPv4-mapped entries (`::ffff:10.0.0.0/104`) as the IPv4 range. */
function entryRange(entry: string): readonly [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined {
  try {
    const [net, bits] = ipaddr.isValidCIDR(entry)
      ? ipaddr.parseCIDR(entry)
      : ([ipaddr.parse(entry), entry.includes(':') ? 128 : 32] as const);
    if (net.kind() === 'ipv6' && (net as ipaddr.IPv6).isIPv4MappedAddress())
      return [(net as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)];
    return [net, bits];
  } catch {
    return undefined; // an entry that is neither: a host name
  }
}

function addressAllowed(ip: ipaddr.IPv4 | ipaddr.IPv6, entry: string): boolean {
  const range = entryRange(entry);
  return range !== undefined && ip.kind() === range[0].kind() && ip.match(range[0], range[1]);
}

/**
 * Whether settings allow this host or address beyond global unicast: its name, the address
 * itself, or (for an address carrying IPv4 addresses) every refused IPv4 address it carries.
 */
export function isAllowed(host: string, address: string, allow: readonly string[]): boolean {
  const name = host.toLowerCase();
  if (allow.some((entry) => nameAllowed(name, entry))) return true;
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (allow.some((entry) => addressAllowed(ip, entry))) return true;
  const carried = embeddedOf(ip)?.ipv4 ?? [];
  return (
    carried.length > 0 &&
    carried.every((v4) => !rangeReason(v4) || allow.some((entry) => addressAllowed(v4, entry)))
  );
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
