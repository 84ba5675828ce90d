// The organization IP allow-list: exact addresses and CIDR blocks, IPv4 and IPv6, and IPv4 clients
// that reach us over an IPv6 socket (`::ffff:a.b.c.d`).
import { describe, expect, it } from 'vitest';
import { ipAllowed } from '../../src/core/access/ip-allow-rule.js';
import { normalizeIp } from '../../src/shared/ip.js';

describe('normalizeIp', () => {
  it('unwraps IPv4-mapped IPv6 addresses and leaves everything else alone', () => {
    expect(normalizeIp('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(normalizeIp('203.0.113.9')).toBe('203.0.113.9');
    expect(normalizeIp('2001:db8::1')).toBe('2001:db8::1');
    expect(normalizeIp('::1')).toBe('::1');
    // Only a real IPv4 address after the prefix is unwrapped.
    expect(normalizeIp('::ffff:cb00:7109')).toBe('::ffff:cb00:7109');
    expect(normalizeIp('::ffff:not-an-ip')).toBe('::ffff:not-an-ip');
  });
});

describe('ipAllowed', () => {
  it('allows everyone while the list is empty', () => {
    for (const ip of ['203.0.113.9', '2001:db8::1', '::1', '::ffff:10.0.0.1']) expect(ipAllowed([], ip)).toBe(true);
  });

  it('matches exact IPv4 addresses only', () => {
    const list = ['203.0.113.10'];
    expect(ipAllowed(list, '203.0.113.10')).toBe(true);
    expect(ipAllowed(list, '203.0.113.11')).toBe(false);
    expect(ipAllowed(list, '203.0.113.1')).toBe(false);
  });

  it('matches IPv4 CIDR blocks up to and including their edges', () => {
    const list = ['192.0.2.0/24', '10.0.0.0/8'];
    expect(ipAllowed(list, '192.0.2.0')).toBe(true);
    expect(ipAllowed(list, '192.0.2.255')).toBe(true);
    expect(ipAllowed(list, '192.0.3.0')).toBe(false);
    expect(ipAllowed(list, '192.0.1.255')).toBe(false);
    expect(ipAllowed(list, '10.255.255.255')).toBe(true);
    expect(ipAllowed(list, '11.0.0.0')).toBe(false);
    expect(ipAllowed(['198.51.100.7/32'], '198.51.100.7')).toBe(true);
    expect(ipAllowed(['198.51.100.7/32'], '198.51.100.8')).toBe(false);
    expect(ipAllowed(['0.0.0.0/0'], '8.8.8.8')).toBe(true);
  });

  it('matches IPv6 addresses and prefixes, in any spelling', () => {
    const list = ['2001:db8::/32', 'fd00::1'];
    expect(ipAllowed(list, '2001:db8::1')).toBe(true);
    expect(ipAllowed(list, '2001:DB8:ffff::1')).toBe(true);
    expect(ipAllowed(list, '2001:db9::1')).toBe(false);
    expect(ipAllowed(list, 'fd00:0:0:0:0:0:0:1')).toBe(true);
    expect(ipAllowed(list, 'fd00::2')).toBe(false);
  });

  it('treats an IPv4 client on an IPv6 socket as the IPv4 address', () => {
    expect(ipAllowed(['203.0.113.10'], '::ffff:203.0.113.10')).toBe(true);
    expect(ipAllowed(['192.0.2.0/24'], '::ffff:192.0.2.77')).toBe(true);
    expect(ipAllowed(['192.0.2.0/24'], '::ffff:198.51.100.1')).toBe(false);
  });

  it('never lets one family match the other', () => {
    expect(ipAllowed(['10.0.0.0/8'], '::1')).toBe(false);
    expect(ipAllowed(['10.0.0.0/8'], '2001:db8::a00:1')).toBe(false);
    expect(ipAllowed(['2001:db8::/32'], '32.1.13.184')).toBe(false);
  });

  it('refuses an address that is not an IP at all', () => {
    expect(ipAllowed(['10.0.0.0/8'], 'unknown')).toBe(false);
    expect(ipAllowed(['10.0.0.0/8'], '')).toBe(false);
  });
});
