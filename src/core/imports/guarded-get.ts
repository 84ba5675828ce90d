// The one way an import reaches another service: the same address rules as webhooks (https, or
// plain HTTP to loopback with IMPORT_ALLOW_INSECURE; every resolved address public), each request
// resolved and checked again and sent to the checked address, under a deadline.
import { checkUrlShape, resolveDeliveryAddress, type Resolve, type UrlProblem } from '../../shared/webhook-url.js';
import { sendWebhook } from '../webhooks/webhook-sender.js';
import { type SourceGet, SourceFailed } from './import-source.js';

/** Big enough for a page of a hundred links with their metadata. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The guard's words for an import (its checks are shared with webhooks, whose messages name them). */
export const importUrlProblem = (problem: UrlProblem): string => problem.message.replace('webhooks', 'imports');

export function createGuardedGet(options: { allowInsecure: boolean; resolve: Resolve; timeoutMs: number }): SourceGet {
  const { allowInsecure, resolve, timeoutMs } = options;
  return async (url, headers, signal) => {
    const shape = checkUrlShape(url.href, { allowInsecure });
    if (!shape.ok) throw new SourceFailed(importUrlProblem(shape), false);
    const resolved = await resolveDeliveryAddress(shape.url, { allowInsecure, resolve });
    if (!resolved.ok) throw new SourceFailed(importUrlProblem(resolved), resolved.code === 'WEBHOOK_DNS_FAILED');
    const result = await sendWebhook({
      url: shape.url,
      address: resolved.address,
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': 'Signpost-Import/1', ...headers },
      timeoutMs,
      maxResponseBytes: MAX_ANSWER_BYTES,
      signal,
    });
    if (result.aborted) throw signal.reason ?? new Error('aborted');
    if (result.status === null)
      throw new SourceFailed(`${url.host} did not answer: ${result.error ?? 'no answer'}`, true);
    return { status: result.status, headers: result.responseHeaders ?? {}, body: result.responseBody ?? '' };
  };
}
