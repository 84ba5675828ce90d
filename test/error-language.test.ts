// API error messages follow Accept-Language: Korean when the caller prefers it to English, English
// otherwise; the body's shape and its code are the same in both.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/error-body.js';
import { serviceForFile } from './support/service.js';

let apiKey: string;

const svc = serviceForFile();

beforeAll(async () => {
  apiKey = (await svc.createOrganization('Acme', 'PRO')).apiKey;
});

const HANGUL = /[\uac00-\ud7a3]/;
const usage = (acceptLanguage?: string) =>
  svc.inject({
    method: 'GET',
    url: '/api/v1/service/usage',
    headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage },
  });

describe('error message language', () => {
  it('is Korean for a caller who prefers Korean, with the same body shape and code', async () => {
    for (const header of ['ko-KR,ko;q=0.9,en;q=0.8', 'ko', 'ja;q=0.9, ko;q=0.8, en;q=0.1']) {
      const res = await usage(header);
      const body = expectError(res, 401, { code: 'API_KEY_MISSING' });
      expect(body.message, header).toBe('X-API-KEY 헤더가 필요합니다.');
      expect(res.headers['content-language']).toBe('ko');
    }
  });

  it('is English without Accept-Language, for English, and when English is preferred to Korean', async () => {
    for (const header of [undefined, 'en-US', 'en;q=0.9, ko;q=0.5', 'fr-FR', '*']) {
      const res = await usage(header);
      const body = expectError(res, 401, { code: 'API_KEY_MISSING' });
      expect(body.message, String(header)).not.toMatch(HANGUL);
      expect(res.headers['content-language']).toBe('en');
    }
  });

  it('keeps the detail of a validation error (the field) after the Korean sentence', async () => {
    const res = await svc.inject({
      method: 'POST',
      url: '/api/v1/service/urls',
      headers: { 'x-api-key': apiKey, 'accept-language': 'ko-KR' },
      payload: { url: 'ftp://shop.example/' },
    });
    const body = expectError(res, 400, { code: 'VALIDATION_FAILED', field: 'url' });
    expect(body.message.startsWith('요청 값이 규칙에 맞지 않습니다; body.url: ')).toBe(true);
  });

  it('speaks Korean on not-found resources and unknown routes too', async () => {
    const missing = await svc.inject({
      method: 'GET',
      url: '/api/v1/service/urls/999999999',
      headers: { 'x-api-key': apiKey, 'accept-language': 'ko' },
    });
    expect(expectError(missing, 404, { code: 'SHORT_URL_NOT_FOUND' }).message).toBe('단축 URL을 찾을 수 없습니다.');
    const route = await svc.inject({
      method: 'GET',
      url: '/api/v1/service/nothing-here',
      headers: { 'accept-language': 'ko' },
    });
    expect(expectError(route, 404, { code: 'ROUTE_NOT_FOUND' }).message).toBe('요청한 경로가 없습니다.');
  });
});
