// Renders a console component as the app does (Mantine, in its test mode without transitions
// and portals; TanStack Query) against a recorded
// network: each test answers the console API calls it expects and reads back what was sent.
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';

export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

type Answer = { status: number; body?: unknown };

/** Answers `METHOD /path` (after /console/api, query string included) from the routes; 404 otherwise. */
export function serveApi(routes: Record<string, Answer | ((request: SentRequest) => Answer)>): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = input.replace(/^\/console\/api/, '');
    // JSON bodies as their value; any other (a CSV file's text) as it was sent.
    const json = new Headers(init.headers).get('content-type') === 'application/json';
    const raw = typeof init.body === 'string' ? init.body : undefined;
    const request = { method, path, body: json && raw !== undefined ? JSON.parse(raw) : raw };
    sent.push(request);
    const route = routes[`${method} ${path}`] ?? routes[`${method} ${path.split('?')[0]}`];
    const answer =
      typeof route === 'function'
        ? route(request)
        : (route ?? {
            status: 404,
            body: {
              status: 404,
              error: 'Not Found',
              message: `no route for ${method} ${path}`,
              code: 'ROUTE_NOT_FOUND',
            },
          });
    return new Response(answer.status === 204 ? null : JSON.stringify(answer.body ?? {}), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return sent;
}

export function renderConsole(ui: ReactElement) {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider env="test">
      <QueryClientProvider client={queries}>{ui}</QueryClientProvider>
    </MantineProvider>,
  );
}

/** A 400 as the service answers a refused body: `details` names each field. */
export function refused(details: Array<{ field: string; message: string }>, message = 'refused'): Answer {
  return { status: 400, body: { status: 400, error: 'Bad Request', message, code: 'VALIDATION_FAILED', details } };
}

/** The text an input's aria-describedby points at: what a screen reader reads beside the field. */
export function describedBy(input: HTMLElement): string {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
    .trim();
}
