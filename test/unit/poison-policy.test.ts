// The poison policy both buses follow, without a bus: each row hands the policy a sequence of
// batches, answers for the handler (a poison message always fails, a store that is down fails
// everything, a waiting handler throws WaitForMore), and lists what the policy has the bus do.
import { describe, expect, it } from 'vitest';
import {
  createPoisonPolicy,
  ISOLATE_AFTER_FAILURES,
  PARK_AFTER_FAILURES,
  type Outcome,
  type PoisonPolicy,
  type Tracked,
} from '../../src/ingest/poison-policy.js';

interface Episode {
  /** The ids handed over together, space-separated. */
  batch: string;
  /** The store refuses everything during this episode, or only the batch (it heals right after). */
  down?: boolean | 'batch';
}

interface Row {
  name: string;
  episodes: Episode[];
  /** Ids the handler always refuses. */
  poison?: string[];
  /** Ids the handler waits on (WaitForMore) whenever they are handed over without `last`. */
  waitFor?: string[];
  /** Failed deliveries of each id before the first episode (default 0). */
  failures?: Record<string, number>;
  expected: string[];
}

/** Plays the episodes against one policy, counting each id's failed deliveries as a bus does. */
function play(row: Row, policy: PoisonPolicy = createPoisonPolicy()): string[] {
  const failures = new Map(Object.entries(row.failures ?? {}));
  const actions: string[] = [];
  for (const episode of row.episodes) {
    let batchDone = false;
    const outcomeOf = (ids: string[]): Outcome => {
      const down = episode.down === true || (episode.down === 'batch' && !batchDone);
      batchDone = true;
      if (down || ids.some((id) => row.poison?.includes(id))) return 'failed';
      if (ids.some((id) => row.waitFor?.includes(id)) && !ids.includes('last')) return 'wait';
      return 'ok';
    };
    const deliver = (ids: string[]): Outcome => {
      const outcome = outcomeOf(ids);
      if (outcome === 'failed') for (const id of ids) failures.set(id, (failures.get(id) ?? 0) + 1);
      return outcome;
    };
    const ids = episode.batch.split(' ');
    const outcome = deliver(ids);
    const batch: Tracked[] = ids.map((id) => ({ id, failures: failures.get(id) ?? 0 }));
    const step = policy.afterBatch(batch, outcome);
    actions.push(`${episode.batch}: ${outcome} → ${step.do}${step.do === 'retry' ? ` after ${step.attempt}` : ''}`);
    if (step.do !== 'isolate') continue;
    const round = policy.isolate(batch, new Error('batch refused'));
    for (let m = round.next(); m; m = round.next()) {
      const alone = deliver([m.id]);
      actions.push(`alone ${m.id}: ${alone}`);
      m.failures = failures.get(m.id) ?? 0;
      round.record(alone, new Error(`refused ${m.id}`));
    }
    const result = round.finish();
    for (const { message, reason } of result.park) {
      actions.push(`park ${message.id}: ${reason}`);
      policy.parked(message.id);
    }
    if (result.retry.length > 0)
      actions.push(
        `retry ${result.retry.map((m) => m.id).join(' ')} after ${result.attempt}${result.pause ? ', pause' : ''}`,
      );
  }
  return actions;
}

const BOTH_FAIL_ALONE = ['alone P: failed', 'alone Q: failed'];

const times = (n: number, episode: Episode): Episode[] => Array.from({ length: n }, () => ({ ...episode }));

