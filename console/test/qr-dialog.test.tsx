// The QR dialog: a preview drawn by the API, downloads in the chosen format, size and colours, and
// on a plan without QR codes the reason in words instead of a broken image.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ShortUrl } from '../src/api';
import { QrDialog } from '../src/components/QrDialog';
import { renderConsole, serveApi } from './render';

const link = { id: 5, shortUrl: 'http://localhost:8080/spring', shortCode: 'spring' } as ShortUrl;
const PNG = 'iVBORw0KGgo=';

describe('QR dialog', () => {
  it('previews the code and downloads it as SVG at the chosen size and colour', async () => {
    const sent = serveApi({
      'GET /organizations/1/urls/5/qr': (r) => ({
        status: 200,
        body: {
          qrCode: r.path.includes('format=svg') ? 'PHN2Zz4=' : PNG,
          format: r.path.includes('format=svg') ? 'svg' : 'png',
          shortUrl: link.shortUrl,
        },
      }),
    });
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderConsole(<QrDialog orgId={1} link={link} onClose={() => {}} />);
    const image = await screen.findByAltText('http://localhost:8080/spring 로 연결되는 QR 코드');
    expect(image.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`);

    const user = userEvent.setup();
    const dark = screen.getByLabelText('전경색');
    await user.clear(dark);
    await user.type(dark, '#112233');
    await user.click(screen.getByRole('button', { name: 'SVG 내려받기' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe('qr-spring.svg');
    expect(clicked[0]!.href).toBe('data:image/svg+xml;base64,PHN2Zz4=');
    const svg = new URLSearchParams(sent.find((r) => r.path.includes('format=svg'))!.path.split('?')[1]);
    expect(svg.get('size')).toBe('512');
    expect(svg.get('darkColor')).toBe('#112233');
  });

  it("says which plan has QR codes when the organization's plan has none", async () => {
    serveApi({
      'GET /organizations/1/urls/5/qr': {
        status: 403,
        body: {
          status: 403,
          error: 'Forbidden',
          message: 'QR codes need the PRO plan or above',
          code: 'PLAN_UPGRADE_REQUIRED',
        },
      },
    });
    renderConsole(<QrDialog orgId={1} link={link} onClose={() => {}} />);
    expect((await screen.findByRole('alert')).textContent).toContain('QR 코드는 PRO 요금제 이상에서 쓸 수 있습니다.');
    expect(screen.queryByRole('button', { name: 'PNG 내려받기' })).toBeNull();
  });
});
