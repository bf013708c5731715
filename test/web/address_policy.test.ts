import { describe, expect, it } from 'vitest';
import { checkTarget, isAllowed, nonPublicReason } from '../../src/web/address_policy.js';

/** How the URL parser writes each host: what the policy sees from web_fetch and the browser. */
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '');

describe('the address policy on IPv6 addresses that carry an IPv4 address', () => {
  const refused: Array<[string, RegExp]> = [
    // IPv4-compatible (::a.b.c.d): ipaddr.js files all of ::/96 under unicast.
    ['http://[::169.254.169.254]/', /IPv4-compatible address carrying 169\.254\.169\.254, a link-local/],
    ['http://[::10.0.0.1]/', /IPv4-compatible address carrying 10\.0\.0\.1, a private address/],
    ['http://[::127.0.0.1]/', /IPv4-compatible address carrying 127\.0\.0\.1, a loopback address/],
    ['http://[::a9fe:a9fe]/', /IPv4-compatible address carrying 169\.254\.169\.254/],
    // IPv4-mapped and IPv4-translated (RFC 6145).
    ['http://[::ffff:169.254.169.254]/', /IPv4-mapped address carrying 169\.254\.169\.254, a link-local/],
    ['http://[::ffff:0:10.0.0.1]/', /IPv4-translated address carrying 10\.0\.0\.1, a private address/],
    // 6to4: the IPv4 address in bits 16–47.
    ['http://[2002:a9fe:a9fe::1]/', /6to4 address carrying 169\.254\.169\.254, a link-local/],
    ['http://[2002:7f00:1::]/', /6to4 address carrying 127\.0\.0\.1, a loopback address/],
    // Teredo: the server in bits 32–63, the client inverted in the last 32 bits.
    ['http://[2001:0:a00:1::1]/', /Teredo address carrying 10\.0\.0\.1, a private address/],
    ['http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/', /Teredo address carrying 10\.0\.0\.1/],
    ['http://[2001:0:4136:e378:8000:63bf:5601:5601]/', /Teredo address carrying 169\.254\.169\.254/],
    // NAT64, the well-known prefix and the local-use one.
    ['http://[64:ff9b::169.254.169.254]/', /NAT64 address carrying 169\.254\.169\.254, a link-local/],
    ['http://[64:ff9b::10.0.0.1]/', /NAT64 address carrying 10\.0\.0\.1, a private address/],
    ['http://[64:ff9b:1::127.0.0.1]/', /local-use NAT64 address carrying 127\.0\.0\.1, a loopback/],
    ['http://[64:ff9b:1:a00:1::]/', /local-use NAT64 address whose IPv4 address cannot be told/],
    // Not routed on the internet, whatever ipaddr.js calls it.
    ['http://[64:ff9b::1:0:0:a00:1]/', /outside the global unicast range 2000::\/3/],
    ['http://[::2]/', /IPv4-compatible address carrying 0\.0\.0\.2, the unspecified address/],
  ];

  for (const [url, reason] of refused)
    it(`refuses ${url}`, async () => {
      expect(nonPublicReason(hostOf(url))).toMatch(reason);
      const verdict = await checkTarget(new URL(url), { allow: [] });
      expect(verdict.ok).toBe(false);
      expect(!verdict.ok && verdict.reason).toMatch(/; refused \(allow it in settings "web\.allow"\)$/);
    });

  it('passes the same forms when the IPv4 address they carry is public', () => {
    for (const address of [
      '::ffff:8.8.8.8',
      '::8.8.8.8',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
      '64:ff9b::8.8.8.8',
      '64:ff9b:1::8.8.8.8',
    ])
      expect(nonPublicReason(address), address).toBeUndefined();
  });

  it('keeps the own names of ::, ::1 and plain global unicast', () => {
    expect(nonPublicReason('::')).toBe('the unspecified address');
    expect(nonPublicReason('::1')).toBe('a loopback address');
    expect(nonPublicReason('2606:4700:4700::1111')).toBeUndefined();
  });

  it('refuses a name that resolves to such an address', async () => {
    const resolve = async () => [{ address: '64:ff9b::a9fe:a9fe', family: 6 as const }];
    const verdict = await checkTarget(new URL('http://metadata.test/'), { allow: [], resolve });
    expect(!verdict.ok && verdict.reason).toMatch(
      /^metadata\.test resolves to 64:ff9b::a9fe:a9fe, which is a NAT64 address carrying 169\.254\.169\.254/,
    );
  });

  it('allows one when web.allow names the address, its IPv6 range or every refused IPv4 address it carries', () => {
    expect(isAllowed('x', '::a00:1', ['10.0.0.0/8'])).toBe(true);
    expect(isAllowed('x', '64:ff9b::a00:1', ['10.0.0.1'])).toBe(true);
    expect(isAllowed('x', '::ffff:a00:1', ['::ffff:10.0.0.0/104'])).toBe(true);
    expect(isAllowed('x', '2002:a00:1::1', ['2002::/16'])).toBe(true);
    // Teredo with a private server and a private client: both must be allowed.
    expect(isAllowed('x', '2001:0:c0a8:1:0:0:f5ff:fffe', ['10.0.0.0/8'])).toBe(false);
    expect(isAllowed('x', '2001:0:c0a8:1:0:0:f5ff:fffe', ['10.0.0.0/8', '192.168.0.0/16'])).toBe(true);
    expect(isAllowed('x', '64:ff9b::a00:1', ['192.168.0.0/16'])).toBe(false);
    expect(isAllowed('x', '64:ff9b:1:a00:1::', ['10.0.0.0/8'])).toBe(false);
  });
});