describe('poison policy', () => {
  const rows: Row[] = [
    {
      name: 'acknowledges a batch the handler took',
      episodes: [{ batch: 'a b' }],
      expected: ['a b: ok → ack'],
    },
    {
      name: 'holds a batch the handler waits on, as no failure',
      waitFor: ['a'],
      episodes: [{ batch: 'a' }, { batch: 'a last' }],
      expected: ['a: wait → hold', 'a last: ok → ack'],
    },
    {
      name: `delivers a failed batch again with a growing back-off, then isolates it at its ${ISOLATE_AFTER_FAILURES}rd failure`,
      poison: ['P'],
      episodes: times(3, { batch: 'a P b' }),
      expected: [
        'a P b: failed → retry after 1',
        'a P b: failed → retry after 2',
        'a P b: failed → isolate',
        'alone a: ok',
        'alone P: failed',
        'alone b: ok',
        'retry P after 1',
      ],
    },
    {
      name: 'isolates a batch as soon as one of its messages has failed often enough, fresh messages first',
      poison: ['P'],
      failures: { P: 3 },
      episodes: [{ batch: 'P a b' }],
      expected: ['P a b: failed → isolate', 'alone a: ok', 'alone b: ok', 'alone P: failed', 'retry P after 1'],
    },
    {
      name: `parks a message at its ${PARK_AFTER_FAILURES}th solo failure while others succeed, alone or with traffic`,
      poison: ['P'],
      failures: { P: 2 },
      episodes: [{ batch: 'a P' }, { batch: 'P' }, { batch: 'P b' }, { batch: 'P' }, { batch: 'P' }],
      expected: [
        'a P: failed → isolate',
        'alone a: ok',
        'alone P: failed',
        'retry P after 1',
        // A batch of one was just tried alone: its failure is the solo failure.
        'P: failed → isolate',
        'retry P after 1, pause',
        'P b: failed → isolate',
        'alone b: ok',
        'alone P: failed',
        'retry P after 1',
        'P: failed → isolate',
        'retry P after 1, pause',
        'P: failed → isolate',
        'park P: failed 9 deliveries, 5 of them alone while others succeeded: batch refused',
      ],
    },
    {
      name: 'parks two poison messages of one batch once other messages come with them',
      poison: ['P', 'Q'],
      failures: { P: 2, Q: 2, a: 2 },
      episodes: [
        { batch: 'P Q a' },
        { batch: 'P Q a b' },
        { batch: 'P Q a c' },
        { batch: 'P Q d' },
        { batch: 'P Q e' },
        { batch: 'P Q f' },
        { batch: 'P Q g' },
      ],
      expected: [
        'P Q a: failed → isolate',
        ...BOTH_FAIL_ALONE,
        // Two solo failures before any success look like the store being down: nothing is struck.
        'retry P Q a after 1, pause',
        'P Q a b: failed → isolate',
        // A fresh message goes first; its success after that round shows the store is back.
        'alone b: ok',
        'retry P Q a after 0',
        'P Q a c: failed → isolate',
        'alone c: ok',
        'alone a: ok',
        ...BOTH_FAIL_ALONE,
        'retry P Q after 1',
        'P Q d: failed → isolate',
        'alone d: ok',
        ...BOTH_FAIL_ALONE,
        'retry P Q after 1',
        'P Q e: failed → isolate',
        'alone e: ok',
        ...BOTH_FAIL_ALONE,
        'retry P Q after 1',
        'P Q f: failed → isolate',
        'alone f: ok',
        ...BOTH_FAIL_ALONE,
        'retry P Q after 1',
        'P Q g: failed → isolate',
        'alone g: ok',
        ...BOTH_FAIL_ALONE,
        'park P: failed 15 deliveries, 5 of them alone while others succeeded: refused P',
        'park Q: failed 15 deliveries, 5 of them alone while others succeeded: refused Q',
      ],
    },
    {
      name: 'tries the messages behind two suspects at the head of a batch delivered whole, then parks the suspects',
      poison: ['P', 'Q'],
      // a and b have as many failed deliveries as the suspects or more (JetStream counts deliveries
      // of the batch; a message tried alone from it keeps its count).
      failures: { P: 2, Q: 2, a: 4, b: 4 },
      episodes: [...times(2, { batch: 'P Q a b' }), { batch: 'P Q b' }, ...times(4, { batch: 'P Q' })],
      expected: [
        'P Q a b: failed → isolate',
        // Two fresh messages failing alone look like the store being down.
        ...BOTH_FAIL_ALONE,
        'retry P Q a b after 1, pause',
        // The same batch again, one delivery count for all: a goes before the suspects, and its
        // success after that round ends the round (the store is back).
        'P Q a b: failed → isolate',
        'alone a: ok',
        'retry P Q b after 0',
        'P Q b: failed → isolate',
        'alone b: ok',
        ...BOTH_FAIL_ALONE,
        'retry P Q after 1',
        ...[1, 2, 3].flatMap((n) => ['P Q: failed → isolate', ...BOTH_FAIL_ALONE, `retry P Q after ${n}, pause`]),
        'P Q: failed → isolate',
        ...BOTH_FAIL_ALONE,
        'park P: failed 15 deliveries, 5 of them alone while others succeeded: refused P',
        'park Q: failed 15 deliveries, 5 of them alone while others succeeded: refused Q',
      ],
    },
    {
      name: 'parks two poison messages that fail alone between single messages of other traffic',
      poison: ['P', 'Q'],
      failures: { P: 2, Q: 2 },
      episodes: [
        { batch: 'P Q' },
        { batch: 'P Q a' },
        { batch: 'P Q' },
        { batch: 'P Q b' },
        { batch: 'P Q' },
        { batch: 'P Q c' },
        { batch: 'P Q' },
      ],
      expected: [
        'P Q: failed → isolate',
        ...BOTH_FAIL_ALONE,
        'retry P Q after 1, pause',
        'P Q a: failed → isolate',
        'alone a: ok',
        'retry P Q after 0',
        // Failing again alone, they say nothing about the store; a's success says it works.
        'P Q: failed → isolate',
        ...BOTH_FAIL_ALONE,
        'retry P Q after 1, pause',
        'P Q b: failed → isolate',
        'alone b: ok',
        ...BOTH_FAIL_ALONE,
        'retry P Q after 1',
        'P Q: failed → isolate',
        ...BOTH_FAIL_ALONE,
        'retry P Q after 1, pause',
        'P Q c: failed → isolate',
        'alone c: ok',
        ...BOTH_FAIL_ALONE,
        'retry P Q after 1',
        'P Q: failed → isolate',
        ...BOTH_FAIL_ALONE,
        'park P: failed 15 deliveries, 5 of them alone while others succeeded: refused P',
        'park Q: failed 15 deliveries, 5 of them alone while others succeeded: refused Q',
      ],
    },
    {
      name: 'strikes nothing while the store refuses two messages that failed alone before',
      failures: { a: 2, b: 2 },
      episodes: times(4, { batch: 'a b', down: true }),
      expected: [
        'a b: failed → isolate',
        'alone a: failed',
        'alone b: failed',
        'retry a b after 1, pause',
        'a b: failed → isolate',
        'alone a: failed',
        'alone b: failed',
        'retry a b after 2, pause',
        'a b: failed → isolate',
        'alone a: failed',
        'alone b: failed',
        'retry a b after 3, pause',
        'a b: failed → isolate',
        'alone a: failed',
        'alone b: failed',
        'retry a b after 4, pause',
      ],
    },
    {
      name: 'strikes nothing while the store refuses everything, and goes back to batches at its first success after',
      failures: { a: 2, b: 2, c: 2, d: 2 },
      episodes: [
        ...times(2, { batch: 'a b c d', down: true }),
        // The store is back.
        { batch: 'a b c d' },
      ],
      expected: [
        'a b c d: failed → isolate',
        'alone a: failed',
        'alone b: failed',
        'retry a b c d after 1, pause',
        'a b c d: failed → isolate',
        'alone c: failed',
        'alone d: failed',
        'retry a b c d after 2, pause',
        'a b c d: ok → ack',
      ],
    },
    {
      name: 'ends the round at the first solo success after an outage: the rest goes in batches again at once',
      failures: { a: 2, b: 2, c: 2 },
      episodes: [
        { batch: 'a b c', down: true },
        { batch: 'a b c', down: 'batch' },
      ],
      expected: [
        'a b c: failed → isolate',
        'alone a: failed',
        'alone b: failed',
        'retry a b c after 1, pause',
        'a b c: failed → isolate',
        'alone c: ok',
        'retry a b after 0',
      ],
    },
    {
      name: 'does not strike a message that fails alone while nothing has succeeded since it first did',
      poison: ['P'],
      failures: { P: 2 },
      episodes: times(4, { batch: 'P' }),
      expected: [
        'P: failed → isolate',
        'retry P after 1, pause',
        'P: failed → isolate',
        'retry P after 2, pause',
        'P: failed → isolate',
        'retry P after 3, pause',
        'P: failed → isolate',
        'retry P after 4, pause',
      ],
    },
    {
      name: 'counts a message the handler waits on alone as no failure of it',
      waitFor: ['w'],
      poison: ['P'],
      failures: { w: 2, P: 2, a: 2 },
      episodes: [{ batch: 'w P a' }],
      expected: [
        'w P a: failed → isolate',
        'alone w: wait',
        'alone P: failed',
        'alone a: ok',
        // w is handed over again, and a failure of it later counts from nothing.
        'retry w P after 1',
      ],
    },
  ];

  it.each(rows)('$name', (row) => {
    expect(play(row)).toEqual(row.expected);
  });

  it('holds nothing against a message for failures before the store came back, then parks it after five more', () => {
    const policy = createPoisonPolicy();
    // An outage: lone messages fail, none succeeds.
    play(
      { name: 'outage', poison: ['P'], failures: { P: 2 }, episodes: times(8, { batch: 'P' }), expected: [] },
      policy,
    );
    // The store is back for everything but P: each success is evidence, each failure of P a strike.
    const after = play(
      {
        name: 'healed',
        poison: ['P'],
        failures: { P: 10 },
        episodes: [1, 2, 3, 4, 5].flatMap((i) => [{ batch: `g${i}` }, { batch: 'P' }]),
        expected: [],
      },
      policy,
    );
    expect(after.filter((a) => a.startsWith('park'))).toEqual([
      'park P: failed 15 deliveries, 5 of them alone while others succeeded: batch refused',
    ]);
    expect(after.at(-1)).toMatch(/^park P/);
  });

  it('takes a success from before an outage as no evidence during it', () => {
    const policy = createPoisonPolicy();
    const actions = play(
      {
        name: 'stale',
        failures: { b: 2, c: 2 },
        episodes: [
          { batch: 'a' },
          { batch: 'b c', down: true },
          ...times(PARK_AFTER_FAILURES + 1, { batch: 'b', down: true }),
        ],
        expected: [],
      },
      policy,
    );
    expect(actions.filter((a) => a.startsWith('park'))).toEqual([]);
  });
});
