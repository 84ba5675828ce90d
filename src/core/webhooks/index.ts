// The rules for an organization's webhook endpoint and its delivery log, as the operator uses them
// (and the console, through webhook-settings.ts): setting the endpoint (URL checked for safety,
// secret sealed, categories, enabled, secret rotation), reading it back (never the secret), listing
// and reading deliveries, redelivering one, and a test event.
// A changed secret keeps the previous one valid for keepPreviousSecretHours (default 24): during
// that time every delivery carries both signatures, so the receiver can switch over without
// losing events. Every change tells the bus consumers to reread the subscriptions.
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { Actor, AuditTrail } from '../accounts/audit-trail.js';
import type { DeliveryState, WebhookDeliveriesRepo } from '../../oltp/webhook-deliveries.repo.js';
import {
  WEBHOOK_CATEGORIES,
  type WebhookCategory,
  type WebhookEndpointsRepo,
} from '../../oltp/webhook-endpoints.repo.js';
import { conflict, notFound } from '../../shared/errors.js';
import { refusedField } from '../field-error.js';
import { uuidv7 } from '../../shared/ids.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { secretsEqual } from '../../shared/secrets.js';
import { serializeWebhookEvent } from '../../shared/webhook-body.js';
import { validateWebhookUrl, type Resolve } from '../../shared/webhook-url.js';

export { WEBHOOK_CATEGORIES, type WebhookCategory };
export type { WebhookEndpoint } from '../../oltp/webhook-endpoints.repo.js';
export type { Delivery, DeliveryState } from '../../oltp/webhook-deliveries.repo.js';

export const DEFAULT_KEEP_PREVIOUS_HOURS = 24;

export interface WebhookEndpointInput {
  url: string;
  /** Required the first time; left out, the current secret stays. */
  secret?: string;
  /** Categories; all when left out. */
  events?: WebhookCategory[];
  /** Default true; enabling again clears the failure streak. */
  enabled?: boolean;
  /** After a secret change, how long the previous secret is still signed with; without one, moves the end of the current rotation. */
  keepPreviousSecretHours?: number;
}

