// One webhook HTTP POST (or an import's GET) to an address checked beforehand: node:http(s) with a
// `lookup` that answers only that address, so the connection goes where the check said while TLS
// (SNI, certificate) and the Host header still name the host. Redirects are not followed; the
// answer's body is read up to a limit; the whole exchange has one deadline.
import type { IncomingHttpHeaders } from 'node:http';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { bareHost, type ResolvedAddress } from '../../shared/webhook-url.js';

export interface SendRequest {
  url: URL;
  address: ResolvedAddress;
  /** POST unless said otherwise; a GET sends no body. */
  method?: 'GET' | 'POST';
  body?: string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Aborted when the service stops: the attempt is given back, not counted. */
  signal?: AbortSignal;
}

export interface SendResult {
  /** HTTP status, or null when no answer came. */
  status: number | null;
  error: string | null;
  latencyMs: number;
  responseBody: string | null;
  /** The answer's headers (Retry-After and the like); null when no answer came. */
  responseHeaders: IncomingHttpHeaders | null;
  aborted: boolean;
}

export function sendWebhook(req: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const host = bareHost(req.url);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    // net asks for every address when it races IPv4 and IPv6 (autoSelectFamily): there is one.
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (err: null, addresses: { address: string; family: number }[]) => void)(null, [
        req.address,
      ]);
    } else {
      callback(null, req.address.address, req.address.family);
    }
  };
  const secure = req.url.protocol === 'https:';
  const transport = secure ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (
      result: Omit<SendResult, 'latencyMs' | 'aborted' | 'responseHeaders'> & {
        aborted?: boolean;
        responseHeaders?: IncomingHttpHeaders;
      },
    ) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      resolve({
        ...result,
        responseHeaders: result.responseHeaders ?? null,
        aborted: result.aborted ?? false,
        latencyMs: Math.round(performance.now() - started),
      });
    };
    const body = req.body ?? '';
    const request = transport.request(
      {
        protocol: req.url.protocol,
        host,
        port: req.url.port || (secure ? 443 : 80),
        path: `${req.url.pathname}${req.url.search}`,
        method: req.method ?? 'POST',
        headers: {
          ...req.headers,
          ...(req.method === 'GET' ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        },
        lookup: pinned,
        // No pooled sockets: a kept-alive connection could outlive the address check.
        agent: false,
        ...(secure && isIP(host) === 0 ? { servername: host } : {}),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const done = () => {
          const text = Buffer.concat(chunks).subarray(0, req.maxResponseBytes).toString('utf8');
          const ok = status >= 200 && status < 300;
          const error = ok
            ? null
            : status >= 300 && status < 400
              ? `redirect to ${response.headers.location ?? '?'} not followed`
              : `HTTP ${status}`;
          finish({ status, error, responseBody: text === '' ? null : text, responseHeaders: response.headers });
        };
        response.on('data', (chunk: Buffer) => {
          if (received >= req.maxResponseBytes) return;
          chunks.push(chunk);
          received += chunk.length;
          if (received >= req.maxResponseBytes) {
            // Enough for the log; the rest of a large answer is not our business.
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
        response.on('close', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, error: `no answer within ${req.timeoutMs} ms`, responseBody: null });
      request.destroy();
    }, req.timeoutMs);
    const onAbort = () => {
      finish({ status: null, error: 'aborted at shutdown', responseBody: null, aborted: true });
      request.destroy();
    };
    if (req.signal?.aborted) return onAbort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (err: NodeJS.ErrnoException) =>
      finish({ status: null, error: `${err.code ?? 'ERROR'}: ${err.message}`.slice(0, 500), responseBody: null }),
    );
    request.end(body);
  });
}
