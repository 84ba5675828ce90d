// Answers a sign-in page: HTML with a fresh nonce in its Content-Security-Policy, never cached.
import type { FastifyReply } from 'fastify';
import { newNonce, pagePolicy } from '../security-headers.js';

export function sendPage(reply: FastifyReply, status: number, render: (nonce: string) => string): FastifyReply {
  const nonce = newNonce();
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', pagePolicy({ nonce, forms: true }))
    .send(render(nonce));
}
