// The Links list's bulk changes as a person makes them: ticking rows (or the whole page) opens the
// bar, a tag added to the ticked links is one PATCH with their ids, a link the server refused is
// named with its reason, and a bulk delete waits for the undo before anything is sent.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import Campaigns from '../src/pages/Campaigns';
import Links from '../src/pages/Links';
import { analyst, campaign, developer, shortUrl } from './fixtures';
import { renderConsole, serveApi } from './render';

const links = [
  shortUrl('one', { id: 1, tags: ['spring'] }),
  shortUrl('two', { id: 2, clickLimit: 10, remainingClicks: 4 }),
  shortUrl('three', { id: 3 }),
];
const page = { content: links, page: 0, size: 20, totalElements: 3, totalPages: 1 };
const tags = { items: [{ id: 1, name: 'spring', color: '#2f9e44', linkCount: 1, createdAt: '2026-11-01T00:00:00Z' }] };

describe('bulk actions on the links list', () => {
  it('shows tag chips and clicks left, filters by a tag, and keeps the tag in the address', async () => {
    const sent = serveApi({
      'GET /organizations/1/urls': { status: 200, body: page },
      'GET /organizations/1/tags': { status: 200, body: tags },
    });
    renderConsole(<Links membership={developer} />);
    const user = userEvent.setup();
    const row = (await screen.findByText('http://localhost:8080/one')).closest('tr')!;
    expect(within(row).getByTestId('tag-chips').textContent).toBe('spring');
    expect(screen.getByTestId('remaining-clicks').textContent).toBe('남은 클릭 4');
    await user.click(screen.getByRole('combobox', { name: '태그로 거르기' }));
    await user.click(await screen.findByRole('option', { name: 'spring' }));
    await waitFor(() => expect(sent.some((r) => r.path.includes('&tag=spring'))).toBe(true));
    expect(new URLSearchParams(window.location.search).get('tag')).toBe('spring');
    await user.click(screen.getByRole('switch', { name: '보관된 링크만 보기' }));
    await waitFor(() => expect(sent.some((r) => r.path.includes('tag=spring&archived=true'))).toBe(true));
    const exportLink = screen.getByRole('link', { name: 'CSV로 내보내기' });
    expect(exportLink.getAttribute('href')).toBe('/console/api/organizations/1/urls/export?tag=spring&archived=true');
    window.history.replaceState(null, '', '/');
  });

  it('adds a tag to the ticked links in one call, and names the link the server refused', async () => {
    const sent = serveApi({
      'GET /organizations/1/urls': { status: 200, body: page },
      'GET /organizations/1/tags': { status: 200, body: tags },
      'PATCH /organizations/1/urls/bulk': {
        status: 200,
        body: {
          results: [
            { ...links[0], tags: ['spring', 'vip'] },
            { id: 3, error: { status: 403, message: 'not allowed here' } },
          ],
        },
      },
    });
    renderConsole(<Links membership={developer} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: '선택: http://localhost:8080/one' }));
    await user.click(screen.getByRole('checkbox', { name: '선택: http://localhost:8080/three' }));
    const bar = screen.getByTestId('bulk-bar');
    expect(within(bar).getByText('2개 선택됨')).toBeTruthy();
    await user.type(within(bar).getByRole('combobox', { name: '태그' }), 'vip');
    await user.click(within(bar).getByRole('button', { name: '태그 붙이기' }));
    await waitFor(() =>
      expect(sent.find((r) => r.method === 'PATCH')?.body).toEqual({ ids: [1, 3], addTags: ['vip'] }),
    );
    const failures = await screen.findByTestId('bulk-failures');
    expect(failures.textContent).toContain('http://localhost:8080/three: not allowed here');
    expect(screen.getAllByRole('alert')[0]?.textContent).toBe('링크 1개를 바꿨습니다. 1개는 처리하지 못했습니다:');
  });

  it("opens the organization's dashboard for the ticked links, an analyst's too (who changes nothing)", async () => {
    serveApi({
      'GET /organizations/1/urls': { status: 200, body: page },
      'GET /organizations/1/tags': { status: 200, body: tags },
    });
    renderConsole(<Links membership={analyst} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: '선택: http://localhost:8080/three' }));
    await user.click(screen.getByRole('checkbox', { name: '선택: http://localhost:8080/one' }));
    const bar = screen.getByTestId('bulk-bar');
    expect(within(bar).queryByRole('button', { name: '태그 붙이기' })).toBeNull();
    await user.click(within(bar).getByRole('button', { name: '통계 보기' }));
    expect(window.location.pathname).toBe('/console/dashboard');
    expect(new URLSearchParams(window.location.search).get('url')).toBe('3,1');
    window.history.replaceState(null, '', '/');
  });

  it("opens the organization's dashboard for the ticked campaigns, and the bar goes when they are cleared", async () => {
    const campaigns = [campaign('spring', { id: 7 }), campaign('autumn', { id: 9 })];
    serveApi({
      'GET /organizations/1/campaigns': {
        status: 200,
        body: { content: campaigns, page: 0, size: 20, totalElements: 2, totalPages: 1 },
      },
      'GET /organizations/1/tags': { status: 200, body: tags },
    });
    renderConsole(<Campaigns membership={analyst} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: '선택: autumn' }));
    await user.click(screen.getByRole('button', { name: '선택 해제' }));
    expect(screen.queryByTestId('bulk-bar')).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: '이 페이지 모두 선택' }));
    const bar = screen.getByTestId('bulk-bar');
    expect(within(bar).getByText('2개 선택됨')).toBeTruthy();
    await user.click(within(bar).getByRole('button', { name: '통계 보기' }));
    expect(window.location.pathname).toBe('/console/dashboard');
    expect(new URLSearchParams(window.location.search).get('campaign')).toBe('7,9');
    window.history.replaceState(null, '', '/');
  });

  it('selects the whole page, archives it, and deletes only after the undo has passed', async () => {
    const sent = serveApi({
      'GET /organizations/1/urls': { status: 200, body: page },
      'GET /organizations/1/tags': { status: 200, body: tags },
      'PATCH /organizations/1/urls/bulk': { status: 200, body: { results: links } },
      'DELETE /organizations/1/urls/bulk': (r) => ({
        status: 200,
        body: { results: (r.body as { ids: number[] }).ids.map((id) => ({ id, deleted: true })) },
      }),
    });
    renderConsole(<Links membership={developer} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: '이 페이지 모두 선택' }));
    await user.click(screen.getByRole('button', { name: '보관' }));
    await waitFor(() =>
      expect(sent.find((r) => r.method === 'PATCH')?.body).toEqual({ ids: [1, 2, 3], archived: true }),
    );

    // Deleted, then undone: the rows come back and nothing is sent.
    await user.click(screen.getByRole('button', { name: '삭제' }));
    expect(screen.getByTestId('undo-toast').textContent).toContain('링크 3개를 곧 삭제합니다.');
    expect(screen.queryByText('http://localhost:8080/one')).toBeNull();
    await user.click(screen.getByRole('button', { name: '되돌리기' }));
    expect(screen.getByText('http://localhost:8080/one')).toBeTruthy();
    expect(sent.some((r) => r.method === 'DELETE')).toBe(false);

    // Deleted and left alone: sent once the undo's five seconds have passed, on a fake clock that
    // the test moves on (it also runs with real time, for the rest of the page).
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await user.click(screen.getByRole('checkbox', { name: '선택: http://localhost:8080/two' }));
      await user.click(screen.getByRole('button', { name: '삭제' }));
      await vi.advanceTimersByTimeAsync(1000);
      expect(sent.some((r) => r.method === 'DELETE')).toBe(false);
      await vi.advanceTimersByTimeAsync(4500);
      await waitFor(() => expect(sent.find((r) => r.method === 'DELETE')?.body).toEqual({ ids: [2] }), {
        timeout: 7000,
      });
      await waitFor(() => expect(screen.getByRole('status').textContent).toContain('링크 1개를 삭제했습니다.'));
    } finally {
      vi.useRealTimers();
    }
  }, 20_000);
});
