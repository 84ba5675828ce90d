/** part of whole in percent with one decimal; 0 when there is no whole. */
export const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);
