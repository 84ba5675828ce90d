// The console's entry: Mantine (its runtime styles carry the page's CSP nonce), TanStack Query for
// everything from the server, i18next for the words.
import '@mantine/core/styles.css';
import { type CSSVariablesResolver, createTheme, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ApiError } from './api';
import { startI18n } from './i18n';

startI18n();
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';
// Modals and drawers lock the page's scrolling with a style element of their own: it needs the nonce too.
setNonce(nonce);
// Shade 8 and a darker "dimmed": text keeps WCAG AA contrast (4.5:1) everywhere, in both schemes.
// Light variants (alerts, light buttons and badges) keep Mantine's own text colour, which is
// shade 9 on the light scheme and shade 0 on the dark one.
const theme = createTheme({
  primaryColor: 'blue',
  // Mantine's darkest green and yellow fall short of 4.5:1 as text on their own light background.
  colors: {
    green: [
      '#ebfbee',
      '#d3f9d8',
      '#b2f2bb',
      '#8ce99a',
      '#69db7c',
      '#51cf66',
      '#40c057',
      '#37b24d',
      '#2f9e44',
      '#1b6e2e',
    ],
    yellow: [
      '#fff9db',
      '#fff3bf',
      '#ffec99',
      '#ffe066',
      '#ffd43b',
      '#fcc419',
      '#fab005',
      '#f59f00',
      '#f08c00',
      '#8f4a00',
    ],
  },
  primaryShade: { light: 8, dark: 8 },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans KR", sans-serif',
});
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});
const queries = new QueryClient({
  defaultOptions: {
    // A refusal (4xx) will not change by asking again; a network hiccup may.
    queries: {
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: true,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      cssVariablesResolver={contrast}
      defaultColorScheme="auto"
      getStyleNonce={() => nonce}
    >
      <QueryClientProvider client={queries}>
        <App />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
