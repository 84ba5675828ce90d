// The CSV import wizard as a person uses it: the file's columns and first rows before anything is
// sent, the file sent as it is, and the rows the server refused listed with their reason.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CsvImport } from '../src/components/CsvImport';
import { renderConsole, serveApi } from './render';

const csv = [
  'originalUrl,customAlias,tags,owner',
  'https://example.com/a,promo-a,spring|vip,kim',
  '"https://example.com/b?x=1,2",promo-b,,lee',
  'not a url,promo-c,,park',
].join('\n');

describe('csv import wizard', () => {
  it('previews the columns and rows, sends the file, and lists each refused row', async () => {
    const sent = serveApi({
      'POST /organizations/1/urls/import': {
        status: 200,
        body: { created: 2, failed: 1, errors: [{ row: 3, message: 'url: must start with https://' }] },
      },
    });
    const notify = vi.fn();
    const { container } = renderConsole(<CsvImport orgId={1} notify={notify} onClose={() => {}} />);
    const user = userEvent.setup();
    const input = container.ownerDocument.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File([csv], 'links.csv', { type: 'text/csv' }));
    const columns = await screen.findByTestId('csv-columns');
    expect(
      within(columns)
        .getAllByText(/originalUrl|customAlias|tags|owner/)
        .map((b) => b.textContent),
    ).toEqual(['originalUrl', 'customAlias', 'tags', 'owner']);
    expect(screen.getByText('데이터 3줄')).toBeTruthy();
    const preview = screen.getByTestId('csv-preview');
    expect(within(preview).getByText('https://example.com/b?x=1,2')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '가져오기' }));
    await waitFor(() => expect(sent.find((r) => r.method === 'POST')?.body).toBe(csv));
    const errors = await screen.findByTestId('csv-errors');
    expect(within(errors).getByText('url: must start with https://')).toBeTruthy();
    expect(within(errors).getByText('3')).toBeTruthy();
    expect(notify).toHaveBeenCalledWith({ ok: false, text: '2개를 만들었고 1개는 실패했습니다.' });
    expect(screen.getByRole('button', { name: '오류를 CSV로 내려받기' })).toBeTruthy();
  });

  it('refuses a file without an address column before sending it', async () => {
    const sent = serveApi({});
    const { container } = renderConsole(<CsvImport orgId={1} notify={() => {}} onClose={() => {}} />);
    const user = userEvent.setup();
    const input = container.ownerDocument.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File(['title,tags\nA,b\n'], 'bad.csv', { type: 'text/csv' }));
    expect((await screen.findByRole('alert')).textContent).toContain('주소 열');
    expect(screen.getByRole('button', { name: '가져오기' }).matches(':disabled')).toBe(true);
    expect(sent).toEqual([]);
  });
});
