// Deferred-matching score and choice: what each signal is worth, what rules a candidate out, two
// people behind one carrier IP each getting their own click, the newest click winning a tie.
import { describe, expect, it } from 'vitest';
import { launchSignals } from '../../src/core/deeplinks/deferred-match.js';
import { agentSignals, clientHintValue, ipPrefix, withClientHints } from '../../src/core/deeplinks/device-signals.js';
import {
  chooseMatch,
  MATCH_THRESHOLD,
  rankCandidates,
  scoreMatch,
  WEIGHTS as W,
  type ClickSignals,
  type LaunchSignals,
} from '../../src/core/deeplinks/match-score.js';

const NOW = Date.parse('2026-11-22T10:00:00Z');

function click(over: Partial<ClickSignals> & { token: string }): ClickSignals {
  const ip = over.ip ?? '203.0.113.7';
  return {
    createdAt: NOW - 10 * 60_000,
    ip,
    ipPrefix: ipPrefix(ip),
    os: 'IOS',
    osVersion: '17.4',
    deviceModel: null,
    resolution: '390x844',
    pixelRatio: 3,
    timeZone: 'Asia/Seoul',
    language: 'ko-kr',
    ...over,
  };
}

function launch(over: Partial<LaunchSignals> = {}): LaunchSignals {
  const ips = over.ips ?? ['203.0.113.7'];
  return {
    ips,
    ipPrefixes: ips.map(ipPrefix),
    os: 'IOS',
    osVersion: '17.4',
    deviceModel: null,
    resolution: '1170x2532',
    timeZone: 'Asia/Seoul',
    language: 'ko-kr',
    launchedAt: NOW,
    ...over,
  };
}

/** The same iPhone on the same connection, ten minutes after its click: every signal agrees (the sum, before the clamp to 100). */
const AGREED =
  W.ip.same + W.os.same + W.osVersion.same + W.resolution.same + W.language.tag + W.timeZone.same + W.age.fresh;
/** A score is the sum of the points clamped to 0..100. */
const clamp = (points: number) => Math.max(0, Math.min(100, points));

