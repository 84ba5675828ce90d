// Light or dark: starts from the system's preference and, once chosen, stays as chosen in this
// browser (Mantine keeps the choice in localStorage). Charts follow it.
import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function ThemeSwitch() {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const next = scheme === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={t(`theme.${next}`)}
      title={t(`theme.${next}`)}
      onClick={() => setColorScheme(next)}
    >
      <span aria-hidden="true">{scheme === 'dark' ? '☀' : '☾'}</span>
    </ActionIcon>
  );
}
