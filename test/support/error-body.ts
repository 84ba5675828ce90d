// The assertion every failure path shares: the API's error body exactly, with its code and,
// when a field is at fault, a message that names it. A 400 carries `details`: the refused fields,
// each {field, message}; so does the 403 of a key without the scope a call needs, naming it.
import { STATUS_CODES } from 'node:http';
import { expect } from 'vitest';

export interface HttpAnswer {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: light-my-request's own type; each test reads the fields it expects.
  json(): any;
}

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

export function expectError(
  res: HttpAnswer,
  status: number,
  expected: { field?: string; code?: string; missingScope?: string } = {},
) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(String(res.headers['content-type'])).toContain('application/json');
  const body = res.json();
  const withDetails = status === 400 || expected.missingScope !== undefined;
  const keys = ['code', 'error', 'message', 'status', 'timestamp', ...(withDetails ? ['details'] : [])];
  expect(Object.keys(body).sort()).toEqual(keys.sort());
  if (status === 400) {
    expect(Array.isArray(body.details)).toBe(true);
    for (const detail of body.details)
      expect(detail).toEqual({ field: expect.any(String), message: expect.any(String) });
  }
  expect(body.status).toBe(status);
  expect(body.error).toBe(STATUS_CODES[status]);
  expect(typeof body.message).toBe('string');
  expect(body.timestamp).toMatch(ISO_UTC);
  if (expected.field) expect(body.message).toContain(expected.field);
  if (expected.code) expect(body.code).toBe(expected.code);
  if (expected.missingScope !== undefined) {
    expect(body.code).toBe('API_KEY_SCOPE_MISSING');
    expect(body.details).toEqual([{ field: 'scope', message: `${expected.missingScope} is required` }]);
    expect(body.message).toContain(expected.missingScope);
  }
  return body as ErrorAnswer;
}

export interface ErrorAnswer {
  status: number;
  error: string;
  message: string;
  timestamp: string;
  code: string;
  details?: Array<{ field: string; message: string }>;
}