describe('scoreMatch', () => {
  it('scores the same iPhone on the same connection high (CSS pixels on the page, device pixels in the app)', () => {
    const s = scoreMatch(click({ token: 'a' }), launch());
    expect(s.disqualified).toBeNull();
    expect(s.score).toBe(clamp(AGREED));
    expect(s.score).toBeGreaterThan(MATCH_THRESHOLD);
    expect(s.signals).toEqual(['ip', 'os', 'osVersion', 'resolution', 'language', 'timeZone']);
  });

  it('scores 100 when every signal agrees, the Android model included', () => {
    const android = click({
      token: 'a',
      os: 'ANDROID',
      osVersion: '14',
      deviceModel: 'Pixel 8',
      resolution: '412x915',
      pixelRatio: 2.625,
    });
    const s = scoreMatch(
      android,
      launch({ os: 'ANDROID', osVersion: '14.0.1', deviceModel: 'pixel 8', resolution: '1080x2402' }),
    );
    // 14 is 14.0.0: 14.0.1 is another patch of the same release, still a strong match; the model makes up for it.
    expect(s.score).toBe(100);
    expect(s.signals).toContain('deviceModel');
    // 412 x 915 CSS pixels at 2.625 is 1081.5 x 2401.9: the Pixel's 1080 x 2400 all the same.
    expect(
      scoreMatch(android, launch({ os: 'ANDROID', osVersion: '14', deviceModel: 'Pixel 8', resolution: '1080x2400' }))
        .signals,
    ).toContain('resolution');
  });

  it('takes 17, 17.0 and 17.0.0 for one release, another patch for a strong match, another minor or major against', () => {
    const at = (clicked: string, launched: string) =>
      scoreMatch(click({ token: 'a', osVersion: clicked }), launch({ osVersion: launched })).score;
    const rest = AGREED - W.osVersion.same;
    expect([at('17', '17'), at('17', '17.0'), at('17', '17.0.0'), at('17.0', '17.0.0')]).toEqual(
      Array(4).fill(clamp(rest + W.osVersion.same)),
    );
    expect([at('17', '17.0.1'), at('17.4.1', '17.4')]).toEqual([
      clamp(rest + W.osVersion.patch),
      clamp(rest + W.osVersion.patch),
    ]);
    expect(rest + W.osVersion.patch).toBeGreaterThan(MATCH_THRESHOLD);
    expect(at('17', '17.1')).toBe(clamp(rest + W.osVersion.minor));
    expect(at('17', '18.0')).toBe(clamp(rest + W.osVersion.major));
  });

  it('matches an iPhone on an x.0 release: user agent iPhone OS 17_0, the app reporting 17.0 (issue 22)', () => {
    const ua =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
    const clicked = click({ token: 'a', osVersion: agentSignals(ua).osVersion, timeZone: null, language: null });
    const launched = launchSignals({
      appId: 1,
      platform: 'IOS',
      userAgent: 'Shop/1 CFNetwork/1474 Darwin/23.0.0',
      ipAddress: '203.0.113.7',
      requestIp: '203.0.113.7',
      resolution: '1170x2532',
      osVersion: '17.0',
    });
    // The spec's signals alone: address, OS, version, screen.
    const choice = chooseMatch(rankCandidates({ ...launched, launchedAt: NOW }, [clicked]));
    expect(choice).toMatchObject({
      matched: true,
      best: { score: W.ip.same + W.os.same + W.osVersion.same + W.resolution.same + W.age.fresh },
    });
  });

  it('rules out another OS family and another device model whatever else agrees', () => {
    expect(scoreMatch(click({ token: 'a' }), launch({ os: 'ANDROID' })).disqualified).toBe('os_mismatch');
    const pixel = click({ token: 'a', os: 'ANDROID', deviceModel: 'Pixel 8' });
    expect(scoreMatch(pixel, launch({ os: 'ANDROID', deviceModel: 'SM-S918N' }))).toMatchObject({
      disqualified: 'device_mismatch',
      score: 0,
    });
  });

  it('takes the same network for far less than the same address, and counts nothing it cannot compare', () => {
    const sameNetwork = scoreMatch(click({ token: 'a' }), launch({ ips: ['203.0.113.99'] }));
    expect(sameNetwork.score).toBe(AGREED - W.ip.same + W.ip.network);
    expect(sameNetwork.score).toBeLessThan(MATCH_THRESHOLD);
    const bare = scoreMatch(click({ token: 'a', resolution: null, timeZone: null, language: null }), launch());
    expect(bare.score).toBe(W.ip.same + W.os.same + W.osVersion.same + W.age.fresh);
  });

  it("takes another address in the click's IPv6 /64 (a rotated temporary address) for the same connection", () => {
    const clicked = click({ token: 'a', ip: '2001:db8:1:2:aaaa:bbbb:cccc:dddd' });
    const rotated = scoreMatch(clicked, launch({ ips: ['2001:db8:1:2:1111:2222:3333:4444'] }));
    expect(rotated.score).toBe(clamp(AGREED - W.ip.same + W.ip.prefix64));
    expect(rotated.score).toBeGreaterThan(MATCH_THRESHOLD);
    expect(rotated.signals[0]).toBe('ipNetwork');
    // Another /64 of the same provider says nothing.
    expect(scoreMatch(clicked, launch({ ips: ['2001:db8:1:3:aaaa:bbbb:cccc:dddd'] })).score).toBe(
      AGREED - W.ip.same + W.ip.other,
    );
  });

  it('takes points away for a different screen, language, zone and OS major', () => {
    expect(scoreMatch(click({ token: 'a' }), launch({ resolution: '1284x2778' })).score).toBe(
      AGREED - W.resolution.same + W.resolution.differs,
    );
    expect(scoreMatch(click({ token: 'a' }), launch({ language: 'en-us' })).score).toBe(
      AGREED - W.language.tag + W.language.differs,
    );
    expect(scoreMatch(click({ token: 'a' }), launch({ timeZone: 'America/New_York' })).score).toBe(
      AGREED - W.timeZone.same + W.timeZone.differs,
    );
    expect(scoreMatch(click({ token: 'a' }), launch({ language: 'ko' })).score).toBe(
      AGREED - W.language.tag + W.language.primary,
    );
    const other = scoreMatch(
      click({ token: 'a' }),
      launch({ resolution: '1284x2778', language: 'en-us', timeZone: 'America/New_York', osVersion: '16.7' }),
    );
    expect(other.score).toBe(0);
  });
});

