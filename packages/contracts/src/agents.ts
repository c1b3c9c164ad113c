import { z } from 'zod';
import { idRef, text } from './fields.ts';
import { OLDEST_AGENT_API_VERSION, agentStatusSchema, deviceFailureReasonSchema, olderVersion, type AgentStatus, type DeviceFailureReason } from './agent-api.ts';
import { defineList, timestamp } from './list.ts';
import { statusDefs } from './status-defs.ts';
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
  /** Updates paused for this agent; the last release it refused and why (issue 44). */
  updatesPaused: z.boolean(),
  updateRefused: z.object({ version: z.string(), reason: z.string() }).nullable(),
});
export type Agent = z.infer<typeof agentSchema>;

/** A row of the agents grid: the agent's fields, its location and the release it refused (if any) flat. */
export const agentListRowSchema = agentSchema
  .pick({ id: true, name: true, status: true, lastContactAt: true, version: true, hostname: true, rangeCount: true, deviceCount: true, updateRequired: true, updatesPaused: true })
  .extend({ locationId: z.number().int(), locationName: z.string(), updateRefusedVersion: z.string().nullable() });
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
export const agentStatusViewSchema = agentSchema
  .pick({ id: true, status: true, statusMessage: true, lastContactAt: true, version: true, updateRequired: true })
  .extend({ updatePending: z.boolean(), runs: z.array(agentRunRowSchema) });
export type AgentStatusView = z.infer<typeof agentStatusViewSchema>;

/** GET /api/agents/release: the agent release this server offers, and whether updates are paused for every agent. */
export const agentReleaseViewSchema = z.object({
  version: z.string().nullable(),
  paused: z.boolean(),
});
export type AgentReleaseView = z.infer<typeof agentReleaseViewSchema>;

/** Where an agent stands with the release the server offers (the agents grid's version column). */
export const AGENT_UPDATE_STATES = ['current', 'available', 'paused', 'refused'] as const;
export type AgentUpdateState = (typeof AGENT_UPDATE_STATES)[number];
export const AGENT_UPDATE_STATE_DEFS = statusDefs<AgentUpdateState>('agents.update', { current: 'teal', available: 'blue', paused: 'gray', refused: 'red' });

/** The update state of an agent; null when nothing can be said (no release, or the agent never reported its version). */
export function agentUpdateState(row: Pick<AgentListRow, 'version' | 'updatesPaused' | 'updateRefusedVersion'>, release: AgentReleaseView | undefined): AgentUpdateState | null {
  if (!release?.version || !row.version) return null;
  if (!olderVersion(row.version, release.version)) return 'current';
  if (row.updateRefusedVersion === release.version) return 'refused';
  return release.paused || row.updatesPaused ? 'paused' : 'available';
}

/** PUT /api/agents/{id}/updates: pause or resume this agent's updates. */
export const agentUpdatesInputSchema = z.object({ paused: z.boolean() });

/** Agent statuses, each defined once: label key and colour (house style 5). */
export const AGENT_STATUS_DEFS = statusDefs<AgentStatus>('agents.status', { IDLE: 'teal', STARTING: 'cyan', RUNNING: 'blue', ERROR: 'red', STOPPING: 'orange', STOPPED: 'gray' });

/** The agents grid (`/api/agents`, `/api/agents-v`). */
export const agentsList = defineList(agentListRowSchema, {
  endpoint: '/agents',
  defaultSort: [{ field: 'name', dir: 'ASC' }],
  columns: [
    'name', 'status', 'lastContactAt', 'version', 'hostname', 'locationName', 'rangeCount',
    'deviceCount'
  ],
  hidden: ['locationId', 'id', 'updateRequired', 'updatesPaused', 'updateRefusedVersion'],
  unsortable: ['locationId', 'updateRequired'],
  unfilterable: ['rangeCount', 'deviceCount', 'updateRequired'],
});

/**
 * Why a device is not collected (issue 44): the latest outcome of each device of an agent's
 * ranges, from the agent's run reports (GET /api/agents/{id}/devices-status).
 */
export const DEVICE_OUTCOMES = ['OK', 'FAILED'] as const;
/** Runs in a row that did not read a device before home lists it. */
export const UNREAD_RUNS = 3;
/** Rows one answer carries at most (the failing first); `totalRows` says how many matched. */
export const DEVICE_STATUS_ROWS = 1000;
export const agentDeviceStatusRowSchema = z.object({
  ip: z.string(),
  /** The device known at the address through the agent, if any (and the caller's to see). */
  deviceId: z.number().int().nullable(),
  modelCode: z.string().nullable(),
  serialNumber: z.string().nullable(),
  rangeId: z.number().int().nullable(),
  outcome: z.enum(DEVICE_OUTCOMES),
  lastOkAt: timestamp().nullable(),
  lastOkMs: z.number().int().nullable(),
  lastFailureAt: timestamp().nullable(),
  lastFailureReason: deviceFailureReasonSchema.nullable(),
  lastFailureMs: z.number().int().nullable(),
  /** Runs in a row that did not read it (0: the last one did). */
  failuresInRow: z.number().int(),
});
export type AgentDeviceStatusRow = z.infer<typeof agentDeviceStatusRowSchema>;
export const agentDevicesStatusQuerySchema = z.object({
  outcome: z.enum(DEVICE_OUTCOMES).optional(),
  reason: deviceFailureReasonSchema.optional(),
  /** The start of an address (`10.1.` finds 10.1.x.x). */
  address: z.string().max(15).regex(/^[0-9.]*$/, 'general.badValue').optional(),
});
export type AgentDevicesStatusQuery = z.infer<typeof agentDevicesStatusQuerySchema>;
export const agentDevicesStatusSchema = z.object({ rows: z.array(agentDeviceStatusRowSchema), totalRows: z.number().int() });
export type AgentDevicesStatus = z.infer<typeof agentDevicesStatusSchema>;
/** Devices to show each reason with: the one definition of its label and colour. */
export const DEVICE_FAILURE_DEFS = statusDefs<DeviceFailureReason>('agents.reason', { TIMEOUT: 'orange', REFUSED: 'red', AUTH: 'grape', NO_PRINTER_MIB: 'gray', PROFILE_ERROR: 'pink' });

