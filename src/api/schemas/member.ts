// A console member as the operator API and the console show one, and the member they add.
import { z } from 'zod';
import type { Member } from '../../core/accounts/members.service.js';
import { ROLES } from '../../shared/roles.js';

export const memberSchema = z.object({
  id: z.number().int().describe('the user id'),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(ROLES),
  joinedAt: z.string(),
  lastLoginAt: z.string().nullable(),
});

/** A member to add (or whose role to change): the body of both APIs' member routes. */
export const newMemberSchema = z.object({
  email: z.string().trim().min(3).max(254),
  role: z.enum(ROLES),
  name: z.string().trim().min(1).max(200).optional(),
});

export const toMemberJson = (m: Member) => ({
  id: m.id,
  email: m.email,
  name: m.name,
  role: m.role,
  joinedAt: m.joinedAt.toISOString(),
  lastLoginAt: m.lastLoginAt?.toISOString() ?? null,
});
