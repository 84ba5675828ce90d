// How the SDK answers name the link behind a token or a code: the short URL or the campaign.
import { z } from 'zod';

export const urlRefSchema = z.object({ id: z.number().int(), alias: z.string().describe('the short code') });
export const campaignRefSchema = z.object({ id: z.number().int(), name: z.string(), alias: z.string() });
