import { z } from 'zod';
import { int32, text } from './fields.ts';
import { readingSchema } from './reading.ts';
import { agentQueueSchema, type QueueJobsRun, type QueueJobsRunResult } from './agent-queues.ts';

/**
 * The protocol between an agent and the server (all under /api/agent, with the agent's own
 * bearer token, issued once when the agent is created in the console).
 *
 *   POST /api/agent/register      { version, hostname, platform }      -> AgentConfig
 *   GET  /api/agent/config                                            -> AgentConfig
 *   GET  /api/agent/models-pack                                        -> the models pack JSON
 *   POST /api/agent/status        { status, message? }                 -> 204
 *   POST /api/agent/runs          { runId, startedAt }                 -> { logId }
 *   POST /api/agent/runs/:runId/problems { rangeId?, level, message }  -> 204
 *   POST /api/agent/runs/:runId/finish   { finishedAt, rangeResults }  -> 204
 *   POST /api/agent/readings      ReadingBatch                         -> BatchResult
 *   GET  /api/agent/update/:platform   the executable of the release offered in AgentConfig.update
 *   POST /api/agent/update/refused { version, error }                  -> 204
 *
 * Readings carry ids: a batch sent twice is stored once. Each reading of a batch is checked on
 * its own: a bad one is named in `rejected` (with its id and field) and the rest are stored; a
 * batch that is not a batch at all (no batchId, no readings array) is a 400 as a whole. Readings of one run carry its runId,
 * so the server can tell which known devices a finished run did not see (not available).
 */

/**
 * The agent API's version (issue 44). An agent says which it speaks in the AGENT_API_HEADER of
 * every request; agents of version 1 (the release up to commit 52ac3d0) send none, so none means
 * 1. The server takes its own version and the one before it, so that an agent one release older
 * keeps working while it is updated; an older one is answered 426 AGENT_UPDATE_REQUIRED (never a
 * bare 400), which the agent logs and the console shows on the agent. Raise AGENT_API_VERSION
 * when a request changes in a way the previous server could not take, and record the previous
 * release's requests (apps/server/test/fixtures/agent-api/) so the tests replay them.
 *   1: up to 52ac3d0.
 *   2: run results may carry each device's outcome (rangeResultSchema.devices).
 */
export const AGENT_API_HEADER = 'x-pagewatch-agent-api';
export const AGENT_API_VERSION = 2;
export const OLDEST_AGENT_API_VERSION = AGENT_API_VERSION - 1;
/** What the header may hold: a version number (a newer agent than the server is taken too). */
export const agentApiVersionSchema = z.coerce.number().int().min(0).max(1000);
export const AGENT_STATUSES = ['IDLE', 'STARTING', 'RUNNING', 'ERROR', 'STOPPING', 'STOPPED'] as const;
export const agentStatusSchema = z.enum(AGENT_STATUSES);
export type AgentStatus = z.infer<typeof agentStatusSchema>;

export const NETWORK_RANGE_TYPES = ['BROADCAST', 'NETMASK', 'RANGE'] as const;
export const networkRangeTypeSchema = z.enum(NETWORK_RANGE_TYPES);

export const snmpCredentialsSchema = z.discriminatedUnion('version', [
  z.object({ version: z.literal('1'), community: z.string().min(1).max(255) }),
  z.object({ version: z.literal('2c'), community: z.string().min(1).max(255) }),
  z.object({
    version: z.literal('3'),
    user: z.string().min(1).max(255),
    level: z.enum(['noAuthNoPriv', 'authNoPriv', 'authPriv']),
    authProtocol: z.enum(['md5', 'sha', 'sha224', 'sha256', 'sha384', 'sha512']).nullable(),
    authKey: z.string().max(255).nullable(),
    privProtocol: z.enum(['des', 'aes', 'aes256b', 'aes256r']).nullable(),
    privKey: z.string().max(255).nullable(),
  }),
]);
export type SnmpCredentials = z.infer<typeof snmpCredentialsSchema>;

/** The addresses of a range: BROADCAST and NETMASK use address+mask, RANGE uses from-to. */
export const rangeAddressFields = {
  type: networkRangeTypeSchema,
  address: z.string().nullable(),
  mask: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
};

