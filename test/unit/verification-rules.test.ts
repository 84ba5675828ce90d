// The status rules of custom-domain verification, one DNS answer at a time.
import { describe, expect, it } from 'vitest';
import {
  nextVerificationState,
  REVOKE_AFTER_MISSES,
  type VerificationState,
} from '../../src/core/domains/verification-rules.js';

const job = { maxMisses: 4, explicit: false };
const state = (status: VerificationState['status'], failures = 0, recordSeen = false): VerificationState => ({
  status,
  failures,
  recordSeen,
});

describe('nextVerificationState', () => {
  it('verifies a PENDING domain when the record is found, and remembers it was seen', () => {
    expect(nextVerificationState(state('PENDING', 3), 'found', job)).toEqual(state('VERIFIED', 0, true));
  });

  it('fails a PENDING domain on the maxMisses-th consecutive miss, not before', () => {
    let s = state('PENDING');
    for (let i = 1; i < job.maxMisses; i++) {
      s = nextVerificationState(s, 'missing', job);
      expect(s).toEqual(state('PENDING', i));
    }
    expect(nextVerificationState(s, 'missing', job)).toEqual(state('FAILED', job.maxMisses));
  });

  it('counts nothing for an inconclusive answer', () => {
    expect(nextVerificationState(state('PENDING', 3), 'inconclusive', job)).toEqual(state('PENDING', 3));
    expect(nextVerificationState(state('ACTIVE', 2, true), 'inconclusive', job)).toEqual(state('ACTIVE', 2, true));
  });

  it('revokes a VERIFIED or ACTIVE domain whose seen record is missing several times in a row', () => {
    for (const status of ['VERIFIED', 'ACTIVE'] as const) {
      let s = state(status, 0, true);
      for (let i = 1; i < REVOKE_AFTER_MISSES; i++) {
        s = nextVerificationState(s, 'missing', job);
        expect(s.status).toBe(status);
      }
      expect(nextVerificationState(s, 'missing', job).status).toBe('REVOKED');
    }
  });

  it('forgets earlier misses once the record answers again', () => {
    const s = nextVerificationState(state('ACTIVE', REVOKE_AFTER_MISSES - 1, true), 'found', job);
    expect(s).toEqual(state('ACTIVE', 0, true));
    expect(nextVerificationState(s, 'missing', job).status).toBe('ACTIVE');
  });

  it('never revokes a domain whose record was never seen (the operator activated it)', () => {
    expect(nextVerificationState(state('ACTIVE', 50, false), 'missing', job)).toEqual(state('ACTIVE', 51, false));
  });

  it('lets an explicit re-check verify a FAILED domain, but not the background job', () => {
    expect(nextVerificationState(state('FAILED', 4), 'found', job).status).toBe('FAILED');
    expect(nextVerificationState(state('FAILED', 4), 'found', { ...job, explicit: true }).status).toBe('VERIFIED');
  });

  it('leaves REVOKED to the operator', () => {
    expect(nextVerificationState(state('REVOKED', 3, true), 'found', { ...job, explicit: true }).status).toBe(
      'REVOKED',
    );
  });
});
