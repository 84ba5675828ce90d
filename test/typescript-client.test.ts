// The typed client (clients/typescript) against a started service over real HTTP: create a link,
// follow it once, read the click in its statistics; list, read, update and delete; errors answered
// as the typed error body. Each `@ts-expect-error` below is a call the compiler refuses (npm run
// typecheck covers this file) and that the service refuses too, so the types say what the service
// accepts. Also: the committed generated schema is what `npm run client:generate` writes from
// today's document, that document is exactly the one a started service serves, and the examples
// of the client's README compile.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createSignpostClient,
  isErrorBody,
  SignpostApiError,
  unwrap,
  type ErrorBody,
  type RequestBody,
  type ShortUrl,
  type SignpostClient,
} from '../clients/typescript/src/index.js';
import {
  CLIENT_SCHEMA_FILE,
  CONSOLE_SCHEMA_FILE,
  renderClientSchema,
  renderConsoleSchema,
} from '../scripts/client-generate.js';
import { buildOpenApiDocument } from '../scripts/openapi-document.js';
import { ISO_UTC } from './support/error-body.js';
import { UA } from './support/deep-links.js';
import { eventually, serviceForFile } from './support/service.js';

const HOST = 'sgnp.example';

let baseUrl: string;
let client: SignpostClient;

const svc = serviceForFile({ PUBLIC_BASE_URL: `https://${HOST}`, PORT: '0', HOST: '127.0.0.1' });

beforeAll(async () => {
  baseUrl = await svc.container.listen();
  const org = await svc.createOrganization('Typed client', 'PRO');
  client = createSignpostClient({ baseUrl, apiKey: org.apiKey });
});

