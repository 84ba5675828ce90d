// A button that copies a value and says so for a moment; filled where it sits on a tinted surface
// (an alert), so its label keeps its contrast.
import { Button, CopyButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function CopyValue({
  value,
  label,
  compact = false,
  filled = false,
}: {
  value: string;
  label?: string;
  compact?: boolean;
  filled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button
          size={compact ? 'compact-xs' : 'xs'}
          variant={filled ? 'filled' : 'light'}
          onClick={copy}
          {...(label ? { 'aria-label': `${t('links.copy')}: ${label}` } : {})}
        >
          {copied ? t('links.copied') : t('links.copy')}
        </Button>
      )}
    </CopyButton>
  );
}
