// Deferred-matching score and choice: what each signal is worth, what rules a candidate out, two
// people behind one carrier IP each getting their own click, the newest click winning a tie.
import { describe, expect, it } from 'vitest';
import { launchSignals } from '../../src/core/deeplinks/deferred-match.js';
import { ipPrefix } from '../../src/core/deeplinks/device-signals.js';
import { chooseMatch, MATCH_THRESHOLD, rankCandidates, scoreMatch, type ClickSignals, type LaunchSignals } from '../../src/core/deeplinks/match-score.js';

const NOW = Date.parse('2026-11-22T10:00:00Z');

function click(over: Partial<ClickSignals> & { token: string }): ClickSignals {
  const ip = over.ip ?? '203.0.113.7';
  return {
    createdAt: NOW - 10 * 60_000, ip, ipPrefix: ipPrefix(ip), os: 'IOS', osVersion: '17.4', deviceModel: null,
    resolution: '390x844', pixelRatio: 3, timeZone: 'Asia/Seoul', language: 'ko-kr', ...over,
  };
}

function launch(over: Partial<LaunchSignals> = {}): LaunchSignals {
  const ips = over.ips ?? ['203.0.113.7'];
  return {
    ips, ipPrefixes: ips.map(ipPrefix), os: 'IOS', osVersion: '17.4.1', deviceModel: null,
    resolution: '1170x2532', timeZone: 'Asia/Seoul', language: 'ko-kr', launchedAt: NOW, ...over,
  };
}

describe('scoreMatch', () => {
  it('scores the same iPhone on the same connection high (CSS pixels on the page, device pixels in the app)', () => {
    const s = scoreMatch(click({ token: 'a' }), launch());
    expect(s.disqualified).toBeNull();
    // 40 IP + 5 OS + 15 version (17.4 vs 17.4.1 agree) + 15 screen + 5 language + 5 zone
    expect(s.score).toBe(85);
  });

  it('scores 100 when every signal agrees, the Android model included', () => {
    const android = click({ token: 'a', os: 'ANDROID', osVersion: '14', deviceModel: 'Pixel 8', resolution: '412x915', pixelRatio: 2.625 });
    const s = scoreMatch(android, launch({ os: 'ANDROID', osVersion: '14.0.1', deviceModel: 'pixel 8', resolution: '1080x2402' }));
    // 14 vs 14.0.1: one common part, the major only
    expect(s.score).toBe(40 + 5 + 8 + 15 + 15 + 5 + 5);
    // 412 x 915 CSS pixels at 2.625 is 1081.5 x 2401.9: the Pixel's 1080 x 2400 all the same.
    expect(scoreMatch(android, launch({ os: 'ANDROID', osVersion: '14', deviceModel: 'Pixel 8', resolution: '1080x2400' })).score).toBeGreaterThanOrEqual(85);
    const full = scoreMatch({ ...android, osVersion: '14.1' }, launch({ os: 'ANDROID', osVersion: '14.1', deviceModel: 'Pixel 8', resolution: '412x915' }));
    expect(full.score).toBe(100);
  });

  it('rules out another OS family and another device model whatever else agrees', () => {
    expect(scoreMatch(click({ token: 'a' }), launch({ os: 'ANDROID' })).disqualified).toBe('os_mismatch');
    const pixel = click({ token: 'a', os: 'ANDROID', deviceModel: 'Pixel 8' });
    expect(scoreMatch(pixel, launch({ os: 'ANDROID', deviceModel: 'SM-S918N' }))).toMatchObject({ disqualified: 'device_mismatch', score: 0 });
  });

  it('takes the same network for less than the same address, and counts nothing it cannot compare', () => {
    const sameNetwork = scoreMatch(click({ token: 'a' }), launch({ ips: ['203.0.113.99'] }));
    expect(sameNetwork.score).toBe(85 - 40 + 15);
    const bare = scoreMatch(click({ token: 'a', resolution: null, timeZone: null, language: null }), launch());
    expect(bare.score).toBe(40 + 5 + 15);
  });

  it('takes points away for a different screen, language, zone and OS major', () => {
    const other = scoreMatch(click({ token: 'a' }), launch({ resolution: '1284x2778', language: 'en-us', timeZone: 'America/New_York', osVersion: '16.7' }));
    expect(other.score).toBe(Math.max(0, 40 + 5 - 20 - 25 - 5 - 10));
    expect(scoreMatch(click({ token: 'a' }), launch({ language: 'ko' })).score).toBe(85 - 5 + 3);
  });
});