export interface WebhooksServiceDeps {
  organizations: Pick<OrganizationsRepo, 'get'>;
  endpoints: WebhookEndpointsRepo;
  deliveries: WebhookDeliveriesRepo;
  secretBox: SecretBox;
  resolve: Resolve;
  allowInsecure: boolean;
  retryWindowMs: number;
  /** Wakes this instance's delivery worker. */
  nudge(): void;
  /** Tells every instance's bus consumer to reread the subscriptions. */
  endpointChanged(): void;
  audit: Pick<AuditTrail, 'record'>;
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

const TEST_MESSAGE = 'A test event from Signpost: your endpoint is reachable and the signature can be checked.';

export function createWebhooksService(deps: WebhooksServiceDeps) {
  const { endpoints, deliveries, secretBox } = deps;

  async function requireOrganization(organizationId: number): Promise<void> {
    if (!(await deps.organizations.get(organizationId)))
      throw notFound('ORGANIZATION_NOT_FOUND', `organization ${organizationId} does not exist`);
  }

  const notConfigured = (organizationId: number) =>
    notFound('WEBHOOK_NOT_CONFIGURED', `organization ${organizationId} has no webhook endpoint`);

  async function requireEndpoint(organizationId: number) {
    const endpoint = await endpoints.get(organizationId);
    if (!endpoint) throw notConfigured(organizationId);
    return endpoint;
  }

  const deliveryNotFound = (id: number) => notFound('WEBHOOK_DELIVERY_NOT_FOUND', `delivery ${id} does not exist`);

  /** Checks the URL, seals the secret, stores and audits; the organization is known to exist. */
  async function store(
    organizationId: number,
    input: WebhookEndpointInput,
    actor: Actor,
    action: 'webhook.changed' | 'webhook.secret_rotated',
  ) {
    const checked = await validateWebhookUrl(input.url, { allowInsecure: deps.allowInsecure, resolve: deps.resolve });
    if (!checked.ok) throw refusedField(checked.code, checked.message, 'url', checked.message);
    const currentSealed = await endpoints.currentSecretSealed(organizationId);
    const current = currentSealed === undefined ? undefined : secretBox.open(currentSealed);
    const secret = input.secret ?? current;
    if (secret === undefined)
      throw refusedField(
        'WEBHOOK_SECRET_REQUIRED',
        'secret is required for a new endpoint',
        'secret',
        'is required for a new endpoint',
      );
    const secretChanged = current !== undefined && !secretsEqual(current, secret);
    const keepHours = secretChanged
      ? (input.keepPreviousSecretHours ?? DEFAULT_KEEP_PREVIOUS_HOURS)
      : input.keepPreviousSecretHours;
    const endpoint = await endpoints.upsert({
      organizationId,
      url: checked.url.toString(),
      secretSealed: secretBox.seal(secret),
      secretChanged,
      events: [...new Set(input.events ?? WEBHOOK_CATEGORIES)],
      enabled: input.enabled ?? true,
      keepPreviousSecretMs: keepHours === undefined ? undefined : keepHours * 3_600_000,
    });
    deps.endpointChanged();
    await deps.audit.record(actor, action, {
      organizationId,
      details: { url: endpoint.url, events: endpoint.events, enabled: endpoint.enabled, secretChanged },
    });
    // Deliveries that waited for the endpoint to come back are due now.
    if (endpoint.enabled) deps.nudge();
    return endpoint;
  }

  return {
    async setEndpoint(organizationId: number, input: WebhookEndpointInput, actor: Actor = { type: 'operator' }) {
      await requireOrganization(organizationId);
      return store(organizationId, input, actor, 'webhook.changed');
    },

    /**
     * A new secret for the configured endpoint, the rest as it is; the previous secret is still
     * signed with for DEFAULT_KEEP_PREVIOUS_HOURS.
     */
    async rotateSecret(organizationId: number, secret: string, actor: Actor) {
      await requireOrganization(organizationId);
      const { url, events, enabled } = await requireEndpoint(organizationId);
      return store(organizationId, { url, events, enabled, secret }, actor, 'webhook.secret_rotated');
    },

    /**
     * Removes the endpoint and its secrets: no new deliveries are made. The log stays; deliveries
     * still pending wait, as for a disabled endpoint, until an endpoint is set again or their retry
     * window ends.
     */
    async removeEndpoint(organizationId: number, actor: Actor = { type: 'operator' }): Promise<void> {
      await requireOrganization(organizationId);
      if (!(await endpoints.remove(organizationId))) throw notConfigured(organizationId);
      deps.endpointChanged();
      await deps.audit.record(actor, 'webhook.removed', { organizationId });
    },

    /** The endpoint, or undefined when none is configured. */
    async findEndpoint(organizationId: number) {
      await requireOrganization(organizationId);
      return endpoints.get(organizationId);
    },

    async getEndpoint(organizationId: number) {
      await requireOrganization(organizationId);
      return requireEndpoint(organizationId);
    },

    async listDeliveries(
      organizationId: number,
      filter: { state?: DeliveryState },
      page: { page: number; size: number },
    ) {
      await requireOrganization(organizationId);
      return deliveries.list(organizationId, filter, page);
    },

    async getDelivery(organizationId: number, id: number) {
      await requireOrganization(organizationId);
      const delivery = await deliveries.get(organizationId, id);
      if (!delivery) throw deliveryNotFound(id);
      return delivery;
    },

    /** Sends a delivery again now: the same event id and body, a fresh retry window. */
    async redeliver(organizationId: number, id: number) {
      await requireOrganization(organizationId);
      const delivery = await deliveries.redeliver(organizationId, id, deps.retryWindowMs);
      if (!delivery) throw deliveryNotFound(id);
      deps.nudge();
      return delivery;
    },

    /** Enqueues a webhook.test event to the (enabled) endpoint. */
    async sendTest(organizationId: number): Promise<{ deliveryId: number; eventId: string }> {
      await requireOrganization(organizationId);
      const endpoint = await requireEndpoint(organizationId);
      if (!endpoint.enabled) throw conflict('WEBHOOK_DISABLED', 'the webhook endpoint is disabled; enable it first');
      const eventId = uuidv7();
      const payload = serializeWebhookEvent({
        id: eventId,
        type: 'webhook.test',
        category: 'test',
        occurredAt: new Date().toISOString(),
        organizationId,
        data: { message: TEST_MESSAGE },
      });
      const [deliveryId] = await deliveries.enqueue(
        [{ organizationId, eventId, eventType: 'webhook.test', payload }],
        deps.retryWindowMs,
      );
      deps.nudge();
      return { deliveryId: deliveryId!, eventId };
    },
  };
}