/** A range as the agent scans it. */
export const agentRangeSchema = z.object({
  id: z.number().int(),
  ...rangeAddressFields,
  port: z.number().int().min(1).max(65535),
  snmp: snmpCredentialsSchema,
  /** Cap on discovery requests a second (absent from servers before issue 22: the agent's default). */
  packetsPerSecond: z.number().int().min(1).max(100_000).optional(),
});
export type AgentRange = z.infer<typeof agentRangeSchema>;

/** The platforms the agent is built for as one executable (apps/agent/scripts/build-agent.ts). */
export const AGENT_RELEASE_PLATFORMS = ['linux-x64', 'win-x64'] as const;
export const agentReleasePlatformSchema = z.enum(AGENT_RELEASE_PLATFORMS);
export type AgentReleasePlatform = z.infer<typeof agentReleasePlatformSchema>;

/** A release's file: a plain name in the downloads folder, never a path, `.` or `..` (issue 52). */
const RELEASE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** What a release is: its version and each platform's executable (the manifest the release key signs). */
export const agentReleaseManifestSchema = z.object({
  version: z.string().min(1).max(50),
  files: z.array(z.object({
    platform: agentReleasePlatformSchema,
    name: z.string().min(1).max(100).regex(RELEASE_FILE_NAME),
    size: z.number().int().positive().max(1_000_000_000),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })).max(AGENT_RELEASE_PLATFORMS.length),
});
export type AgentReleaseManifest = z.infer<typeof agentReleaseManifestSchema>;

/** The release file beside the builds: the manifest as the signed text and its Ed25519 signature (base64, null when unsigned). */
export const agentReleaseFileSchema = z.object({ manifest: z.string().min(2).max(10_000), signature: z.string().max(200).nullable() });
export type AgentReleaseFile = z.infer<typeof agentReleaseFileSchema>;

/**
 * An update offered to an agent that reported an older version (issue 44): the signed release
 * it checks, the executable's checksum; it downloads it from GET /api/agent/update/:platform,
 * on its own server only.
 */
export const agentUpdateOfferSchema = agentReleaseFileSchema.extend({
  version: z.string().min(1).max(50),
  platform: agentReleasePlatformSchema,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().positive().max(1_000_000_000),
});
export type AgentUpdateOffer = z.infer<typeof agentUpdateOfferSchema>;

/** Whether version `a` is older than `b`, by their numeric parts (1.9.0 < 1.10.0); a version without any is never older. */
export function olderVersion(a: string, b: string): boolean {
  const parts = (v: string) => (v.match(/\d+/g) ?? []).map(Number);
  const x = parts(a);
  const y = parts(b);
  if (!x.length || !y.length) return false;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  }
  return false;
}

/** POST /api/agent/update/refused: an offered release the agent would not install, and why (shown in the agents grid). */
export const agentUpdateRefusedSchema = z.object({ version: text(50), error: text(500) });

export const agentConfigSchema = z.object({
  agentId: z.number().int(),
  name: z.string(),
  periodicityMinutes: z.number().int().positive(),
  modelsVersion: z.number().int().nullable(),
  ranges: z.array(agentRangeSchema),
  /**
   * Added later, optional for older agents: true once after "notify all: update version" in the
   * console; the agent then re-fetches its config and the models pack. `configVersion` rises
   * with every such request.
   */
  updateRequested: z.boolean().optional(),
  configVersion: z.number().int().optional(),
  /** Devices the console asked a fresh walk of: the next run sends them with a full walk. */
  walkRequests: z.array(z.object({ deviceId: z.number().int(), ip: z.string(), port: z.number().int() })).optional(),
  /** The print queues it reads (agent-queues.ts); absent from servers before them. */
  queues: z.array(agentQueueSchema).optional(),
  /** A newer release for this agent's platform, unless updates are paused (absent from servers before issue 44). */
  update: agentUpdateOfferSchema.nullable().optional(),
});
export type AgentConfig = z.infer<typeof agentConfigSchema>;

export const agentRegisterSchema = z.object({
  version: text(50),
  hostname: text(255),
  platform: text(100),
});

