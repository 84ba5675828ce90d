// The developer screens' own rules: the platform snippets carry the app's values, the audit
// filters become the server's query, and the webhook screen shows the secret once, after the save
// that made it, and a role without webhooks.manage an explanation instead of a form; the API keys
// screen shows each key's scopes and expiry and issues keys with the scopes ticked, expiring.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Membership, MobileApp } from '../src/api';
import { setupSnippets } from '../src/pages/Apps';
import { auditQuery } from '../src/pages/AuditLog';
import ApiKeys from '../src/pages/ApiKeys';
import Webhooks from '../src/pages/Webhooks';
import { analyst } from './fixtures';
import { renderConsole, serveApi } from './render';

const app = (platform: MobileApp['platform']): MobileApp => ({
  id: 12,
  appName: 'Shop',
  platform,
  bundleId: 'com.shop',
  path: 'shop-x1',
  apiKey: 'spm_key',
  scheme: null,
  appIconUrl: null,
  teamId: null,
  storeUrl: null,
  sha256CertFingerprints: [],
  deepLinkTokenTtlSeconds: 3600,
  clipboardMatch: false,
  identityVerification: false,
  identitySecretIssuedAt: null,
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
});

describe('app set-up snippets', () => {
  it('name the service host and the app path, id and key', () => {
    const [links, http] = setupSnippets(app('ANDROID'), 'https://go.example.com');
    expect(links!.code).toContain('android:host="go.example.com" android:pathPrefix="/shop-x1/"');
    expect(http!.code).toContain("-H 'X-App-ID: 12' -H 'X-Mobile-App-API-Key: spm_key'");
    expect(http!.code).toContain('https://go.example.com/api/v1/sdk/mobile/deeplink/resolve-fingerprint');
    expect(setupSnippets(app('IOS'), 'https://go.example.com:8443')[0]!.code).toBe('applinks:go.example.com:8443');
  });
});

describe('audit filters', () => {
  it('send the action, the actor and whole local days as instants', () => {
    const query = new URLSearchParams(
      auditQuery({ action: 'member.added', actorUserId: '3', fromDay: '2026-11-01', toDay: '2026-11-02' }, 99),
    );
    expect(query.get('action')).toBe('member.added');
    expect(query.get('actorUserId')).toBe('3');
    expect(query.get('before')).toBe('99');
    expect(query.get('from')).toBe(new Date(2026, 10, 1).toISOString());
    expect(query.get('to')).toBe(new Date(2026, 10, 3).toISOString());
    expect([
      ...new URLSearchParams(auditQuery({ action: null, actorUserId: null, fromDay: '', toDay: '' })).keys(),
    ]).toEqual(['limit']);
  });
});

const developer: Membership = {
  organizationId: 1,
  organizationName: 'Acme',
  plan: 'PRO',
  role: 'developer',
  permissions: ['webhooks.manage'],
};
const endpoint = {
  url: 'https://hooks.example.com/in',
  events: ['click', 'goal'],
  enabled: true,
  secretRotation: false,
  previousSecretValidUntil: null,
  consecutiveFailures: 0,
  disabledAt: null,
  disabledReason: null,
  updatedAt: '2026-11-25T00:00:00Z',
};
const noDeliveries = { content: [], page: 0, size: 20, totalElements: 0, totalPages: 0, first: true, last: true };

