// A member's list of their console sessions (device, address, last use, this one marked), ending
// one, an owner's list of a member's sessions, the server-side rule that nobody else's session can
// be seen or ended except by an owner of an organization the member belongs to, and the mailed warning before a Service API key expires
// (once, and again by a later round when its mail failed).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleSignIn, type ConsoleSignIn } from './support/console-api.js';
import { expectError } from './support/error-body.js';
import { readOutbox } from './support/outbox.js';
import { serviceForFile } from './support/service.js';

const BASE = 'http://localhost:8080';
const MAC_CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const DAY_MS = 86_400_000;

interface SessionJson {
  id: number;
  device: { browser: string; os: string; type: string } | null;
  ip: string | null;
  method: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

const svc = serviceForFile({ PUBLIC_BASE_URL: BASE });
let orgId: number;
let otherOrgId: number;
const ids: Record<string, number> = {};

const sessionsOf = async (who: ConsoleSignIn): Promise<SessionJson[]> => {
  const res = await who.call('GET', '/me/sessions');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const stillSignedIn = async (who: ConsoleSignIn) =>
  (await svc.inject({ method: 'GET', url: '/console/api/session', headers: { cookie: who.cookie } })).statusCode;

beforeAll(async () => {
  orgId = (await svc.createOrganization('Sessions Org')).id;
  otherOrgId = (await svc.createOrganization('Other Org')).id;
  for (const [org, email, role] of [
    [orgId, 'owner@example.com', 'owner'],
    [orgId, 'admin@example.com', 'admin'],
    [orgId, 'dev@example.com', 'developer'],
    [otherOrgId, 'stranger@example.com', 'owner'],
  ] as const) {
    const added = await svc.admin('POST', `/organizations/${org}/members`, { email, role });
    expect(added.statusCode).toBe(201);
    ids[email] = added.json().id;
  }
});

describe('my console sessions', () => {
  it('lists my sessions with device, address and times, this one marked; the address is sealed at rest', async () => {
    const laptop = await consoleSignIn(svc, BASE, 'dev@example.com', {
      userAgent: MAC_CHROME,
      remoteAddress: '203.0.113.5',
    });
    const phone = await consoleSignIn(svc, BASE, 'dev@example.com', {
      userAgent: IPHONE_SAFARI,
      remoteAddress: '198.51.100.23',
    });
    await consoleSignIn(svc, BASE, 'admin@example.com');
    const list = await sessionsOf(laptop);
    expect(list).toHaveLength(2);
    expect(list.find((s) => s.current)).toMatchObject({
      device: { browser: 'Chrome', os: 'Mac OS', type: 'Desktop' },
      ip: '203.0.113.5',
      method: 'email',
    });
    expect(list.find((s) => !s.current)).toMatchObject({
      device: { browser: 'Mobile Safari', os: 'iOS', type: 'Mobile' },
      ip: '198.51.100.23',
    });
    expect((await sessionsOf(phone)).filter((s) => s.current).map((s) => s.ip)).toEqual(['198.51.100.23']);
    const rows = await svc.container.postgres.sql<{ ip_sealed: string }[]>`
      select ip_sealed from console_sessions where user_id = ${ids['dev@example.com']!}`;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.ip_sealed.includes('203.0.113'))).toBe(false);
  });

  it('ending another of my sessions signs that browser out and is audited; ending this one signs me out', async () => {
    const one = await consoleSignIn(svc, BASE, 'admin@example.com', { userAgent: MAC_CHROME });
    const two = await consoleSignIn(svc, BASE, 'admin@example.com', { userAgent: IPHONE_SAFARI });
    const twoId = (await sessionsOf(two)).find((s) => s.current)!.id;
    expect((await one.call('DELETE', `/me/sessions/${twoId}`)).statusCode).toBe(204);
    expect(await stillSignedIn(two)).toBe(401);
    expect(await stillSignedIn(one)).toBe(200);
    expect((await sessionsOf(one)).map((s) => s.id)).not.toContain(twoId);
    // Gone already: as if it never existed.
    expectError(await one.call('DELETE', `/me/sessions/${twoId}`), 404, { code: 'SESSION_NOT_FOUND' });

    const oneId = (await sessionsOf(one)).find((s) => s.current)!.id;
    const self = await one.call('DELETE', `/me/sessions/${oneId}`);
    expect(self.statusCode).toBe(204);
    expect(String(self.headers['set-cookie'])).toMatch(/^sp_session=; Path=\/;.*Max-Age=0/);
    expect(await stillSignedIn(one)).toBe(401);

    const audited = await svc.container.postgres.sql<{ actor_user_id: number; details: { sessionId: number } }[]>`
      select actor_user_id, details from audit_log where action = 'session.ended' order by id`;
    expect(audited).toEqual([
      { actor_user_id: ids['admin@example.com'], details: { sessionId: twoId } },
      { actor_user_id: ids['admin@example.com'], details: { sessionId: oneId } },
    ]);
  });

  it("never shows or ends another member's session: 404 as for no session, theirs untouched", async () => {
    const mine = await consoleSignIn(svc, BASE, 'dev@example.com');
    const theirs = await consoleSignIn(svc, BASE, 'stranger@example.com');
    const theirId = (await sessionsOf(theirs)).find((s) => s.current)!.id;
    expect((await sessionsOf(mine)).map((s) => s.id)).not.toContain(theirId);
    expectError(await mine.call('DELETE', `/me/sessions/${theirId}`), 404, { code: 'SESSION_NOT_FOUND' });
    expect(await stillSignedIn(theirs)).toBe(200);
    // Bad input is a 400 with the error body, before anything is looked up.
    expectError(await mine.call('DELETE', '/me/sessions/abc'), 400, { code: 'VALIDATION_FAILED' });
    // Without a session: 401.
    expect((await svc.inject({ method: 'GET', url: '/console/api/me/sessions' })).statusCode).toBe(401);
  });

  it('records the last use at most once a minute, not on every call', async () => {
    const me = await consoleSignIn(svc, BASE, 'dev@example.com');
    const { sql } = svc.container.postgres;
    const id = (await sessionsOf(me)).find((s) => s.current)!.id;
    const lastSeen = async () =>
      (await sql<{ last_seen_at: Date }[]>`select last_seen_at from console_sessions where id = ${id}`)[0]!
        .last_seen_at;
    const halfAMinuteAgo = new Date(Date.now() - 30_000);
    await sql`update console_sessions set last_seen_at = ${halfAMinuteAgo} where id = ${id}`;
    await me.call('GET', '/session');
    expect((await lastSeen()).getTime()).toBe(halfAMinuteAgo.getTime());
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await sql`update console_sessions set last_seen_at = ${twoMinutesAgo} where id = ${id}`;
    const listed = (await sessionsOf(me)).find((s) => s.current)!;
    expect(Date.now() - new Date(listed.lastSeenAt).getTime()).toBeLessThan(120_000);
    expect(Date.now() - (await lastSeen()).getTime()).toBeLessThan(10_000);
  });
});