export const agentStatusReportSchema = z.object({
  status: agentStatusSchema,
  message: text(2000).optional(),
  /** Records in the agent's spool not yet delivered (absent from agents before it was added). */
  spoolDepth: z.number().int().min(0).max(1_000_000_000).optional(),
});

export const agentRunStartSchema = z.object({ runId: z.uuid(), startedAt: z.iso.datetime() });
export const agentRunProblemSchema = z.object({
  rangeId: int32.nullable().optional(),
  level: z.enum(['I', 'W', 'E']),
  message: text(2000),
});
/**
 * Why a device that answered gave nothing usable: v1/v2c silent to the range's community while
 * the device answers SNMPv3 (it was heard from before, so the community changed), an SNMPv3
 * authentication or user error, a report PDU, an answer that is not SNMP or not well formed, an
 * SNMP error status.
 */
export const REFUSAL_REASONS = ['community', 'auth', 'report', 'malformed', 'error-status'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
/** Devices a summary names with their reason: enough to look at, small enough to log. */
export const MAX_SUMMARY_REFUSALS = 5;
/**
 * What became of a range's devices in a run (absent from agents before issue 22): read with
 * answers under a second, read but slow (a smoothed answer time of a second or more), found but
 * silent to the poll (after every retry), heard from in an earlier run but silent now, and
 * answering but refusing the request.
 */
export const rangeSummarySchema = z.object({
  answered: int32.nonnegative(),
  slow: int32.nonnegative(),
  timedOut: int32.nonnegative(),
  unreachable: int32.nonnegative(),
  /** Answered but refused (absent from agents before it: counted in timedOut or unreachable then). */
  refused: int32.nonnegative().optional(),
  /** The first refused devices and why. */
  refusals: z.array(z.object({ ip: z.ipv4(), reason: z.enum(REFUSAL_REASONS) })).max(MAX_SUMMARY_REFUSALS).optional(),
  /**
   * Addresses discovery could not probe in time, the agent being too busy (issue 53; absent from
   * agents before it): neither found nor known to be empty.
   */
  unprobed: int32.nonnegative().optional(),
});
/**
 * Why a device of a range was not read (issue 44): silent after every retry (a wrong v1/v2c
 * community looks the same: the device just does not answer), an answer refusing the request
 * (not SNMP, an SNMP error status), an SNMPv3 user or key refused (or a community refused where
 * the device is known to answer SNMPv3), a device that answers SNMP but is no printer, and a
 * reading the model's profile could not make.
 */
export const DEVICE_FAILURE_REASONS = ['TIMEOUT', 'REFUSED', 'AUTH', 'NO_PRINTER_MIB', 'PROFILE_ERROR'] as const;
export const deviceFailureReasonSchema = z.enum(DEVICE_FAILURE_REASONS);
export type DeviceFailureReason = z.infer<typeof deviceFailureReasonSchema>;
/** One device's outcome in a run: read (reason null) or not and why, and how long it took. */
export const deviceOutcomeSchema = z.object({
  ip: z.ipv4(),
  reason: deviceFailureReasonSchema.nullable(),
  ms: int32.nonnegative(),
});
export type DeviceOutcome = z.infer<typeof deviceOutcomeSchema>;
/** Devices one run reports outcomes of, all ranges together: past it the agent reports the first ones. */
export const MAX_RUN_DEVICE_OUTCOMES = 5000;
export const rangeResultSchema = z.object({
  rangeId: int32, scanned: int32.nonnegative(), found: int32.nonnegative(), durationMs: int32.nonnegative(), error: text(2000).nullable(),
  summary: rangeSummarySchema.optional(),
  /** Each device's outcome (agent API 2; absent from older agents). */
  devices: z.array(deviceOutcomeSchema).max(MAX_RUN_DEVICE_OUTCOMES).optional(),
});
export type RangeResultReport = z.infer<typeof rangeResultSchema>;
/** Most ranges one agent scans (network-ranges refuses one more): a run has a result for each at most. */
export const MAX_AGENT_RANGES = 1000;
export const agentRunFinishSchema = z.object({
  finishedAt: z.iso.datetime(),
  rangeResults: z.array(rangeResultSchema).max(MAX_AGENT_RANGES)
    .refine((rs) => rs.reduce((n, r) => n + (r.devices?.length ?? 0), 0) <= MAX_RUN_DEVICE_OUTCOMES, { message: 'general.badValue' }),
});

/** A walk of a device that matched no profile: [oid, type, value] rows (no NUL: it cannot be stored). */
const walkText = (max: number) => z.string().max(max).regex(/^[^\u0000]*$/, 'general.controlChars');
export const walkRowSchema = z.tuple([walkText(256), walkText(32), walkText(65_536)]);

export const agentReadingSchema = z.object({
  id: z.uuid(),
  runId: z.uuid().nullable(),
  rangeId: z.int32().nullable(),
  ip: z.ipv4(),
  port: z.number().int().min(1).max(65535),
  reading: readingSchema,
  walk: z.array(walkRowSchema).max(50_000).nullable().optional(),
});
export type AgentReading = z.infer<typeof agentReadingSchema>;

export const MAX_BATCH_READINGS = 500;
/** A batch as the agent builds it: every reading valid. */
export const readingBatchSchema = z.object({
  batchId: z.uuid(),
  readings: z.array(agentReadingSchema).min(1).max(MAX_BATCH_READINGS),
});
export type ReadingBatch = z.infer<typeof readingBatchSchema>;
/** A batch as the server takes it: the envelope checked, each reading checked on its own. */
export const readingBatchEnvelopeSchema = z.object({
  batchId: z.uuid(),
  readings: z.array(z.unknown()).min(1).max(MAX_BATCH_READINGS),
});
export type ReadingBatchEnvelope = z.infer<typeof readingBatchEnvelopeSchema>;

/** A reading the server refused: its place in the batch, its id, and the error as a whole request's would be. */
export const readingRejectionSchema = z.object({
  index: z.number().int(),
  id: z.string().nullable(),
  /** 400 (a value past the contract) or 422 (a value no device has, e.g. a date in the future). */
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ReadingRejection = z.infer<typeof readingRejectionSchema>;

/** A reading stored with broken text repaired (issue 39): its place, its id and the fields (paths under `reading`, or walk.<row>). */
export const readingRepairSchema = z.object({ index: z.number().int(), id: z.string().nullable(), fields: z.array(z.string()) });
export type ReadingRepair = z.infer<typeof readingRepairSchema>;

/**
 * stored + duplicates + rejected.length = the batch's readings. A rejected reading is refused
 * for good: sending it again gets the same answer. `rejected` is absent from older servers.
 */
export const batchResultSchema = z.object({
  stored: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.array(readingRejectionSchema).optional(),
  /** Readings whose broken characters the server replaced with U+FFFD; absent when none (and from older servers). */
  repaired: z.array(readingRepairSchema).optional(),
});
export type BatchResult = z.infer<typeof batchResultSchema>;

/**
 * The calls an agent's runner makes of the server, one shape for both ways of making them:
 * over HTTP for a standalone agent (apps/agent run/transport.ts), directly for the server's
 * built-in agent (modules/agents/builtin-agent.ts). Each throws the agent's TransportError.
 */
export type AgentServerCalls = {
  register(info: { version: string; hostname: string; platform: string }): Promise<AgentConfig>;
  config(): Promise<AgentConfig>;
  /** The models pack JSON (checked by the agent before use). */
  modelsPack(): Promise<unknown>;
  status(status: AgentStatus, message?: string, spoolDepth?: number): Promise<void>;
  startRun(runId: string, startedAt: string): Promise<void>;
  problem(runId: string, problem: { rangeId: number | null; level: 'I' | 'W' | 'E'; message: string }): Promise<void>;
  finishRun(runId: string, result: { finishedAt: string; rangeResults: RangeResultReport[] }): Promise<void>;
  /** `rejected`: readings the server refused for good (not to be sent again). */
  sendReadings(batch: ReadingBatch): Promise<BatchResult>;
  /** A run's completed jobs of its queues, or why a queue could not be read; `rejected`: jobs or queues refused for good. */
  sendQueueJobs(run: QueueJobsRun): Promise<QueueJobsRunResult>;
};
