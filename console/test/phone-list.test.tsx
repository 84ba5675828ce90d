// The links list on a phone: each link a card headed by its address, the destination and the
// figures as terms and values, the row's buttons, and the checkboxes selecting a link or the page.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Links from '../src/pages/Links';
import { developer, shortUrl } from './fixtures';
import { renderConsole, serveApi } from './render';

const links = [
  shortUrl('one', { id: 1, originalUrl: `https://example.com/${'long-path/'.repeat(20)}`, clickCount: 1234 }),
  shortUrl('two', { id: 2 }),
];

describe('lists at phone width', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows each link as a card whose checkboxes still select it', async () => {
    const matchMedia = window.matchMedia;
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({
      ...matchMedia(query),
      matches: query === '(max-width: 36em)',
    }));
    serveApi({
      'GET /organizations/1/urls': {
        status: 200,
        body: { content: links, page: 0, size: 20, totalElements: 2, totalPages: 1 },
      },
      'GET /organizations/1/tags': { status: 200, body: { items: [] } },
    });
    renderConsole(<Links membership={developer} />);
    const user = userEvent.setup();
    const card = (await screen.findByText('http://localhost:8080/one')).closest('li')!;
    expect(screen.queryByRole('table')).toBeNull();
    const terms = within(card)
      .getAllByRole('term')
      .map((term) => `${term.textContent}=${term.nextElementSibling?.textContent}`);
    expect(terms).toContain(`원본 URL=${links[0]!.originalUrl}`);
    expect(terms).toContain('클릭=1,234');
    expect(within(card).getByRole('button', { name: '편집: http://localhost:8080/one' })).toBeTruthy();
    await user.click(within(card).getByRole('checkbox', { name: '선택: http://localhost:8080/one' }));
    expect(within(screen.getByTestId('bulk-bar')).getByText('1개 선택됨')).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: '이 페이지 모두 선택' }));
    expect(within(screen.getByTestId('bulk-bar')).getByText('2개 선택됨')).toBeTruthy();
  });
});
