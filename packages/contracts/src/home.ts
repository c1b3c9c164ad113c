import { z } from 'zod';
import { DEVICE_STATUS_CODES } from './device-events.ts';
import { homeDeviceSchema, identityPairSchema } from './devices.ts';
import { timestamp } from './list.ts';
import { METER_FLAG_KINDS } from './meter-flags.ts';
import { deviceFailureReasonSchema } from './agent-api.ts';

/**
 * `/home` (issue 21): what needs the caller today, over their locations. Every part is a count
 * or a short list that links to the grid behind it; `null` parts are those the caller's grants
 * do not show (devices without MNU_DEVICES.READ, agents without MNU_AGENTS.READ).
 */

/** Supplies that run out within these many days (the forecast's `daysLeft`): home counts the first two. */
export const RUNS_OUT_RANGES = [7, 14, 30] as const;
/** An agent silent for longer than this has stopped reporting. */
export const AGENT_SILENT_MINUTES = 30;
/** How many rows the short lists of home carry. */
export const HOME_LIST_ROWS = 10;

const count = z.number().int().nonnegative();

const pages = z.object({ bw: count, color: count, total: count });

export const homeSchema = z.object({
  devices: z
    .object({
      total: count,
      byStatus: z.record(z.enum(DEVICE_STATUS_CODES), count),
      /** Devices with maintenance on (the managed flag). */
      maintenance: count,
      /** Supplies whose forecast says they run out within 7 and 14 days (empty ones included), and those at 0%. */
      runsOut: z.object({ within7: count, within14: count, empty: count }),
      /** Devices that need attention (a jam, an error, an open cover…), the longest first. */
      attention: z.object({
        count,
        rows: z.array(homeDeviceSchema.extend({ statusCode: z.string(), problems: z.array(z.string()), since: timestamp().nullable() })),
      }),
      /**
       * Pages of this month so far and of the same days of last month (forward steps of the
       * counters), in all and per location; `span` says which days (YYYY-MM-DD, UTC, issue 54).
       */
      pages: z.object({
        thisMonth: pages,
        lastMonth: pages,
        span: z.object({ thisFrom: z.string(), thisTo: z.string(), lastFrom: z.string(), lastTo: z.string() }),
        byLocation: z.array(z.object({ locationId: z.number().int(), locationName: z.string(), thisMonth: pages, lastMonth: pages })),
      }),
      /** Data quality: devices that matched no profile and wait for a walk, counters that went backwards, identity pairs. */
      quality: z.object({
        noProfile: count,
        counterBackwards: count,
        identity: z.array(identityPairSchema),
        /** One serial answering at two addresses in turn (two printers that report the same serial). */
        sharedSerials: z.array(z.object({ device: homeDeviceSchema, addresses: z.array(z.string()) })),
        /**
         * Implausible meter reads of the last METER_FLAG_HOME_DAYS days: devices with any flag and
         * with each kind, and the devices, the most recently flagged first.
         */
        meterFlags: z.object({
          devices: count,
          byKind: z.record(z.enum(METER_FLAG_KINDS), count),
          rows: z.array(homeDeviceSchema.extend({ kinds: z.array(z.enum(METER_FLAG_KINDS)), lastAt: timestamp() })),
        }),
      }),
    })
    .nullable(),
  agents: z
    .object({
      total: count,
      /** Agents silent for over AGENT_SILENT_MINUTES, or never heard from. */
      silent: z.array(z.object({ id: z.number().int(), name: z.string(), locationName: z.string(), lastContactAt: timestamp().nullable() })),
      ranges: count,
      /**
       * Devices of the agents' ranges not read for UNREAD_RUNS runs in a row, with the last
       * reason (issue 44), the longest first; `count` is all of them.
       */
      notRead: z.object({
        count,
        rows: z.array(z.object({
          agentId: z.number().int(), agentName: z.string(), ip: z.string(), reason: deviceFailureReasonSchema.nullable(),
          failuresInRow: count, lastOkAt: timestamp().nullable(),
        })),
      }),
    })
    .nullable(),
  /** When the figures were computed: they follow device events within seconds. */
  computedAt: timestamp(),
  /** Newer figures are being computed (a device event came since): ask again in a second. */
  pending: z.boolean(),
});
export type Home = z.infer<typeof homeSchema>;
