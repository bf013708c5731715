import ipaddr from 'ipaddr.js';

/**
 * The IPv4 addresses an IPv6 address carries, for the forms that lead to them: a connection to
 * `[::10.0.0.1]` or `[64:ff9b::10.0.0.1]` ends at 10.0.0.1, so the address is judged as that.
 * ipaddr.js files some of these forms under `unicast` (`::a00:1`) and others under a reserved
 * range name that says nothing of where they lead; this reads them bit by bit instead.
 */
export interface EmbeddedIPv4 {
  /** How the IPv6 address carries them: `an IPv4-compatible address`, `a 6to4 address`, … */
  form: string;
  /** Every address it leads to; empty when the form's layout cannot be told (refused as such). */
  ipv4: ipaddr.IPv4[];
}

const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

const allZero = (parts: number[], from: number, to: number) =>
  parts.slice(from, to).every((part) => part === 0);

/** The embedded IPv4 addresses of `ip`, or undefined when it carries none. */
export function embeddedIPv4(ip: ipaddr.IPv6): EmbeddedIPv4 | undefined {
  const p = ip.parts;
  const last = () => [ipv4Of(p[6], p[7])];
  if (allZero(p, 0, 5) && p[5] === 0xffff) return { form: 'an IPv4-mapped address', ipv4: last() };
  // `::` and `::1` keep their own names (the unspecified and loopback addresses).
  if (allZero(p, 0, 6) && !(p[6] === 0 && p[7] <= 1))
    return { form: 'an IPv4-compatible address', ipv4: last() };
  if (allZero(p, 0, 4) && p[4] === 0xffff && p[5] === 0)
    return { form: 'an IPv4-translated address', ipv4: last() };
  if (p[0] === 0x64 && p[1] === 0xff9b) return nat64(p);
  // 6to4 (RFC 3056): 2002:AABB:CCDD::/48 is the site behind the IPv4 address AABBCCDD.
  if (p[0] === 0x2002) return { form: 'a 6to4 address', ipv4: [ipv4Of(p[1], p[2])] };
  // Teredo (RFC 4380): 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the server's IPv4 address in
  // bits 32–63 and the client's in the last 32 bits, every bit inverted.
  if (p[0] === 0x2001 && p[1] === 0)
    return {
      form: 'a Teredo address',
      ipv4: [ipv4Of(p[2], p[3]), ipv4Of(p[6] ^ 0xffff, p[7] ^ 0xffff)],
    };
  return undefined;
}

/**
 * NAT64 (RFC 6052, RFC 8215). The well-known prefix `64:ff9b::/96` holds the IPv4 address in the
 * last 32 bits. The local-use `64:ff9b:1::/48` leaves the prefix length to the network, and with
 * it where the IPv4 address sits: only the `/96` form (bits 48–95 zero) can be read whatever
 * the length is; any other address there is refused as unreadable.
 */
function nat64(p: number[]): EmbeddedIPv4 | undefined {
  if (allZero(p, 2, 6)) return { form: 'a NAT64 address', ipv4: [ipv4Of(p[6], p[7])] };
  if (p[2] !== 1) return undefined;
  const readable = allZero(p, 3, 6);
  return { form: 'a local-use NAT64 address', ipv4: readable ? [ipv4Of(p[6], p[7])] : [] };
}
