// The custom-domain check's settings: DNS servers as IP addresses with optional ports, the
// interval (0 turns the job off) and the misses before FAILED.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/shared/config.js';

describe('DNS_RESOLVER and DOMAIN_VERIFY_*', () => {
  it('defaults to the system resolvers, a 5-minute interval and a day of misses', () => {
    const config = loadConfig({});
    expect(config.domains.dnsResolvers).toEqual([]);
    expect(config.domains.verifyIntervalMs).toBe(300_000);
    expect(config.domains.verifyMaxMisses).toBe(288);
  });

  it('takes IPv4 and IPv6 addresses with or without a port', () => {
    expect(loadConfig({ DNS_RESOLVER: '10.0.0.2, 127.0.0.1:5353,[::1]:53,2001:db8::1' }).domains.dnsResolvers).toEqual([
      '10.0.0.2',
      '127.0.0.1:5353',
      '[::1]:53',
      '2001:db8::1',
    ]);
    expect(loadConfig({ DOMAIN_VERIFY_INTERVAL_MS: '0' }).domains.verifyIntervalMs).toBe(0);
  });

  it('refuses host names, bad ports and bad numbers', () => {
    for (const bad of ['dns.google', '127.0.0.1:99999', '300.1.1.1', '127.0.0.1:', '[::1]:x']) {
      expect(() => loadConfig({ DNS_RESOLVER: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ DOMAIN_VERIFY_INTERVAL_MS: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ DOMAIN_VERIFY_MAX_MISSES: '0' })).toThrow(ConfigError);
  });
});
