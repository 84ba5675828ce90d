// A row's delete action: asks first, in the words given, and names what it deletes for screen
// readers ("Delete: <name>"), since every row's button reads the same.
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
