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
    <ConfirmButton label={t('links.delete')} name={name} confirm={confirm} onConfirm={onDelete} disabled={disabled} />
  );
}

/** An action that asks first: delete, remove, regenerate, rotate. Without a name, the label is its name. */
export function ConfirmButton({
  label,
  name,
  confirm,
  onConfirm,
  variant = 'subtle',
  size = 'xs',
  red = true,
  disabled = false,
  loading = false,
}: {
  label: string;
  name?: string;
  confirm: string;
  onConfirm: () => void;
  /** False for an action that asks first but destroys nothing. */
  red?: boolean;
  variant?: 'subtle' | 'light';
  size?: 'xs' | 'sm';
  disabled?: boolean;
  loading?: boolean;
}) {
  return (
    <Button
      size={size}
      {...(red ? { color: 'red' } : {})}
      variant={variant}
      disabled={disabled}
      loading={loading}
      {...(name === undefined ? {} : { 'aria-label': `${label}: ${name}` })}
      onClick={() => window.confirm(confirm) && onConfirm()}
    >
      {label}
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