describe('chooseMatch', () => {
  it('gives two people behind one carrier IP their own clicks', () => {
    const carrier = '198.51.100.20';
    // Two Android phones of different models and screens, clicked two minutes apart on one NAT address.
    const alice = click({
      token: 'alice',
      ip: carrier,
      os: 'ANDROID',
      osVersion: '14',
      deviceModel: 'SM-S918N',
      resolution: '360x780',
      pixelRatio: 3,
      createdAt: NOW - 5 * 60_000,
    });
    const bob = click({
      token: 'bob',
      ip: carrier,
      os: 'ANDROID',
      osVersion: '13',
      deviceModel: 'Pixel 7',
      resolution: '412x915',
      pixelRatio: 2.625,
      createdAt: NOW - 3 * 60_000,
    });
    const candidates = [alice, bob];

    const aliceLaunch = launch({
      ips: [carrier],
      os: 'ANDROID',
      osVersion: '14',
      deviceModel: 'SM-S918N',
      resolution: '1080x2340',
    });
    const bobLaunch = launch({
      ips: [carrier],
      os: 'ANDROID',
      osVersion: '13',
      deviceModel: 'Pixel 7',
      resolution: '412x915',
    });

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
    const bestScore = AGREED - W.ip.same + W.ip.other;
    expect(far).toMatchObject({ matched: false, reason: 'below_threshold', bestScore });
    expect(bestScore).toBeLessThan(MATCH_THRESHOLD);
    expect(chooseMatch([])).toMatchObject({ matched: false, reason: 'no_candidate' });
    expect(chooseMatch(rankCandidates(launch({ os: 'ANDROID' }), [click({ token: 'a' })]))).toMatchObject({
      matched: false,
      reason: 'os_mismatch',
    });
  });
});

describe("a click alone at the launch's address", () => {
  const late = NOW - 90 * 60_000;
  const lateScore = AGREED - W.age.fresh + W.age.hours;

  it('matches under the threshold, judged without its age, when no other click of this phone kind came from there', () => {
    expect(lateScore).toBeLessThan(MATCH_THRESHOLD);
    expect(lateScore - W.age.hours).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
    const alone = chooseMatch(rankCandidates(launch(), [click({ token: 'late', createdAt: late })]));
    expect(alone).toMatchObject({
      matched: true,
      best: { score: lateScore, atAddress: true, ageless: clamp(lateScore - W.age.hours) },
      runnersUp: [],
    });
    // Another address in the same IPv6 /64 (a rotated temporary address) is the same household.
    const v6 = chooseMatch(
      rankCandidates(launch({ ips: ['2001:db8:1:2:aaaa::1'] }), [
        click({ token: 'v6', ip: '2001:db8:1:2:bbbb::2', createdAt: late }),
      ]),
    );
    expect(v6.matched && v6.best.candidate.token).toBe('v6');
    // A click of another model there is no competitor: it is ruled out.
    const galaxy = {
      os: 'ANDROID' as const,
      osVersion: '14',
      deviceModel: 'SM-S928N',
      resolution: '384x832',
      pixelRatio: 3.75,
    };
    const withOther = chooseMatch(
      rankCandidates(launch({ ...galaxy, resolution: '1440x3120' }), [
        click({ token: 'mine', ...galaxy, createdAt: late }),
        click({ token: 'other', ...galaxy, deviceModel: 'SM-A356N', createdAt: NOW - 5 * 60_000 }),
      ]),
    );
    expect(withOther.matched && withOther.best.candidate.token).toBe('mine');
  });

  it("does not when two clicks there could be the launch's, nor with a contradiction, nor from another network", () => {
    const two = chooseMatch(
      rankCandidates(launch(), [
        click({ token: 'a', createdAt: late }),
        click({ token: 'b', createdAt: late - 60_000 }),
      ]),
    );
    expect(two).toMatchObject({ matched: false, reason: 'below_threshold', bestScore: lateScore });
    // Another language (−40) even on a fresh click: still under the threshold without its age.
    const contradicted = chooseMatch(
      rankCandidates(launch(), [click({ token: 'en', language: 'en-us', createdAt: NOW - 5 * 60_000 })]),
    );
    expect(contradicted).toMatchObject({
      matched: false,
      reason: 'below_threshold',
      bestScore: AGREED - W.language.tag + W.language.differs,
    });
    // The same /24 of a carrier is not the launch's address: alone there proves nothing.
    const network = chooseMatch(rankCandidates(launch({ ips: ['203.0.113.99'] }), [click({ token: 'net' })]));
    expect(network).toMatchObject({
      matched: false,
      reason: 'below_threshold',
      bestScore: AGREED - W.ip.same + W.ip.network,
    });
  });
});

describe('age of the click', () => {
  it('weighs a click hours before the launch less, so a fresher equal one wins', () => {
    const launchedAt = NOW;
    const recent = scoreMatch(click({ token: 'a', createdAt: NOW - 20 * 60_000 }), launch({ launchedAt }));
    const hours = scoreMatch(click({ token: 'b', createdAt: NOW - 3 * 3_600_000 }), launch({ launchedAt }));
    const day = scoreMatch(click({ token: 'c', createdAt: NOW - 20 * 3_600_000 }), launch({ launchedAt }));
    expect([recent.score, hours.score, day.score]).toEqual([
      clamp(AGREED),
      AGREED - W.age.fresh + W.age.hours,
      AGREED - W.age.fresh + W.age.old,
    ]);
    expect(recent.score).toBeGreaterThan(hours.score);
  });
});

