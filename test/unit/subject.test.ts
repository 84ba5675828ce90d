// NATS-style subject filters (shared by both buses) and the redelivery back-off.
import { describe, expect, it } from 'vitest';
import { backoffMs, subjectMatches } from '../../src/ingest/bus.js';

describe('subjectMatches', () => {
  it('matches a literal subject exactly', () => {
    expect(subjectMatches('events.click', 'events.click')).toBe(true);
    expect(subjectMatches('events.click', 'events.clicks')).toBe(false);
    expect(subjectMatches('events.click', 'events')).toBe(false);
    expect(subjectMatches('events.click', 'events.click.extra')).toBe(false);
    expect(subjectMatches('events', 'events.click')).toBe(false);
  });

  it('lets * stand for exactly one token', () => {
    expect(subjectMatches('events.*', 'events.click')).toBe(true);
    expect(subjectMatches('events.*', 'events')).toBe(false);
    expect(subjectMatches('events.*', 'events.click.web')).toBe(false);
    expect(subjectMatches('*.click', 'events.click')).toBe(true);
    expect(subjectMatches('*.click', 'work.click')).toBe(true);
    expect(subjectMatches('*.click', 'events.view')).toBe(false);
    expect(subjectMatches('events.*.web', 'events.click.web')).toBe(true);
    expect(subjectMatches('events.*.web', 'events.click.ios')).toBe(false);
  });

  it('lets > stand for one or more trailing tokens', () => {
    expect(subjectMatches('events.>', 'events.click')).toBe(true);
    expect(subjectMatches('events.>', 'events.click.web.eu')).toBe(true);
    expect(subjectMatches('events.>', 'events')).toBe(false);
    expect(subjectMatches('events.>', 'work.click')).toBe(false);
    expect(subjectMatches('>', 'anything.at.all')).toBe(true);
    expect(subjectMatches('*.>', 'events.click')).toBe(true);
    expect(subjectMatches('*.>', 'events')).toBe(false);
  });

  it('compares whole tokens, not prefixes', () => {
    expect(subjectMatches('events.click', 'events.clickthrough')).toBe(false);
    expect(subjectMatches('event.>', 'events.click')).toBe(false);
  });
});

describe('backoffMs', () => {
  const samples = (attempt: number, base?: number, cap?: number) =>
    Array.from({ length: 2_000 }, () => backoffMs(attempt, base, cap));

  it('stays between half and all of the doubling ceiling, in whole milliseconds', () => {
    for (const [attempt, ceiling] of [
      [0, 100],
      [1, 200],
      [3, 800],
      [6, 6_400],
    ] as const) {
      const values = samples(attempt);
      for (const v of values) {
        expect(Number.isInteger(v)).toBe(true);
        expect(v).toBeGreaterThanOrEqual(ceiling / 2);
        expect(v).toBeLessThanOrEqual(ceiling);
      }
      // Jitter: not one fixed delay.
      expect(new Set(values).size).toBeGreaterThan(10);
    }
  });

  it('never exceeds the cap, however many attempts failed', () => {
    for (const attempt of [7, 10, 16, 17, 100, 10_000]) {
      for (const v of samples(attempt)) {
        expect(v).toBeGreaterThanOrEqual(5_000);
        expect(v).toBeLessThanOrEqual(10_000);
      }
    }
    for (const v of samples(50, 200, 5_000)) {
      expect(v).toBeGreaterThanOrEqual(2_500);
      expect(v).toBeLessThanOrEqual(5_000);
    }
  });

  it('grows with the attempt number', () => {
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const means = [1, 2, 3, 4, 5, 6].map((attempt) => mean(samples(attempt)));
    for (let i = 1; i < means.length; i++) expect(means[i]!).toBeGreaterThan(means[i - 1]!);
  });
});
