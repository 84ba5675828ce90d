// The OpenAPI document has no breaking change against the last released one
// (openapi/released/<version>.json), and the checker (scripts/openapi-breaking.ts) finds each kind
// of break it claims to: every case below changes a copy of the released document in one way and
// expects exactly that finding, and compatible changes stay out of the breaking list.
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, type OpenApiDocument } from '../scripts/openapi-document.js';
import {
  compareOpenApi,
  formatComparison,
  lastReleasedFile,
  releasedForm,
  type BreakingKind,
  type CompatibleKind,
} from '../scripts/openapi-breaking.js';

let released: OpenApiDocument;

beforeAll(() => {
  released = JSON.parse(fs.readFileSync(lastReleasedFile(), 'utf8'));
}, 60_000);

const URLS = '/api/v1/service/urls';
const URL_BY_ID = '/api/v1/service/urls/{id}';

/** The checker's findings for a copy of the released document changed by `change`. */
function findings(change: (doc: OpenApiDocument) => void) {
  const current = structuredClone(released);
  change(current);
  const { breaking, compatible } = compareOpenApi(released, current);
  return {
    breaking: breaking.map((c) => `${c.kind} ${c.where}`),
    compatible: compatible.map((c) => `${c.kind} ${c.where}`),
  };
}

const createUrlBody = (doc: OpenApiDocument) => doc.paths[URLS].post.requestBody.content['application/json'].schema;
const param = (op: OpenApiDocument, name: string) => op.parameters.find((p: { name: string }) => p.name === name);

describe("today's document against the last release", () => {
  it('breaks nothing a client of the release relies on', async () => {
    const current = await buildOpenApiDocument();
    const comparison = compareOpenApi(released, current);
    // On a failure: keep the old behaviour next to the new, or release a new major version.
    expect(comparison.breaking, formatComparison(comparison)).toEqual([]);
  }, 60_000);

  it('keeps the release as the document was served, without the server address', () => {
    expect(released.servers).toBeUndefined();
    expect(releasedForm({ servers: [{ url: 'http://x' }], openapi: '3.1.0' })).toEqual({ openapi: '3.1.0' });
    expect(released.paths[URLS].post.operationId).toBe('createShortUrl');
  });
});

