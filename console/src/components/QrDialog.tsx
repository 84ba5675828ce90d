// A short URL's QR code: a preview with its colours and size, and downloads as PNG and SVG made
// by the same API call the Service API answers. Plans without QR codes get the server's refusal,
// worded for a person, instead of a broken image.
import { Alert, Button, ColorInput, Group, Image, Modal, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, type ShortUrl } from '../api';
import { QueryStatus } from './QueryStatus';

interface QrAnswer {
  qrCode: string;
  format: 'png' | 'svg';
}

const HEX = /^#[0-9a-fA-F]{6}$/;
const SIZES = ['256', '512', '1024', '2048'];

function qrPath(
  orgId: number,
  linkId: number,
  options: { format: 'png' | 'svg'; size: number; dark: string; light: string },
): string {
  const query = new URLSearchParams({
    format: options.format,
    size: String(options.size),
    darkColor: options.dark,
    lightColor: options.light,
    errorCorrectionLevel: 'M',
  });
  return `/organizations/${orgId}/urls/${linkId}/qr?${query}`;
}

const dataUrl = (answer: QrAnswer) =>
  `data:image/${answer.format === 'svg' ? 'svg+xml' : 'png'};base64,${answer.qrCode}`;

export function QrDialog({
  orgId,
  link,
  onClose,
}: {
  orgId: number;
  link: Pick<ShortUrl, 'id' | 'shortUrl' | 'shortCode'>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [dark, setDark] = useState('#000000');
  const [light, setLight] = useState('#ffffff');
  const [size, setSize] = useState('512');
  // Downloads take the colours as they are; the preview follows them once typing pauses.
  const options = {
    size: Number(size),
    dark: HEX.test(dark) ? dark : '#000000',
    light: HEX.test(light) ? light : '#ffffff',
  };
  const [previewed] = useDebouncedValue({ dark: options.dark, light: options.light }, 250);
  const preview = useQuery({
    queryKey: ['org', orgId, 'qr', link.id, previewed],
    queryFn: () => api<QrAnswer>('GET', qrPath(orgId, link.id, { format: 'png', size: 256, ...previewed })),
    placeholderData: keepPreviousData,
  });
  const [downloading, setDownloading] = useState<'png' | 'svg' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function download(format: 'png' | 'svg') {
    setDownloading(format);
    setFailure(null);
    try {
      const answer = await api<QrAnswer>('GET', qrPath(orgId, link.id, { format, ...options }));
      const anchor = document.createElement('a');
      anchor.href = dataUrl(answer);
      anchor.download = `qr-${link.shortCode}.${format}`;
      anchor.click();
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setDownloading(null);
    }
  }

  const planRefused = preview.error instanceof ApiError && preview.error.code === 'PLAN_UPGRADE_REQUIRED';
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('qr.title', { url: link.shortUrl })}
      closeButtonProps={{ 'aria-label': t('close') }}
      size="md"
    >
      {planRefused ? (
        <Alert color="yellow" role="alert" title={t('qr.planTitle')}>
          {t('qr.plan')}
        </Alert>
      ) : (
        <Stack>
          <QueryStatus query={preview} />
          {preview.data && (
            <Group justify="center">
              <Image
                src={dataUrl(preview.data)}
                alt={t('qr.alt', { url: link.shortUrl })}
                w={220}
                h={220}
                data-testid="qr-preview"
              />
            </Group>
          )}
          <Group grow>
            <ColorInput label={t('qr.dark')} value={dark} onChange={setDark} format="hex" withEyeDropper={false} />
            <ColorInput label={t('qr.light')} value={light} onChange={setLight} format="hex" withEyeDropper={false} />
          </Group>
          <Select
            label={t('qr.size')}
            data={SIZES.map((s) => ({ value: s, label: `${s} × ${s}px` }))}
            value={size}
            onChange={(v) => v && setSize(v)}
            allowDeselect={false}
          />
          {failure && (
            <Text c="red" role="alert">
              {failure}
            </Text>
          )}
          <Group>
            <Button onClick={() => void download('png')} loading={downloading === 'png'} disabled={!preview.data}>
              {t('qr.png')}
            </Button>
            <Button
              variant="light"
              onClick={() => void download('svg')}
              loading={downloading === 'svg'}
              disabled={!preview.data}
            >
              {t('qr.svg')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
