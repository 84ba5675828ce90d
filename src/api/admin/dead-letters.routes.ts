// Operator view of the event pipeline's dead letters: events that could never be written (refused
// by ClickHouse, undecodable, invalid) and poison messages a consumer parked, newest first, with
// the reason. The NATS bus keeps them in its DLQ stream, the in-process bus in its dead-letter file
// under DATA_DIR.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../schemas/common.js';

const deadLetterSchema = z
  .object({
    subject: z.string().describe('the subject the message was published on, such as events.click'),
    id: z.string().describe('the message id; for one event of a batch, the batch id and the event id'),
    reason: z.string(),
    at: z.string().describe('when it was dead-lettered, ISO-8601 UTC'),
  })
  .meta({ id: 'DeadLetter' });

/** Recent dead letters of the event pipeline, newest first; undefined where the bus keeps none it can list. */
export interface DeadLetters {
  recent(limit: number): Promise<{ subject: string; id: string; reason: string; at: Date }[] | undefined>;
}

export const adminDeadLetterRoutes: FastifyPluginAsyncZod<{ deadLetters: DeadLetters }> = async (
  app,
  { deadLetters },
) => {
  app.get(
    '/dead-letters',
    {
      schema: {
        summary: 'Recent dead letters of the event pipeline, newest first',
        description:
          'listed is false when the bus keeps no dead-letter store it can list (an in-process bus without a data directory).',
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }),
        response: {
          200: z.object({ listed: z.boolean(), content: z.array(deadLetterSchema) }),
          400: errorBodySchema,
          401: errorBodySchema,
        },
      },
    },
    async (request) => {
      const letters = await deadLetters.recent(request.query.limit);
      if (!letters) return { listed: false, content: [] };
      return { listed: true, content: letters.map((l) => ({ ...l, at: l.at.toISOString() })) };
    },
  );
};
