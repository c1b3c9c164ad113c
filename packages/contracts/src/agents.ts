import { z } from 'zod';
import { idRef, text } from './fields.ts';
import { OLDEST_AGENT_API_VERSION, agentStatusSchema, type AgentStatus } from './agent-api.ts';
import { defineList, timestamp } from './list.ts';
import { locationRefSchema } from './users.ts';

/** An agent as the console sees it (never its token: that is shown once, at create or regenerate). */
export const agentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  status: agentStatusSchema,
  statusMessage: z.string().nullable(),
  lastContactAt: timestamp().nullable(),
  version: z.string().nullable(),
  hostname: z.string().nullable(),
  platform: z.string().nullable(),
  location: locationRefSchema,
  builtin: z.boolean(),
  rangeCount: z.number().int(),
  deviceCount: z.number().int(),
  createdAt: z.string(),
  /** The agent last spoke an agent API older than the server takes (agent-api.ts): it must be updated. */
  updateRequired: z.boolean(),
});
export type Agent = z.infer<typeof agentSchema>;

export const agentListRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: agentStatusSchema,
  lastContactAt: timestamp().nullable(),
  version: z.string().nullable(),
  hostname: z.string().nullable(),
  locationId: z.number().int(),
  locationName: z.string(),
  rangeCount: z.number().int(),
  deviceCount: z.number().int(),
  updateRequired: z.boolean(),
});
export type AgentListRow = z.infer<typeof agentListRowSchema>;

export const agentInputSchema = z.object({
  name: text(250).trim().min(1, 'general.mandatory'),
  description: text(2000).nullable().optional(),
  location: idRef,
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

/** An agent that last spoke an agent API older than the server takes must be updated (NULL: it has not called yet). */
export const updateRequired = (apiVersion: number | null): boolean => apiVersion !== null && apiVersion < OLDEST_AGENT_API_VERSION;

/** GET /api/agents/{id}/status. */
export const agentStatusViewSchema = z.object({
  id: z.number().int(),
  status: agentStatusSchema,
  statusMessage: z.string().nullable(),
  lastContactAt: timestamp().nullable(),
  version: z.string().nullable(),
  updatePending: z.boolean(),
  updateRequired: z.boolean(),
  runs: z.array(agentRunRowSchema),
});
export type AgentStatusView = z.infer<typeof agentStatusViewSchema>;

/** Agent statuses, each defined once: label key and colour (house style 5). */
export const AGENT_STATUS_DEFS: Record<AgentStatus, { labelKey: string; color: string }> = {
  IDLE: { labelKey: 'agents.status.IDLE', color: 'teal' },
  STARTING: { labelKey: 'agents.status.STARTING', color: 'cyan' },
  RUNNING: { labelKey: 'agents.status.RUNNING', color: 'blue' },
  ERROR: { labelKey: 'agents.status.ERROR', color: 'red' },
  STOPPING: { labelKey: 'agents.status.STOPPING', color: 'orange' },
  STOPPED: { labelKey: 'agents.status.STOPPED', color: 'gray' },
};

/** The agents grid (`/api/agents`, `/api/agents-v`). */
export const agentsList = defineList(agentListRowSchema, {
  endpoint: '/agents',
  defaultSort: [{ field: 'name', dir: 'ASC' }],
  columns: [
    'name', 'status', 'lastContactAt', 'version', 'hostname', 'locationName', 'rangeCount',
    'deviceCount'
  ],
  hidden: ['locationId', 'id', 'updateRequired'],
  unsortable: ['locationId', 'updateRequired'],
  unfilterable: ['rangeCount', 'deviceCount', 'updateRequired'],
});
