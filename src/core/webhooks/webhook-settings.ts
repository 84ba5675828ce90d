// An organization's webhook as its members manage it in the console's developer menu: the endpoint
// (or none yet), saving it (the signing secret made here and shown once, on the first save),
// a new secret (shown once; the previous one still signed with for a while), the delivery log with
// each delivery's attempts, redelivery and a test event. Each needs webhooks.manage; the rules
// themselves (URL safety, sealing, rotation, audit) are the webhooks service's.
import { newWebhookSecret } from '../../shared/ids.js';
import type { Actor } from '../accounts/audit-trail.js';
import { authorize } from '../accounts/permissions.js';
import type { Caller } from '../caller.js';
import type { DeliveryState, WebhookCategory, WebhookEndpoint, WebhooksService } from './index.js';

type WebhookCaller = Pick<Caller, 'organization' | 'member'>;

/** The endpoint after a change, and its signing secret when this change made one (else null). */
export interface SavedWebhook {
  endpoint: WebhookEndpoint;
  secret: string | null;
}

export function createWebhookSettings({ webhooks }: { webhooks: WebhooksService }) {
  return {
    /** The endpoint, or null when none is configured yet (never the secret). */
    async get(caller: WebhookCaller): Promise<WebhookEndpoint | null> {
      authorize(caller, 'webhooks.manage');
      return (await webhooks.findEndpoint(caller.organization.id)) ?? null;
    },

    /** Sets URL, categories and state; the first save makes the signing secret and returns it this once. */
    async save(
      caller: WebhookCaller,
      actor: Actor,
      input: { url: string; events: WebhookCategory[]; enabled: boolean },
    ): Promise<SavedWebhook> {
      authorize(caller, 'webhooks.manage');
      const organizationId = caller.organization.id;
      const secret = (await webhooks.findEndpoint(organizationId)) ? null : newWebhookSecret();
      const endpoint = await webhooks.setEndpoint(organizationId, { ...input, ...(secret ? { secret } : {}) }, actor);
      return { endpoint, secret };
    },

    /** A new signing secret, returned this once; the previous one is still signed with for the default overlap. */
    async rotateSecret(caller: WebhookCaller, actor: Actor): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
      authorize(caller, 'webhooks.manage');
      const secret = newWebhookSecret();
      return { endpoint: await webhooks.rotateSecret(caller.organization.id, secret, actor), secret };
    },

    /** Removes the endpoint and its secret (the log stays); a later save makes a new secret. */
    remove(caller: WebhookCaller, actor: Actor): Promise<void> {
      authorize(caller, 'webhooks.manage');
      return webhooks.removeEndpoint(caller.organization.id, actor);
    },

    /** The delivery log, newest first. */
    deliveries(caller: WebhookCaller, filter: { state?: DeliveryState }, page: { page: number; size: number }) {
      authorize(caller, 'webhooks.manage');
      return webhooks.listDeliveries(caller.organization.id, filter, page);
    },

    /** One delivery with its body and every attempt. */
    delivery(caller: WebhookCaller, id: number) {
      authorize(caller, 'webhooks.manage');
      return webhooks.getDelivery(caller.organization.id, id);
    },

    /** Sends a delivery again now: the same event id and body. */
    redeliver(caller: WebhookCaller, id: number) {
      authorize(caller, 'webhooks.manage');
      return webhooks.redeliver(caller.organization.id, id);
    },

    /** Enqueues a webhook.test event to the (enabled) endpoint. */
    sendTest(caller: WebhookCaller) {
      authorize(caller, 'webhooks.manage');
      return webhooks.sendTest(caller.organization.id);
    },
  };
}

export type WebhookSettings = ReturnType<typeof createWebhookSettings>;