describe("an owner lists a member's sessions", () => {
  it("shows an owner a member's sessions with device, address and last use; no one else", async () => {
    const owner = await consoleSignIn(svc, BASE, 'owner@example.com');
    const admin = await consoleSignIn(svc, BASE, 'admin@example.com');
    const stranger = await consoleSignIn(svc, BASE, 'stranger@example.com');
    await consoleSignIn(svc, BASE, 'admin@example.com', {
      userAgent: IPHONE_SAFARI,
      remoteAddress: '198.51.100.24',
    });
    const adminUrl = `/organizations/${orgId}/members/${ids['admin@example.com']}/sessions`;

    const listed = await owner.call('GET', adminUrl);
    expect(listed.statusCode, listed.body).toBe(200);
    const sessions = listed.json() as SessionJson[];
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    expect(sessions).toContainEqual(
      expect.objectContaining({
        device: { browser: 'Mobile Safari', os: 'iOS', type: 'Mobile' },
        ip: '198.51.100.24',
        method: 'email',
        current: false,
      }),
    );
    // None of them is the owner's own session.
    expect(sessions.every((s) => !s.current)).toBe(true);
    // The owner's own list through the same route marks the session asking.
    const own = (
      await owner.call('GET', `/organizations/${orgId}/members/${ids['owner@example.com']}/sessions`)
    ).json();
    expect(own.filter((s: SessionJson) => s.current)).toHaveLength(1);

    // An admin manages members but not their sessions; another organization's owner sees nothing.
    expectError(await admin.call('GET', adminUrl), 403, { code: 'ROLE_FORBIDDEN' });
    expectError(await stranger.call('GET', adminUrl), 404, { code: 'ORGANIZATION_NOT_FOUND' });
    expectError(
      await stranger.call('GET', `/organizations/${otherOrgId}/members/${ids['admin@example.com']}/sessions`),
      404,
      { code: 'MEMBER_NOT_FOUND' },
    );
  });
});

describe("an owner ends a member's sessions", () => {
  it('ends every session of a member of their organization, audited there; others may not', async () => {
    const owner = await consoleSignIn(svc, BASE, 'owner@example.com');
    const admin = await consoleSignIn(svc, BASE, 'admin@example.com');
    const devA = await consoleSignIn(svc, BASE, 'dev@example.com');
    const devB = await consoleSignIn(svc, BASE, 'dev@example.com');
    const stranger = await consoleSignIn(svc, BASE, 'stranger@example.com');
    const devUrl = `/organizations/${orgId}/members/${ids['dev@example.com']}/sessions`;

    // An admin manages members but not their sessions.
    expectError(await admin.call('DELETE', devUrl), 403, { code: 'ROLE_FORBIDDEN' });
    // An owner of another organization: this one does not exist for them.
    expectError(await stranger.call('DELETE', devUrl), 404, { code: 'ORGANIZATION_NOT_FOUND' });
    // In their own organization, someone who is not a member there.
    expectError(
      await stranger.call('DELETE', `/organizations/${otherOrgId}/members/${ids['dev@example.com']}/sessions`),
      404,
      { code: 'MEMBER_NOT_FOUND' },
    );
    expect(await stillSignedIn(devA)).toBe(200);

    const ended = await owner.call('DELETE', devUrl);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().ended).toBeGreaterThanOrEqual(2);
    expect(ended.headers['set-cookie']).toBeUndefined();
    expect(await stillSignedIn(devA)).toBe(401);
    expect(await stillSignedIn(devB)).toBe(401);
    expect(await stillSignedIn(owner)).toBe(200);

    const log = (await owner.call('GET', `/organizations/${orgId}/audit-log?action=member.sessions_ended`)).json();
    expect(log).toEqual([
      expect.objectContaining({
        actorUserId: ids['owner@example.com'],
        target: `user:${ids['dev@example.com']}`,
        details: { ended: ended.json().ended },
      }),
    ]);
    // The permission reaches the console through the session's memberships.
    const membership = (await owner.call('GET', '/session'))
      .json()
      .memberships.find((m: { organizationId: number }) => m.organizationId === orgId);
    expect(membership.permissions).toContain('sessions.manage');
  });
});

