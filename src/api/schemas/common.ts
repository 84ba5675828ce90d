// zod schemas shared by every API layer: the error body, ids, paging.
import { z } from 'zod';

export const fieldErrorSchema = z
  .object({
    field: z
      .string()
      .describe(
        'The refused field: its dotted path in the request body (`url`, `routingRules.0.url`), or the name of the query or path parameter',
      ),
    message: z.string().describe('What is wrong with it, for a person'),
  })
  .meta({ id: 'FieldError' });

export type FieldError = z.infer<typeof fieldErrorSchema>;

export const errorBodySchema = z
  .object({
    status: z.number().int().describe('HTTP status'),
    error: z.string().describe('HTTP reason phrase'),
    message: z.string().describe('What went wrong, for a person'),
    timestamp: z.string().describe('ISO-8601, UTC'),
    code: z.string().describe('Machine-readable error code, such as API_KEY_INVALID'),
    details: z
      .array(fieldErrorSchema)
      .optional()
      .describe(
        'On a 400: the refused fields of the request, one entry each; empty when no single field is at fault (a body that is not JSON, a combination of fields). On a 403 `API_KEY_SCOPE_MISSING`: the field `scope`, naming the scope the key lacks',
      ),
  })
  .meta({ id: 'ErrorBody' });

export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Path ids are Longs: positive integers that fit a JS number exactly. */
export const idSchema = z.coerce
  .number({ error: 'must be a positive integer' })
  .int('must be a positive integer')
  .positive('must be a positive integer')
  .max(Number.MAX_SAFE_INTEGER, 'is too large');

export const idParams = z.object({ id: idSchema });

/** The error answers every authenticated route can give, for the OpenAPI document. */
export const commonErrorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
} as const;

/** Text fields of a record that may be empty: each a string or null, in the order named. */
export function nullableStrings<K extends string>(...names: K[]): { [P in K]: z.ZodNullable<z.ZodString> } {
  return Object.fromEntries(names.map((name) => [name, z.string().nullable()])) as {
    [P in K]: z.ZodNullable<z.ZodString>;
  };
}
