import { z } from 'zod';
import { agentStatusSchema } from './agent-api.ts';
import { locationRefSchema } from './users.ts';

/** An agent as the console sees it (never its token: that is shown once, at create or regenerate). */
export const agentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  status: agentStatusSchema,
  statusMessage: z.string().nullable(),
  lastContactAt: z.string().nullable(),
  version: z.string().nullable(),
  hostname: z.string().nullable(),
  platform: z.string().nullable(),
  location: locationRefSchema,
  builtin: z.boolean(),
  rangeCount: z.number().int(),
  deviceCount: z.number().int(),
  createdAt: z.string(),
});
export type Agent = z.infer<typeof agentSchema>;

export const agentListRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: agentStatusSchema,
  lastContactAt: z.string().nullable(),
  version: z.string().nullable(),
  hostname: z.string().nullable(),
  locationId: z.number().int(),
  locationName: z.string(),
  rangeCount: z.number().int(),
  deviceCount: z.number().int(),
});
export type AgentListRow = z.infer<typeof agentListRowSchema>;

export const agentInputSchema = z.object({
  name: z.string().trim().min(1, 'general.mandatory').max(250, 'general.maxLength'),
  description: z.string().max(2000, 'general.maxLength').nullable().optional(),
  location: z.object({ id: z.number().int() }, 'general.mandatory'),
});
export type AgentInput = z.infer<typeof agentInputSchema>;

/** Create and regenerate answer with the token, which is never shown again. */
export const agentWithTokenSchema = agentSchema.extend({ token: z.string() });
export type AgentWithToken = z.infer<typeof agentWithTokenSchema>;

export const agentRunRowSchema = z.object({
  runId: z.string(),
  logId: z.number().int(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  logLevel: z.string(),
  durationMs: z.number().int().nullable(),
  message: z.string(),
});
export type AgentRunRow = z.infer<typeof agentRunRowSchema>;

/** GET /api/agents/{id}/status. */
export const agentStatusViewSchema = z.object({
  id: z.number().int(),
  status: agentStatusSchema,
  statusMessage: z.string().nullable(),
  lastContactAt: z.string().nullable(),
  version: z.string().nullable(),
  updatePending: z.boolean(),
  runs: z.array(agentRunRowSchema),
});
export type AgentStatusView = z.infer<typeof agentStatusViewSchema>;
