import { z } from 'zod';
import { namedRefSchema } from './fields.ts';
import { timestamp } from './list.ts';
import { statusDefs } from './status-defs.ts';

/**
 * Alerts (issue 42): a condition from its start to its end (a device not available, issue 54, from
 * OFFLINE_MISSED_POLLS missed polls until it is read again), told once when it starts and once
 * when it clears. Each kind is defined once: its label key and colour (house style 5).
 */
export const ALERT_KINDS = ['DEVICE_ERROR', 'DEVICE_OFFLINE', 'SUPPLY_LOW', 'AGENT_SILENT'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_KIND_DEFS = statusDefs<AlertKind>('alerts.kind', { DEVICE_ERROR: 'red', DEVICE_OFFLINE: 'orange', SUPPLY_LOW: 'yellow', AGENT_SILENT: 'gray' });

/**
 * A supply's alert clears only when its level is this many points above the threshold: a level
 * read a point higher and then lower again (10 → 11 → 9) is the same low supply, not a new one.
 */
export const SUPPLY_CLEAR_MARGIN = 5;

/** `GET /api/alerts`: open ones only by default (`open=false`: the resolved too, the newest first). */
export const alertsQuerySchema = z.object({
  open: z.enum(['true', 'false'], 'general.badValue').default('true').transform((v) => v === 'true'),
  limit: z.coerce.number('general.badValue').int('general.badValue').min(1, 'general.badValue').max(500, 'general.badValue').default(100),
});

export const alertSchema = z.object({
  id: z.number().int(),
  kind: z.enum(ALERT_KINDS),
  /** What it is about: a device (and a supply of it) or an agent. */
  device: z.object({ id: z.number().int(), modelCode: z.string().nullable(), serialNumber: z.string().nullable(), ip: z.string() }).nullable(),
  supply: z.object({ index: z.number().int(), name: z.string().nullable(), level: z.number().nullable() }).nullable(),
  agent: namedRefSchema.nullable(),
  locationName: z.string(),
  startedAt: timestamp(),
  resolvedAt: timestamp().nullable(),
  acknowledgedBy: z.string().nullable(),
  acknowledgedAt: timestamp().nullable(),
});
export type Alert = z.infer<typeof alertSchema>;