describe('the breaking-change check', () => {
  it('finds nothing between a document and itself', () => {
    expect(findings(() => {})).toEqual({ breaking: [], compatible: [] });
  });

  const breaks: Array<[BreakingKind, string, (doc: OpenApiDocument) => void]> = [
    ['operation-removed', `GET ${URLS}`, (doc) => delete doc.paths[URLS].get],
    [
      'security-tightened',
      'GET /healthz',
      (doc) => {
        doc.paths['/healthz'].get.security = [{ apiKey: [] }];
      },
    ],
    [
      'security-tightened',
      'GET /api/v1/cross-platform/stats/summary',
      (doc) => {
        // The journey statistics take an app's credentials or a Service API key; dropping the key is a break.
        const op = doc.paths['/api/v1/cross-platform/stats/summary'].get;
        op.security = op.security.filter((r: Record<string, string[]>) => !('apiKey' in r));
      },
    ],
    [
      'security-scheme-changed',
      'security scheme apiKey',
      (doc) => {
        doc.components.securitySchemes.apiKey.name = 'X-SIGNPOST-KEY';
      },
    ],
    [
      'security-scheme-changed',
      'security scheme adminToken',
      (doc) => {
        delete doc.components.securitySchemes.adminToken;
      },
    ],
    [
      'parameter-removed',
      `GET ${URLS} parameter query.keyword`,
      (doc) => {
        const op = doc.paths[URLS].get;
        op.parameters = op.parameters.filter((p: { name: string }) => p.name !== 'keyword');
      },
    ],
    [
      'parameter-required',
      `GET ${URLS} parameter query.keyword`,
      (doc) => {
        param(doc.paths[URLS].get, 'keyword').required = true;
      },
    ],
    [
      'parameter-required',
      `GET ${URLS} parameter query.tenant`,
      (doc) => {
        doc.paths[URLS].get.parameters.push({
          in: 'query',
          name: 'tenant',
          required: true,
          schema: { type: 'string' },
        });
      },
    ],
    [
      'request-body-required',
      `DELETE ${URL_BY_ID} request`,
      (doc) => {
        doc.paths[URL_BY_ID].delete.requestBody = {
          required: true,
          content: { 'application/json': { schema: { type: 'object' } } },
        };
      },
    ],
    [
      'request-property-required',
      `POST ${URLS} request body.title`,
      (doc) => {
        createUrlBody(doc).required.push('title');
      },
    ],
    [
      'request-property-required',
      `POST ${URLS} request body.campaignKey`,
      (doc) => {
        createUrlBody(doc).properties.campaignKey = { type: 'string' };
        createUrlBody(doc).required.push('campaignKey');
      },
    ],
    [
      'request-property-removed',
      `POST ${URLS} request body.utmSource`,
      (doc) => {
        delete createUrlBody(doc).properties.utmSource;
      },
    ],
    [
      'request-type-narrowed',
      `GET ${URL_BY_ID} parameter path.id`,
      (doc) => {
        param(doc.paths[URL_BY_ID].get, 'id').schema = { type: 'string' };
      },
    ],
    [
      'request-type-narrowed',
      `POST ${URLS} request body.title`,
      (doc) => {
        createUrlBody(doc).properties.title = { type: 'string', maxLength: 200 };
      },
    ],
    [
      'request-enum-value-removed',
      `GET ${URLS} parameter query.showAdPage`,
      (doc) => {
        param(doc.paths[URLS].get, 'showAdPage').schema.enum = ['true'];
      },
    ],
    [
      'request-enum-value-removed',
      `POST ${URLS} request body.goalType`,
      (doc) => {
        createUrlBody(doc).properties.goalType = {
          anyOf: [{ type: 'string', enum: ['purchase', 'signup'] }, { type: 'null' }],
        };
      },
    ],
    [
      'request-limit-tightened',
      `POST ${URLS} request body.customAlias`,
      (doc) => {
        createUrlBody(doc).properties.customAlias.maxLength = 20;
      },
    ],
    [
      'request-limit-tightened',
      `POST ${URLS} request body.url`,
      (doc) => {
        createUrlBody(doc).properties.url.format = 'uri';
      },
    ],
    [
      'response-status-removed',
      `POST ${URLS} 201`,
      (doc) => {
        const responses = doc.paths[URLS].post.responses;
        responses['200'] = responses['201'];
        delete responses['201'];
      },
    ],
    [
      'response-media-removed',
      `GET ${URL_BY_ID} 200`,
      (doc) => {
        const content = doc.paths[URL_BY_ID].get.responses['200'].content;
        content['application/xml'] = content['application/json'];
        delete content['application/json'];
      },
    ],
    // ShortUrl is a shared component: the finding names each place that answers it.
    [
      'response-property-removed',
      `GET ${URL_BY_ID} 200 body.clickCount`,
      (doc) => {
        const schema = doc.components.schemas.ShortUrl;
        delete schema.properties.clickCount;
        schema.required = schema.required.filter((name: string) => name !== 'clickCount');
      },
    ],
    [
      'response-property-removed',
      `GET ${URLS} 200 body.content[].clickCount`,
      (doc) => {
        const schema = doc.components.schemas.ShortUrl;
        delete schema.properties.clickCount;
        schema.required = schema.required.filter((name: string) => name !== 'clickCount');
      },
    ],
    [
      'response-property-optional',
      `POST ${URLS} 201 body.shortUrl`,
      (doc) => {
        const schema = doc.components.schemas.ShortUrl;
        schema.required = schema.required.filter((name: string) => name !== 'shortUrl');
      },
    ],
    [
      'response-type-widened',
      `GET ${URL_BY_ID} 200 body.clickCount`,
      (doc) => {
        doc.components.schemas.ShortUrl.properties.clickCount = { type: 'string' };
      },
    ],
    [
      'response-type-widened',
      `GET ${URL_BY_ID} 200 body.shortUrl`,
      (doc) => {
        doc.components.schemas.ShortUrl.properties.shortUrl = { type: ['string', 'null'] };
      },
    ],
    [
      'response-type-widened',
      'GET /api/v1/service/mobile-apps/{id} 200 body.platform',
      (doc) => {
        delete doc.components.schemas.MobileApp.properties.platform.enum;
      },
    ],
  ];

  it.each(breaks)('finds %s at %s', (kind, where, change) => {
    const { breaking } = findings(change);
    expect(breaking).toContain(`${kind} ${where}`);
    // Nothing else of another kind: each case is one kind of break.
    expect(
      breaking.filter((b) => !b.startsWith(`${kind} `)),
      'other findings',
    ).toEqual([]);
  });

  const compatible: Array<[CompatibleKind, string, (doc: OpenApiDocument) => void]> = [
    [
      'operation-added',
      'GET /api/v1/service/urls/{id}/history',
      (doc) => {
        doc.paths[`${URL_BY_ID}/history`] = {
          get: {
            operationId: 'getShortUrlHistory',
            security: [{ apiKey: [] }],
            responses: { 200: { description: 'OK' } },
          },
        };
      },
    ],
    [
      'security-loosened',
      'GET /api/v1/service/usage',
      (doc) => {
        doc.paths['/api/v1/service/usage'].get.security.push({ adminToken: [] });
      },
    ],
    [
      'parameter-added',
      `GET ${URLS} parameter query.sort`,
      (doc) => {
        doc.paths[URLS].get.parameters.push({ in: 'query', name: 'sort', required: false, schema: { type: 'string' } });
      },
    ],
    [
      'request-property-added',
      `POST ${URLS} request body.note`,
      (doc) => {
        createUrlBody(doc).properties.note = { type: 'string' };
      },
    ],
    [
      'request-property-optional',
      `POST ${URLS} request body.url`,
      (doc) => {
        createUrlBody(doc).required = [];
      },
    ],
    [
      'request-enum-value-added',
      `GET ${URLS} parameter query.showAdPage`,
      (doc) => {
        param(doc.paths[URLS].get, 'showAdPage').schema.enum.push('any');
      },
    ],
    [
      'request-limit-loosened',
      `POST ${URLS} request body.customAlias`,
      (doc) => {
        createUrlBody(doc).properties.customAlias.maxLength = 80;
      },
    ],
    [
      'response-property-added',
      `GET ${URL_BY_ID} 200 body.archived`,
      (doc) => {
        doc.components.schemas.ShortUrl.properties.archived = { type: 'boolean' };
        doc.components.schemas.ShortUrl.required.push('archived');
      },
    ],
    [
      'response-enum-value-added',
      'GET /api/v1/service/mobile-apps/{id} 200 body.platform',
      (doc) => {
        doc.components.schemas.MobileApp.properties.platform.enum.push('HARMONY');
      },
    ],
    [
      'response-status-removed',
      `POST ${URLS} 409`,
      (doc) => {
        delete doc.paths[URLS].post.responses['409'];
      },
    ],
    [
      'response-status-added',
      `GET ${URL_BY_ID} 304`,
      (doc) => {
        doc.paths[URL_BY_ID].get.responses['304'] = { description: 'Not Modified' };
      },
    ],
  ];

  it.each(compatible)('lists %s at %s as compatible, not breaking', (kind, where, change) => {
    const result = findings(change);
    expect(result.compatible).toContain(`${kind} ${where}`);
    expect(result.breaking).toEqual([]);
  });

  it("leaves the console's own API out: it ships with its console", () => {
    expect(
      findings((doc) => {
        delete doc.paths['/console/api/session'];
      }),
    ).toEqual({ breaking: [], compatible: [] });
  });
});
