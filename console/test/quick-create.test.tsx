// The quick form above the links list as a person uses it: what they type in each field is what
// the console sends, and the form is empty again once the link is made.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import Links from '../src/pages/Links';
import { developer } from './fixtures';
import { renderConsole, serveApi } from './render';

const noLinks = { content: [], page: 0, size: 20, totalElements: 0, totalPages: 0, first: true, last: true };

describe('links quick form', () => {
  it('sends the destination, title and alias typed, and empties the form after', async () => {
    const sent = serveApi({
      'GET /organizations/1/urls': { status: 200, body: noLinks },
      'POST /organizations/1/urls': (r) => ({
        status: 201,
        body: { id: 5, shortUrl: 'http://localhost:8080/spring-sale', ...(r.body as object) },
      }),
    });
    renderConsole(<Links membership={developer} />);
    const user = userEvent.setup();
    const destination = await screen.findByLabelText(/원본 URL/);
    await user.type(destination, 'https://example.com/spring-sale');
    await user.type(screen.getByLabelText('제목'), 'Spring');
    await user.type(screen.getByLabelText('별칭 (선택)'), 'spring-sale');
    expect((destination as HTMLInputElement).value).toBe('https://example.com/spring-sale');
    await user.click(screen.getByRole('button', { name: '만들기' }));
    await waitFor(() =>
      expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
        url: 'https://example.com/spring-sale',
        title: 'Spring',
        customAlias: 'spring-sale',
      }),
    );
    await waitFor(() => expect((destination as HTMLInputElement).value).toBe(''));
  });
});