describe('launchSignals', () => {
  it("reads the app's report: both addresses, OS version over the user agent's, the screen and language normalised", () => {
    const s = launchSignals({
      appId: 1,
      platform: 'ANDROID',
      userAgent:
        'Mozilla/5.0 (Linux; Android 14; SM-S918N Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0 Mobile Safari/537.36',
      ipAddress: '::ffff:198.51.100.20',
      requestIp: '10.0.0.9',
      resolution: '2340x1080',
      osVersion: '14.0',
      language: 'ko_KR',
    });
    expect(s).toMatchObject({
      ips: ['198.51.100.20', '10.0.0.9'],
      ipPrefixes: ['198.51.100.0/24', '10.0.0.0/24'],
      os: 'ANDROID',
      osVersion: '14',
      deviceModel: 'SM-S918N',
      resolution: '1080x2340',
      language: 'ko-kr',
      timeZone: null,
    });
  });
});

describe('client hints', () => {
  const REDUCED =
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

  it("reads a header's structured-field string and a page's bare value alike; empty is none", () => {
    expect(clientHintValue('"SM-S928N"')).toBe('SM-S928N');
    expect(clientHintValue('SM-S928N')).toBe('SM-S928N');
    expect(clientHintValue('"Pixel \\"8\\""')).toBe('Pixel "8"');
    expect([
      clientHintValue('""'),
      clientHintValue(''),
      clientHintValue(undefined),
      clientHintValue(['"14.0.0"']),
    ]).toEqual([null, null, null, '14.0.0']);
  });

  it('give a reduced Android user agent its model and full version back', () => {
    expect(agentSignals(REDUCED)).toEqual({ os: 'ANDROID', osVersion: null, deviceModel: null });
    expect(withClientHints(agentSignals(REDUCED), { model: '"SM-S928N"', platformVersion: '"14.0.0"' })).toEqual({
      os: 'ANDROID',
      osVersion: '14',
      deviceModel: 'SM-S928N',
    });
    // Chromium sends an empty model for a device that has none to tell (and `K` is nobody's model).
    expect(withClientHints(agentSignals(REDUCED), { model: '""', platformVersion: '"15.0.0"' })).toEqual({
      os: 'ANDROID',
      osVersion: '15',
      deviceModel: null,
    });
    expect(withClientHints(agentSignals(REDUCED), { model: 'K' }).deviceModel).toBeNull();
  });

  it('never override what the user agent says, and say nothing of an iPhone', () => {
    const full = agentSignals(
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0 Mobile Safari/537.36',
    );
    expect(withClientHints(full, { model: 'SM-S928N', platformVersion: '15.0.0' })).toEqual({
      os: 'ANDROID',
      osVersion: '14',
      deviceModel: 'Pixel 8',
    });
    const iphone = agentSignals(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    );
    expect(withClientHints(iphone, { model: 'SM-S928N', platformVersion: '14.0.0' })).toEqual(iphone);
  });

  it("let a reduced-agent click score its model and version against the app's Build.MODEL and release", () => {
    const agent = withClientHints(agentSignals(REDUCED), { model: 'SM-S928N', platformVersion: '14.0.0' });
    const hinted = click({
      token: 'h',
      os: 'ANDROID',
      osVersion: agent.osVersion,
      deviceModel: agent.deviceModel,
      resolution: '384x832',
      pixelRatio: 3.75,
    });
    const bare = click({
      token: 'b',
      os: 'ANDROID',
      osVersion: null,
      deviceModel: null,
      resolution: '384x832',
      pixelRatio: 3.75,
    });
    // From another network, so the sum stays under the 100 it is clamped to.
    const app = launch({
      ips: ['198.51.100.9'],
      os: 'ANDROID',
      osVersion: '14',
      deviceModel: 'SM-S928N',
      resolution: '1440x3120',
    });
    expect(scoreMatch(hinted, app).signals).toEqual(expect.arrayContaining(['deviceModel', 'osVersion']));
    const others = W.ip.other + W.os.same + W.resolution.same + W.language.tag + W.timeZone.same + W.age.fresh;
    expect(scoreMatch(hinted, app).score).toBe(others + W.deviceModel.same + W.osVersion.same);
    expect(scoreMatch(bare, app).score).toBe(Math.max(0, others));
    // Another phone behind the same address is ruled out now that the click knows its model.
    expect(scoreMatch(hinted, { ...app, deviceModel: 'SM-A356N' }).disqualified).toBe('device_mismatch');
  });
});
