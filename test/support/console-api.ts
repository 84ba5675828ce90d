// A console member's calls to the console API without a browser: the member is added through the
// operator API, signs in with a one-time link, and calls with the session cookie and CSRF token.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestService } from './service.js';

export type ConsoleCall = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) => Promise<LightMyRequestResponse>;

/** A signed-in console session: its calls, and the cookie header that carries it. */
export interface ConsoleSignIn {
  call: ConsoleCall;
  cookie: string;
}

/**
 * Signs an existing member in with an operator login link, from the given browser and address.
 * `base` is the service's PUBLIC_BASE_URL: the origin state-changing calls must come from.
 */
export async function consoleSignIn(
  svc: TestService,
  base: string,
  email: string,
  client: { userAgent?: string; remoteAddress?: string } = {},
): Promise<ConsoleSignIn> {
  const link = new URL((await svc.admin('POST', '/login-links', { email })).json().url as string);
  const opened = await svc.inject({
    method: 'GET',
    url: `${link.pathname}${link.search}`,
    ...(client.userAgent ? { headers: { 'user-agent': client.userAgent } } : {}),
    ...(client.remoteAddress ? { remoteAddress: client.remoteAddress } : {}),
  });
  const cookie = `sp_session=${/sp_session=([^;]+)/.exec(String(opened.headers['set-cookie']))![1]}`;
  const session = (await svc.inject({ method: 'GET', url: '/console/api/session', headers: { cookie } })).json();
  return {
    cookie,
    call: (method, url, body) =>
      svc.inject({
        method,
        url: `/console/api${url}`,
        headers: { cookie, origin: base, 'x-csrf-token': session.csrfToken as string },
        ...(body === undefined ? {} : { payload: body as object }),
      }),
  };
}

/** `base` is the service's PUBLIC_BASE_URL: the origin state-changing calls must come from. */
export async function consoleMember(
  svc: TestService,
  base: string,
  member: { organizationId: number; email: string; role: string; name?: string },
): Promise<ConsoleCall> {
  const { organizationId, ...fields } = member;
  const added = await svc.admin('POST', `/organizations/${organizationId}/members`, fields);
  expect(added.statusCode, added.body).toBeLessThan(300);
  return (await consoleSignIn(svc, base, member.email)).call;
}