describe('API key expiry warning', () => {
  it('mails the issuer once, in their language, the configured days before; owners when no member issued it', async () => {
    const dev = await consoleSignIn(svc, BASE, 'dev@example.com');
    expect((await dev.call('PUT', '/me/language', { language: 'en' })).statusCode).toBe(204);
    const now = Date.now();
    const issued = await dev.call('POST', `/organizations/${orgId}/api-keys`, {
      name: 'CI deploys',
      expiresAt: new Date(now + 10 * DAY_MS).toISOString(),
    });
    expect(issued.statusCode, issued.body).toBe(201);
    // The operator's key has no issuer among the members: the owners are told.
    const operatorKey = await svc.admin('POST', `/organizations/${orgId}/api-keys`, {
      expiresAt: new Date(now + 3 * DAY_MS).toISOString(),
    });
    expect(operatorKey.statusCode).toBe(201);
    // Neither a deleted key nor one without an expiry is warned of.
    const deleted = await dev.call('POST', `/organizations/${orgId}/api-keys`, {
      expiresAt: new Date(now + 2 * DAY_MS).toISOString(),
    });
    expect((await dev.call('DELETE', `/organizations/${orgId}/api-keys/${deleted.json().id}`)).statusCode).toBe(204);
    await dev.call('POST', `/organizations/${orgId}/api-keys`, { name: 'forever' });

    const before = (await readOutbox(svc)).length;
    // The service's own round may have taken this key already (rounds run one at a time): either way, one mail.
    await svc.container.notifyExpiringApiKeys(new Date(now));
    const first = (await readOutbox(svc)).slice(before);
    expect(first).toEqual([
      expect.objectContaining({ to: 'owner@example.com', subject: expect.stringMatching(/^Signpost API 키 sp_/) }),
    ]);
    expect(first[0]!.text).toContain('Sessions Org');
    expect(first[0]!.text).toContain(`${BASE}/console/api-keys`);

    // Four days on, the developer's key is within seven days of its end.
    expect(await svc.container.notifyExpiringApiKeys(new Date(now + 4 * DAY_MS))).toBe(1);
    const second = (await readOutbox(svc)).slice(before + 1);
    expect(second).toEqual([
      expect.objectContaining({
        to: 'dev@example.com',
        subject: `Your Signpost API key CI deploys (${issued.json().apiKey.slice(0, 12)}…) expires on ${new Date(now + 10 * DAY_MS).toISOString().slice(0, 10)}`,
      }),
    ]);
    // Once per key: later rounds send nothing more.
    expect(await svc.container.notifyExpiringApiKeys(new Date(now + 5 * DAY_MS))).toBe(0);
    expect(await readOutbox(svc)).toHaveLength(before + 2);
  });

  it('a warning whose mail fails is sent by a later round', async () => {
    const other = await svc.createOrganization('Mail Trouble Org');
    await svc.admin('POST', `/organizations/${other.id}/members`, { email: 'trouble@example.com', role: 'owner' });
    const now = Date.now();
    expect(
      (
        await svc.admin('POST', `/organizations/${other.id}/api-keys`, {
          expiresAt: new Date(now + DAY_MS).toISOString(),
        })
      ).statusCode,
    ).toBe(201);
    // A file where the outbox folder should be: writing any mail fails.
    const outboxDir = path.join(svc.config.stores.dataDir, 'outbox');
    const aside = `${outboxDir}-aside`;
    fs.mkdirSync(outboxDir, { recursive: true });
    fs.renameSync(outboxDir, aside);
    fs.writeFileSync(outboxDir, '');
    try {
      expect(await svc.container.notifyExpiringApiKeys(new Date(now))).toBe(0);
    } finally {
      fs.rmSync(outboxDir);
      fs.renameSync(aside, outboxDir);
    }
    await svc.container.notifyExpiringApiKeys(new Date(now));
    expect((await readOutbox(svc)).filter((m) => m.to === 'trouble@example.com')).toHaveLength(1);
  });
});