describe('webhooks screen', () => {
  it('sets up the endpoint with the categories chosen and shows the new secret once', async () => {
    const sent = serveApi({
      'GET /organizations/1/webhook': { status: 200, body: { endpoint: null } },
      'PUT /organizations/1/webhook': (r) => ({
        status: 201,
        body: { endpoint: { ...endpoint, ...(r.body as object) }, secret: 'whsec_shown_once' },
      }),
      'GET /organizations/1/webhook/deliveries': { status: 200, body: noDeliveries },
    });
    renderConsole(<Webhooks membership={developer} />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/엔드포인트 URL/), 'https://hooks.example.com/in');
    for (const category of ['캠페인', '퍼널', '세션']) await user.click(screen.getByLabelText(category));
    await user.click(screen.getByRole('button', { name: '저장' }));
    expect((await screen.findByTestId('webhook-secret')).textContent).toBe('whsec_shown_once');
    expect(sent.find((r) => r.method === 'PUT')?.body).toEqual({
      url: 'https://hooks.example.com/in',
      events: ['click', 'goal'],
      enabled: true,
    });
    expect(await screen.findByText('전송 기록이 없습니다. 테스트 이벤트를 보내 보세요.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '시크릿 숨기기' }));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).toBeNull());
  });

  it('explains to an analyst who may manage webhooks, and asks the server nothing', async () => {
    const sent = serveApi({});
    renderConsole(<Webhooks membership={analyst} />);
    expect(screen.getByText('웹훅은 개발자 이상의 역할만 관리할 수 있습니다.')).toBeTruthy();
    expect(sent).toEqual([]);
  });
});

describe('API keys screen', () => {
  const keyOf = (id: number, extra: object) => ({
    id,
    name: `key ${id}`,
    prefix: `sp_live_${id}ab`,
    createdAt: '2026-11-01T00:00:00Z',
    lastUsedAt: null,
    scopes: [],
    expiresAt: null,
    ...extra,
  });

  it("shows each key's scopes and expiry, and issues a key with the scopes ticked that expires", async () => {
    const sent = serveApi({
      'GET /organizations/1/api-keys': {
        status: 200,
        body: [
          keyOf(1, {}),
          keyOf(2, { scopes: ['read'], expiresAt: '2020-01-01T00:00:00Z' }),
          keyOf(4, { scopes: ['links:write', 'statistics:read'], lastUsedAt: '2026-11-02T00:00:00Z' }),
        ],
      },
      'GET /organizations/1/ip-allowlist': { status: 200, body: { ips: [] } },
      'POST /organizations/1/api-keys': { status: 201, body: { id: 3, apiKey: 'sp_live_shown_once' } },
    });
    renderConsole(<ApiKeys membership={{ ...developer, permissions: ['keys.manage'] }} />);
    const readOnlyRow = (await screen.findByText('key 2')).closest('tr')!;
    expect(readOnlyRow.textContent).toContain('모두 읽기');
    expect(readOnlyRow.textContent).toContain('만료됨');
    const fullRow = screen.getByText('key 1').closest('tr')!;
    expect(fullRow.textContent).toContain('전체');
    expect(fullRow.textContent).not.toContain('만료됨');
    const scopedRow = screen.getByText('key 4').closest('tr')!;
    expect(scopedRow.textContent).toContain('링크, 태그, 가져오기: 쓰기');
    expect(scopedRow.textContent).toContain('통계 (쓰기: 공개 공유): 읽기');
    expect(scopedRow.textContent).not.toContain('사용 안 함');

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('이름'), 'reports');
    // Ticked in any order, sent in the server's; one ticked and unticked again is not sent.
    await user.click(screen.getByRole('checkbox', { name: '통계 (쓰기: 공개 공유): 읽기' }));
    await user.click(screen.getByRole('checkbox', { name: '링크, 태그, 가져오기: 읽기' }));
    await user.click(screen.getByRole('checkbox', { name: '캠페인: 쓰기' }));
    await user.click(screen.getByRole('checkbox', { name: '캠페인: 쓰기' }));
    await user.click(screen.getByRole('checkbox', { name: '웹훅과 전송 기록: 쓰기' }));
    // Identified users are only read: no write box.
    expect(screen.queryByRole('checkbox', { name: '식별된 사용자: 쓰기' })).toBeNull();
    await user.type(screen.getByLabelText(/만료/), '2031-05-06T07:08');
    await user.click(screen.getByRole('button', { name: '새 키 발급' }));
    expect((await screen.findByTestId('new-api-key')).textContent).toBe('sp_live_shown_once');
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'reports',
      scopes: ['links:read', 'statistics:read', 'webhooks:write'],
      expiresAt: new Date(2031, 4, 6, 7, 8).toISOString(),
    });
    // The form is cleared for the next key: nothing ticked is full access.
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: '통계 (쓰기: 공개 공유): 읽기' }).checked).toBe(
      false,
    );
  });

  it('issues a key that reads everything, and one with full access when nothing is ticked', async () => {
    const sent = serveApi({
      'GET /organizations/1/api-keys': { status: 200, body: [] },
      'GET /organizations/1/ip-allowlist': { status: 200, body: { ips: [] } },
      'POST /organizations/1/api-keys': { status: 201, body: { id: 3, apiKey: 'sp_live_shown_once' } },
    });
    renderConsole(<ApiKeys membership={{ ...developer, permissions: ['keys.manage'] }} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: /모두 읽기/ }));
    await user.click(screen.getByRole('button', { name: '새 키 발급' }));
    await screen.findByTestId('new-api-key');
    await user.click(screen.getByRole('button', { name: '새 키 발급' }));
    await waitFor(() => expect(sent.filter((r) => r.method === 'POST')).toHaveLength(2));
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ scopes: ['read'] }, {}]);
  });
});
