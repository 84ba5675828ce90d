// Instants as an <input type="datetime-local"> holds them: in the browser's zone, to the minute.
const two = (n: number) => String(n).padStart(2, '0');

/** An instant as the value of a datetime-local input, in the browser's zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** A datetime-local value (local time) as the instant it names; undefined when it names none. */
export function instantOf(local: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local)) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d;
}
