// What the browser has and jsdom lacks, for Mantine: media queries, element resize observation,
// scrolling an option into view, font loading events. The console's words are loaded once, Korean as on a fresh page.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { startI18n } from '../src/i18n';

window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

Element.prototype.scrollIntoView ??= () => {};

if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener: () => {}, removeEventListener: () => {} } });
}

startI18n();
afterEach(cleanup);