/** A visitor following a short URL on the real port (its host header as the link names it). */
function follow(shortUrl: string): Promise<{ status: number; location: string | undefined }> {
  const link = new URL(shortUrl);
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: link.pathname,
        headers: { host: link.host, 'user-agent': UA.iPhone },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function expectErrorBody(error: ErrorBody, status: number, code?: string): void {
  const keys = ['code', 'error', 'message', 'status', 'timestamp', ...(status === 400 ? ['details'] : [])];
  expect(Object.keys(error).sort()).toEqual(keys.sort());
  expect(error.status).toBe(status);
  expect(error.timestamp).toMatch(ISO_UTC);
  if (code) expect(error.code).toBe(code);
}

describe('the typed client against a started service', () => {
  let link: ShortUrl;

  it('creates a short link, whose visit shows in its statistics', async () => {
    const created = await client.POST('/api/v1/service/urls', {
      body: { url: 'https://shop.acme.example/product/42', title: 'Spring sale', utmSource: 'newsletter' },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    link = created.data!;
    expectTypeOf(created.data).toEqualTypeOf<ShortUrl | undefined>();
    expectTypeOf<RequestBody<'createShortUrl'>['url']>().toEqualTypeOf<string>();
    expectTypeOf<RequestBody<'updateShortUrl'>['originalUrl']>().toEqualTypeOf<string | undefined>();
    expect(link).toMatchObject({
      originalUrl: 'https://shop.acme.example/product/42',
      title: 'Spring sale',
      clickCount: 0,
    });
    expect(link.shortUrl).toBe(`https://${HOST}/${link.shortCode}`);

    const visit = await follow(link.shortUrl);
    expect(visit.status).toBe(302);
    expect(visit.location).toContain('https://shop.acme.example/product/42');

    // The click travels the event pipeline into ClickHouse; the statistics show it once written.
    const stats = await eventually(
      async () => {
        const { data } = await client.GET('/api/v1/service/urls/{id}/stats', {
          params: { path: { id: link.id }, query: { timeZone: 'Asia/Seoul' } },
        });
        return data && data.chartData.reduce((a, b) => a + b, 0) === 1 ? data : undefined;
      },
      20_000,
      'the click in the statistics',
    );
    expect(stats.url.id).toBe(link.id);
    expect(stats.meta.timeZone).toBe('Asia/Seoul');
    expect(stats.hourlyChartData.reduce((a, b) => a + b, 0)).toBe(1);
    expect(stats.deviceTypeStats.find((d) => d.name === 'Mobile')?.count).toBe(1);
  });

  it('lists, reads, updates and deletes the link', async () => {
    const page = await unwrap(
      client.GET('/api/v1/service/urls', { params: { query: { keyword: link.shortCode, size: 10 } } }),
    );
    expect(page.content.map((l) => l.id)).toEqual([link.id]);

    const read = await unwrap(client.GET('/api/v1/service/urls/{id}', { params: { path: { id: link.id } } }));
    expect(read.shortCode).toBe(link.shortCode);

    const updated = await unwrap(
      client.PUT('/api/v1/service/urls/{id}', { params: { path: { id: link.id } }, body: { title: 'Summer sale' } }),
    );
    expect(updated.title).toBe('Summer sale');

    const deleted = await client.DELETE('/api/v1/service/urls/{id}', { params: { path: { id: link.id } } });
    expect(deleted.response.status).toBe(204);

    const gone = await client.GET('/api/v1/service/urls/{id}', { params: { path: { id: link.id } } });
    expect(gone.data).toBeUndefined();
    expectErrorBody(gone.error!, 404, 'SHORT_URL_NOT_FOUND');
  });

  it('answers a refused call with the typed error body', async () => {
    const { data, error, response } = await client.POST('/api/v1/service/urls', { body: { url: 'not a url' } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expectErrorBody(error!, 400);
    expect(error!.message).toContain('url');
    expectTypeOf(error!).toEqualTypeOf<ErrorBody>();
  });

  it('throws SignpostApiError from unwrap, with the body and its code', async () => {
    const stranger = createSignpostClient({ baseUrl: `${baseUrl}/`, apiKey: 'sp_not-a-key' });
    const failure = await unwrap(stranger.GET('/api/v1/service/usage')).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(SignpostApiError);
    const apiError = failure as SignpostApiError;
    expect(apiError.status).toBe(401);
    expect(isErrorBody(apiError.body)).toBe(true);
    expectErrorBody(apiError.body!, 401, 'API_KEY_INVALID');
    expect(apiError.code).toBe('API_KEY_INVALID');
    expect(apiError.message).toBe(`401 ${apiError.code}: ${apiError.body!.message}`);
  });

  it('refuses at compile time what the service refuses at run time', async () => {
    // @ts-expect-error: the service has no such path.
    const unknownPath = await client.GET('/api/v1/service/links');
    expect(unknownPath.response.status).toBe(404);

    // @ts-expect-error: url is required.
    const noUrl = await client.POST('/api/v1/service/urls', { body: { title: 'No destination' } });
    expect(noUrl.response.status).toBe(400);

    // @ts-expect-error: the id is a number.
    const textId = await client.GET('/api/v1/service/urls/{id}', { params: { path: { id: 'first' } } });
    expect(textId.response.status).toBe(400);

    // @ts-expect-error: showAdPage is "true" or "false" in a query.
    const badFilter = await client.GET('/api/v1/service/urls', { params: { query: { showAdPage: 'sometimes' } } });
    expect(badFilter.response.status).toBe(400);
  });
});

describe('the generated schemas', () => {
  it.each([
    ['clients/typescript/src/schema.ts', CLIENT_SCHEMA_FILE, renderClientSchema],
    ['console/generated/api-schema.ts', CONSOLE_SCHEMA_FILE, renderConsoleSchema],
  ])('%s is what npm run client:generate writes from the document the app serves today', async (name, file, render) => {
    const expected = await render(await buildOpenApiDocument());
    // On a difference, run `npm run client:generate` and commit the file.
    expect(fs.readFileSync(file, 'utf8') === expected, `${name} is stale: run npm run client:generate`).toBe(true);
  });

  it('comes from the document a started service serves (the in-process build is the same)', async () => {
    const served = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Record<string, unknown>;
    const built = await buildOpenApiDocument();
    expect({ ...served, servers: undefined }).toEqual({ ...built, servers: undefined });
  });
});

describe("the client's README", () => {
  const clientDir = path.dirname(path.dirname(CLIENT_SCHEMA_FILE));

  /** Type errors of each ```ts block, compiled as a module of a project that installed the client. */
  function readmeErrors(): { blocks: number; errors: string[] } {
    const readme = fs.readFileSync(path.join(clientDir, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    // Later blocks go on with the first block's client.
    const files = new Map(
      blocks.map((code, i) => [
        path.join(clientDir, `readme-example-${i + 1}.mts`),
        i > 0 && !code.includes('const signpost')
          ? `declare const signpost: import('@signpost/client').SignpostClient;\n${code}`
          : code,
      ]),
    );
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      paths: { '@signpost/client': [path.join(clientDir, 'src/index.ts')] },
    };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.fileExists = (name) => files.has(name) || fileExists(name);
    host.readFile = (name) => files.get(name) ?? readFile(name);
    host.getSourceFile = (name, language, ...rest) => {
      const text = files.get(name);
      return text === undefined ? getSourceFile(name, language, ...rest) : ts.createSourceFile(name, text, language);
    };
    const program = ts.createProgram([...files.keys()], options, host);
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    return { blocks: blocks.length, errors };
  }

  it('has examples that compile against the client as it is', () => {
    const { blocks, errors } = readmeErrors();
    expect(blocks).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
  }, 60_000);
});