describe('chooseMatch', () => {
  it('gives two people behind one carrier IP their own clicks', () => {
    const carrier = '198.51.100.20';
    // Two Android phones of different models and screens, clicked two minutes apart on one NAT address.
    const alice = click({ token: 'alice', ip: carrier, os: 'ANDROID', osVersion: '14', deviceModel: 'SM-S918N', resolution: '360x780', pixelRatio: 3, createdAt: NOW - 5 * 60_000 });
    const bob = click({ token: 'bob', ip: carrier, os: 'ANDROID', osVersion: '13', deviceModel: 'Pixel 7', resolution: '412x915', pixelRatio: 2.625, createdAt: NOW - 3 * 60_000 });
    const candidates = [alice, bob];

    const aliceLaunch = launch({ ips: [carrier], os: 'ANDROID', osVersion: '14', deviceModel: 'SM-S918N', resolution: '1080x2340' });
    const bobLaunch = launch({ ips: [carrier], os: 'ANDROID', osVersion: '13', deviceModel: 'Pixel 7', resolution: '412x915' });

    const forAlice = chooseMatch(rankCandidates(aliceLaunch, candidates));
    const forBob = chooseMatch(rankCandidates(bobLaunch, candidates));
    expect(forAlice.matched && forAlice.best.candidate.token).toBe('alice');
    expect(forBob.matched && forBob.best.candidate.token).toBe('bob');
  });

  it('tells two iPhones behind one IP apart by their screens', () => {
    const ip = '198.51.100.30';
    const mini = click({ token: 'mini', ip, resolution: '375x812', createdAt: NOW - 60_000 });
    const max = click({ token: 'max', ip, resolution: '430x932', createdAt: NOW - 120_000 });
    const choice = chooseMatch(rankCandidates(launch({ ips: [ip], resolution: '1290x2796' }), [mini, max]));
    expect(choice.matched && choice.best.candidate.token).toBe('max');
    expect(choice.matched && choice.runnersUp).toEqual([]);
  });

  it('gives an exact tie to the newest click', () => {
    const older = click({ token: 'older', createdAt: NOW - 30 * 60_000 });
    const newer = click({ token: 'newer', createdAt: NOW - 2 * 60_000 });
    const choice = chooseMatch(rankCandidates(launch(), [older, newer]));
    expect(choice.matched && choice.best.candidate.token).toBe('newer');
    expect(choice.matched && choice.runnersUp.map((r) => r.candidate.token)).toEqual(['older']);
  });

  it('does not match below the threshold, and says why', () => {
    // Another network altogether: even a perfect iPhone fit stays below the threshold.
    const far = chooseMatch(rankCandidates(launch({ ips: ['192.0.2.1'] }), [click({ token: 'a' })]));
    expect(far).toMatchObject({ matched: false, reason: 'below_threshold', bestScore: 45 });
    expect(45).toBeLessThan(MATCH_THRESHOLD);
    expect(chooseMatch([])).toMatchObject({ matched: false, reason: 'no_candidate' });
    expect(chooseMatch(rankCandidates(launch({ os: 'ANDROID' }), [click({ token: 'a' })]))).toMatchObject({ matched: false, reason: 'os_mismatch' });
  });
});

describe('age of the click', () => {
  it('weighs a click hours before the launch less, so a fresher equal one wins', () => {
    const launchedAt = NOW;
    const recent = scoreMatch(click({ token: 'a', createdAt: NOW - 20 * 60_000 }), launch({ launchedAt }));
    const hours = scoreMatch(click({ token: 'b', createdAt: NOW - 3 * 3_600_000 }), launch({ launchedAt }));
    const day = scoreMatch(click({ token: 'c', createdAt: NOW - 20 * 3_600_000 }), launch({ launchedAt }));
    expect([recent.score, hours.score, day.score]).toEqual([85, 80, 75]);
  });
});

describe('launchSignals', () => {
  it('reads the app\'s report: both addresses, OS version over the user agent\'s, the screen and language normalised', () => {
    const s = launchSignals({
      appId: 1, platform: 'ANDROID',
      userAgent: 'Mozilla/5.0 (Linux; Android 14; SM-S918N Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0 Mobile Safari/537.36',
      ipAddress: '::ffff:198.51.100.20', requestIp: '10.0.0.9', resolution: '2340x1080', osVersion: '14.0', language: 'ko_KR',
    });
    expect(s).toMatchObject({
      ips: ['198.51.100.20', '10.0.0.9'], ipPrefixes: ['198.51.100.0/24', '10.0.0.0/24'],
      os: 'ANDROID', osVersion: '14', deviceModel: 'SM-S918N', resolution: '1080x2340', language: 'ko-kr', timeZone: null,
    });
  });
});
