// How the link looks when shared in a chat or a feed: the Open Graph image, title, description
// and host, updating as the person types. Without OG fields a messenger shows the destination.
import { Box, Card, Image, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { hostOf } from '../link-form';

export function SharePreview({
  title,
  description,
  imageUrl,
  shortUrl,
  destination,
}: {
  title: string;
  description: string;
  imageUrl: string;
  shortUrl: string;
  destination: string;
}) {
  const { t } = useTranslation();
  const host = hostOf(shortUrl) || hostOf(destination);
  const image = hostOf(imageUrl) ? imageUrl.trim() : '';
  return (
    <Box role="figure" aria-label={t('editor.sharePreview')} data-testid="share-preview">
      <Text size="sm" fw={500} mb={4}>
        {t('editor.sharePreview')}
      </Text>
      <Card withBorder padding={0} maw={420} radius="md">
        {image ? (
          <Image
            src={image}
            alt=""
            h={180}
            fit="cover"
            fallbackSrc="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E"
          />
        ) : (
          <Box h={90} bg="gray.1" display="flex" style={{ alignItems: 'center', justifyContent: 'center' }}>
            <Text size="sm" c="dimmed">
              {t('editor.noImage')}
            </Text>
          </Box>
        )}
        <Stack gap={2} p="sm">
          <Text size="xs" c="dimmed" tt="uppercase">
            {host || '—'}
          </Text>
          <Text fw={600} lineClamp={2}>
            {title.trim() || t('editor.noOgTitle')}
          </Text>
          {description.trim() && (
            <Text size="sm" c="dimmed" lineClamp={3}>
              {description.trim()}
            </Text>
          )}
        </Stack>
      </Card>
    </Box>
  );
}
