// A form's text fields held together: each field's value and change handler (disabled where the
// member's role may not change anything), the whole form to send, and a reset once it is sent.
import { useState } from 'react';

export function useFields<F extends Record<string, string>>(initial: F, disabled = false) {
  const [form, setForm] = useState(initial);
  const field = (name: keyof F) => ({
    value: form[name],
    onChange: (e: { currentTarget: { value: string } }) => {
      // Read now: React clears the event's currentTarget once the handler returns, before the
      // state updater runs.
      const value = e.currentTarget.value;
      setForm((current) => ({ ...current, [name]: value }));
    },
    disabled,
  });
  return { form, field, reset: () => setForm(initial) };
}
