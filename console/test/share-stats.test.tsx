// Sharing a short URL's statistics from its dashboard: the address shown once with a copy button,
// and stopping the share.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ShareStats } from '../src/dashboard/ShareStats';
import { renderConsole, serveApi } from './render';

const SHARE_URL = 'http://localhost:8080/console/shared/abc';

describe('share statistics', () => {
  it('shows the new address once made, and stops sharing', async () => {
    const sent = serveApi({
      'POST /organizations/1/urls/5/share': { status: 201, body: { shareUrl: SHARE_URL } },
      'DELETE /organizations/1/urls/5/share': { status: 204 },
    });
    renderConsole(<ShareStats orgId={1} urlId={5} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '통계 공유' }));
    expect((await screen.findByTestId('share-url')).textContent).toBe(SHARE_URL);
    expect(screen.getByRole('button', { name: '복사: 공유 통계 주소' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '공유 중지' }));
    await waitFor(() => expect(screen.queryByTestId('share-url')).toBeNull());
    expect(sent.map((r) => r.method)).toEqual(['POST', 'DELETE']);
  });
});
