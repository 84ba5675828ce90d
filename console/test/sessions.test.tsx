// The sessions screen: each session's device in words, its address and this one marked; ending
// another sends its id and reloads the list, ending this one signs out. An owner sees and ends a
// member's sessions from the members screen.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ConsoleSession, Membership } from '../src/api';
import Members from '../src/pages/Members';
import Sessions from '../src/pages/Sessions';
import { renderConsole, serveApi } from './render';

const laptop: ConsoleSession = {
  id: 7,
  device: { browser: 'Chrome', os: 'Mac OS', type: 'Desktop' },
  ip: '203.0.113.5',
  method: 'email',
  createdAt: '2026-11-20T09:00:00Z',
  lastSeenAt: '2026-11-27T09:00:00Z',
  current: true,
};
const phone: ConsoleSession = {
  ...laptop,
  id: 8,
  device: { browser: 'Mobile Safari', os: 'iOS', type: 'Mobile' },
  ip: '198.51.100.23',
  current: false,
};

describe('sessions screen', () => {
  it('names each device, marks this session, and ends another one', async () => {
    let listed = [laptop, phone];
    const sent = serveApi({
      'GET /me/sessions': () => ({ status: 200, body: listed }),
      'DELETE /me/sessions/8': () => {
        listed = [laptop];
        return { status: 204 };
      },
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const signedOut = vi.fn();
    renderConsole(<Sessions onSignedOut={signedOut} />);
    const mine = (await screen.findByText(/macOS의 Chrome \(컴퓨터\)/)).closest('tr')!;
    expect(mine.textContent).toContain('현재 세션');
    expect(mine.textContent).toContain('203.0.113.5');
    const other = screen.getByText(/iOS의 Mobile Safari \(휴대폰\)/).closest('tr')!;
    expect(other.textContent).not.toContain('현재 세션');
    await userEvent.click(screen.getByRole('button', { name: '종료: iOS의 Mobile Safari (휴대폰), 198.51.100.23' }));
    expect(await screen.findByText('세션을 종료했습니다.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(/Mobile Safari/)).toBeNull());
    expect(sent.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/me/sessions/8']);
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('signs out after ending this session; a failed list says so with a retry', async () => {
    serveApi({
      'GET /me/sessions': { status: 200, body: [laptop] },
      'DELETE /me/sessions/7': { status: 204 },
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const signedOut = vi.fn();
    renderConsole(<Sessions onSignedOut={signedOut} />);
    await userEvent.click(await screen.findByRole('button', { name: /^종료: macOS의 Chrome/ }));
    await waitFor(() => expect(signedOut).toHaveBeenCalledOnce());
  });

  it('shows the error and a retry when the list cannot load', async () => {
    serveApi({ 'GET /me/sessions': { status: 500, body: { status: 500, message: 'broken' } } });
    renderConsole(<Sessions onSignedOut={() => {}} />);
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('button', { name: '다시 시도' })).toBeTruthy();
  });
});

describe("members screen: ending a member's sessions", () => {
  const owner: Membership = {
    organizationId: 1,
    organizationName: 'Acme',
    plan: 'PRO',
    role: 'owner',
    permissions: ['members.read', 'members.manage', 'sessions.manage'],
  };
  const member = (id: number, email: string, role: Membership['role']) => ({
    id,
    email,
    name: null,
    role,
    joinedAt: '2026-11-01T00:00:00Z',
    lastLoginAt: null,
  });

  it('lets an owner end them (never their own here); others see the button disabled', async () => {
    const sent = serveApi({
      'GET /organizations/1/members': {
        status: 200,
        body: [member(1, 'owner@example.com', 'owner'), member(2, 'dev@example.com', 'developer')],
      },
      'DELETE /organizations/1/members/2/sessions': { status: 200, body: { ended: 3 } },
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { unmount } = renderConsole(<Members membership={owner} userId={1} />);
    const own = await screen.findByRole('button', { name: '로그아웃: owner@example.com' }, { timeout: 5_000 });
    expect(own.hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: '로그아웃: dev@example.com' }));
    expect(
      await screen.findByText(/dev@example.com 님을 모든 기기에서 로그아웃했습니다\(종료한 세션 3개\)/),
    ).toBeTruthy();
    expect(sent.some((r) => r.method === 'DELETE' && r.path === '/organizations/1/members/2/sessions')).toBe(true);
    unmount();

    renderConsole(
      <Members membership={{ ...owner, role: 'admin', permissions: ['members.read', 'members.manage'] }} userId={1} />,
    );
    expect((await screen.findByRole('button', { name: '로그아웃: dev@example.com' })).hasAttribute('disabled')).toBe(
      true,
    );
    expect(screen.getByRole('button', { name: '세션: dev@example.com' }).hasAttribute('disabled')).toBe(true);
  });

  it("shows an owner a member's sessions: device, address and last use; and ends them all there", async () => {
    let ended = false;
    const sent = serveApi({
      'GET /organizations/1/members': {
        status: 200,
        body: [member(1, 'owner@example.com', 'owner'), member(2, 'dev@example.com', 'developer')],
      },
      'GET /organizations/1/members/2/sessions': () => ({
        status: 200,
        body: ended ? [] : [{ ...phone, current: false }],
      }),
      'DELETE /organizations/1/members/2/sessions': () => {
        ended = true;
        return { status: 200, body: { ended: 1 } };
      },
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderConsole(<Members membership={owner} userId={1} />);
    await userEvent.click(await screen.findByRole('button', { name: '세션: dev@example.com' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'dev@example.com 님의 콘솔 세션' });
    await waitFor(() => expect(dialog.textContent).toContain('198.51.100.23'));
    expect(dialog.textContent).toContain('Mobile Safari');
    expect(dialog.textContent).toContain('iOS');
    await userEvent.click(within(dialog).getByRole('button', { name: '모든 세션 종료' }));
    await waitFor(() => expect(dialog.textContent).toContain('로그인한 곳이 없습니다.'));
    expect(sent.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/organizations/1/members/2/sessions',
    ]);
    expect(within(dialog).getByRole('button', { name: '모든 세션 종료' }).hasAttribute('disabled')).toBe(true);
  });
});
