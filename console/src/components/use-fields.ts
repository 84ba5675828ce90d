// A form's text fields held together: each field's value and change handler (disabled where the
// member's role may not change anything), the whole form to send, and a reset once it is sent.
import { useState } from 'react';

export function useFields<F extends Record<string, string>>(initial: F, disabled = false) {
  const [form, setForm] = useState(initial);
  const field = (name: keyof F) => ({
    value: form[name],
    onChange: (e: { currentTarget: { value: string } }) =>
      setForm((current) => ({ ...current, [name]: e.currentTarget.value })),
    disabled,
  });
  return { form, field, reset: () => setForm(initial) };
}
