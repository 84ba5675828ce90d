// How the console API's routes are documented (in /openapi.json only, not on /docs): one tag, the
// session cookie as their security, the errors every console route may answer, and the
// organization in the path.
import { z } from 'zod';
import { errorBodySchema, idSchema } from '../schemas/common.js';

export const tags = ['console'];
/** The session cookie; state changes also need X-CSRF-Token. */
export const security = [{ consoleSession: [] }];
export const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
/** The errors of a route whose change can clash with what exists (409). */
export const writeErrors = { ...errors, 409: errorBodySchema };
export const orgParams = z.object({ orgId: idSchema });
