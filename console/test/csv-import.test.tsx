// The CSV import wizard as a person uses it: the file's columns and first rows before anything is
// sent, the file sent as it is, and the rows the server refused listed with their reason; a file
// over 10,000 rows sent as a background job and followed with its progress and refused rows.
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

  it('sends a file of more than 10,000 rows as a background job and follows it', async () => {
    const big = ['url', ...Array.from({ length: 10_001 }, (_, i) => `https://example.com/${i}`)].join('\n');
    const job = {
      id: 4,
      source: 'csv',
      url: 'big.csv',
      total: 10_001,
      skipped: 0,
      failure: null,
      createdAt: '2026-11-27T10:00:00Z',
      startedAt: '2026-11-27T10:00:01Z',
    };
    const done = {
      ...job,
      status: 'completed',
      imported: 10_000,
      failed: 1,
      errors: [{ sourceId: 'x:7', row: 7, message: 'the destination is refused' }],
      finishedAt: '2026-11-27T10:00:09Z',
    };
    const sent = serveApi({
      'POST /organizations/1/imports/csv': {
        status: 202,
        body: { ...job, status: 'queued', imported: 0, failed: 0, errors: [], startedAt: null, finishedAt: null },
      },
      'GET /organizations/1/imports/4': { status: 200, body: done },
    });
    const notify = vi.fn();
    const { container } = renderConsole(<CsvImport orgId={1} notify={notify} onClose={() => {}} />);
    const user = userEvent.setup();
    const input = container.ownerDocument.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File([big], 'big.csv', { type: 'text/csv' }));
    expect((await screen.findByTestId('csv-as-job')).textContent).toContain('10,000줄이 넘습니다');
    await user.click(screen.getByRole('button', { name: '백그라운드로 가져오기' }));
    await waitFor(() => {
      const post = sent.find((r) => r.method === 'POST');
      expect(post?.path).toBe('/organizations/1/imports/csv?fileName=big.csv');
      expect(post?.body).toBe(big);
    });
    const card = await screen.findByTestId('import-job');
    await waitFor(() => expect(within(card).getByText('10001 / 10001', { exact: false })).toBeTruthy());
    expect(within(card).getByText(/7번째 줄: the destination is refused/)).toBeTruthy();
    expect(notify).toHaveBeenCalledWith({ ok: true, text: '백그라운드 가져오기를 시작했습니다.' });
  });
});
