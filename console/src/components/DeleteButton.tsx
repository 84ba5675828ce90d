// A row's actions. Each names the row it acts on for screen readers ("Edit: <name>"), since every
// row's button reads the same; the delete action asks first, in the words given.
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function DeleteButton({
  name,
  confirm,
  onDelete,
  disabled = false,
}: {
  name: string;
  confirm: string;
  onDelete: () => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Button
      size="xs"
      color="red"
      variant="subtle"
      disabled={disabled}
      aria-label={`${t('links.delete')}: ${name}`}
      onClick={() => window.confirm(confirm) && onDelete()}
    >
      {t('links.delete')}
    </Button>
  );
}

/** A row's action button: the label shown, "label: name" for screen readers. */
export function RowButton({
  label,
  name,
  onClick,
  variant = 'subtle',
  disabled = false,
  loading = false,
}: {
  label: string;
  name: string;
  onClick: () => void;
  variant?: 'subtle' | 'light';
  disabled?: boolean;
  loading?: boolean;
}) {
  return (
    <Button
      size="xs"
      variant={variant}
      disabled={disabled}
      loading={loading}
      onClick={onClick}
      aria-label={`${label}: ${name}`}
    >
      {label}
    </Button>
  );
}
