// The Reports screen as a member uses it: their subscriptions listed with the last mailing, a
// weekly report of a tag subscribed to (one POST naming the tag and the browser's zone), one
// cancelled after confirming; in English too; and a role without statistics sees why not.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import type { Membership } from '../src/api';
import Reports from '../src/pages/Reports';
import { developer } from './fixtures';
import { renderConsole, serveApi } from './render';

const member: Membership = { ...developer, permissions: [...developer.permissions, 'statistics.read'] };
const organizationReport = {
  id: 7,
  frequency: 'weekly',
  scope: { type: 'organization', name: 'Acme' },
  timeZone: 'Asia/Seoul',
  lastSentAt: null,
  createdAt: '2026-11-20T00:00:00Z',
};
const tags = { items: [{ id: 3, name: 'spring', color: '#2f9e44', linkCount: 2, createdAt: '2026-11-01T00:00:00Z' }] };

describe('reports by mail', () => {
  it('lists the subscriptions, subscribes to a tag and cancels one', async () => {
    const sent = serveApi({
      'GET /organizations/1/report-subscriptions': { status: 200, body: { items: [organizationReport] } },
      'GET /organizations/1/tags': { status: 200, body: tags },
      'POST /organizations/1/report-subscriptions': (request) => ({
        status: 201,
        body: { ...organizationReport, id: 8, scope: { type: 'tag', id: 3, name: 'spring' }, body: request.body },
      }),
      'DELETE /organizations/1/report-subscriptions/7': { status: 204 },
    });
    renderConsole(<Reports membership={member} />);
    const user = userEvent.setup();
    const row = (await screen.findByRole('cell', { name: '조직 전체' })).closest('tr')!;
    expect(within(row).getByText('주간')).toBeTruthy();
    expect(within(row).getByText('아직 없음')).toBeTruthy();

    await user.click(screen.getByRole('combobox', { name: '대상' }));
    await user.click(await screen.findByRole('option', { name: '태그' }));
    await user.click(await screen.findByRole('combobox', { name: '태그' }));
    await user.click(await screen.findByRole('option', { name: 'spring' }));
    await user.click(screen.getByRole('button', { name: '구독' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST')).toBe(true));
    const post = sent.find((r) => r.method === 'POST')!;
    expect(post.body).toEqual({
      frequency: 'weekly',
      scope: { type: 'tag', id: 3 },
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(await screen.findByText(/spring 주간 보고서를 구독했습니다/)).toBeTruthy();

    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    await user.click(within(row).getByRole('button', { name: '구독 취소: 조직 전체' }));
    expect(confirm).toHaveBeenCalledWith('조직 전체 보고서 구독을 취소할까요?');
    await waitFor(() => expect(sent.some((r) => r.method === 'DELETE' && r.path.endsWith('/7'))).toBe(true));
    confirm.mockRestore();
  });

  it('says in English what the screen is for, and which role may not', async () => {
    await i18next.changeLanguage('en');
    try {
      serveApi({ 'GET /organizations/1/report-subscriptions': { status: 200, body: { items: [] } } });
      const view = renderConsole(<Reports membership={member} />);
      expect(await screen.findByText('You receive no report by mail yet.')).toBeTruthy();
      expect(screen.getByRole('heading', { name: 'Reports by mail' })).toBeTruthy();
      view.unmount();
      renderConsole(<Reports membership={{ ...developer, permissions: [] }} />);
      expect(screen.getByText('Reports by mail need a role that may read statistics.')).toBeTruthy();
    } finally {
      await i18next.changeLanguage('ko');
    }
  });
});
