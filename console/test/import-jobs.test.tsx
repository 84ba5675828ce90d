// The import jobs screen as a person uses it: a job started with the service's token (and the
// address of a self-hosted one), its progress read again until it ends, its summary and failed
// links, and the past jobs, each of which opens.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ImportJob } from '../src/api';
import ImportJobs from '../src/pages/ImportJobs';
import { developer } from './fixtures';
import { renderConsole, serveApi } from './render';

const job = (extra: Partial<ImportJob>): ImportJob => ({
  id: 9,
  source: 'shlink',
  url: 'https://s.acme.example',
  status: 'queued',
  total: null,
  imported: 0,
  skipped: 0,
  failed: 0,
  errors: [],
  failure: null,
  createdAt: '2026-11-27T10:00:00Z',
  startedAt: null,
  finishedAt: null,
  ...extra,
});
const empty = { content: [], page: 0, size: 20, totalElements: 0, totalPages: 0, first: true, last: true };

describe('import jobs screen', () => {
  it('starts an import from a self-hosted Shlink, follows it to its summary and its failed links', async () => {
    const states = [
      job({ status: 'running', total: 4, imported: 1, startedAt: '2026-11-27T10:00:01Z' }),
      job({
        status: 'completed',
        total: 4,
        imported: 2,
        skipped: 1,
        failed: 1,
        errors: [{ sourceId: 'abc', message: 'the alias abc is taken' }],
        finishedAt: '2026-11-27T10:00:05Z',
      }),
    ];
    let reads = 0;
    const sent = serveApi({
      'GET /organizations/1/imports': { status: 200, body: empty },
      'POST /organizations/1/imports': { status: 202, body: job({}) },
      'GET /organizations/1/imports/9': () => ({ status: 200, body: states[Math.min(reads++, 1)] }),
    });
    renderConsole(<ImportJobs membership={developer} />);
    const user = userEvent.setup();
    expect(await screen.findByText('아직 가져오기 작업이 없습니다.')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: '서비스' }));
    await user.click(await screen.findByRole('option', { name: 'Shlink' }));
    await user.type(screen.getByLabelText(/API 토큰/, { selector: 'input' }), 'shlink-key');
    await user.type(screen.getByLabelText(/서버 주소/), 'https://s.acme.example');
    await user.click(screen.getByRole('button', { name: '시작' }));
    await waitFor(() =>
      expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
        source: 'shlink',
        token: 'shlink-key',
        url: 'https://s.acme.example',
      }),
    );
    const card = await screen.findByTestId('import-job');
    await waitFor(() => expect(within(card).getByText('진행 중')).toBeTruthy());
    expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    await waitFor(() => expect(within(card).getByText('완료')).toBeTruthy(), { timeout: 4000 });
    expect(card.textContent).toContain('가져옴 2, 건너뜀 1, 실패 1');
    expect(within(card).getByTestId('import-errors').textContent).toBe('abc: the alias abc is taken');
    expect(within(card).queryByRole('button', { name: '취소' })).toBeNull();
  });

  it('lists past jobs and says why one failed', async () => {
    serveApi({
      'GET /organizations/1/imports': {
        status: 200,
        body: {
          ...empty,
          totalElements: 1,
          totalPages: 1,
          content: [job({ id: 3, source: 'bitly', url: 'https://api-ssl.bitly.com', status: 'failed' })],
        },
      },
      'GET /organizations/1/imports/3': {
        status: 200,
        body: job({ id: 3, source: 'bitly', status: 'failed', failure: 'Bitly refused the token' }),
      },
    });
    renderConsole(<ImportJobs membership={developer} />);
    const user = userEvent.setup();
    const row = (await screen.findByText('https://api-ssl.bitly.com')).closest('tr')!;
    expect(within(row).getByText('실패')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: '자세히: #3' }));
    expect((await screen.findByRole('alert')).textContent).toBe('작업 실패: Bitly refused the token');
  });
});
