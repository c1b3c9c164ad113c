import { AGENT_SILENT_MINUTES, HOME_LIST_ROWS, type Home } from '@pagewatch/contracts/home';
import type { Db } from '../../db/client.ts';
import type { Hub } from '../../plugins/realtime.ts';
import type { Caller } from '../../lib/caller.ts';
import { METER_FLAG_KINDS } from '@pagewatch/contracts/meter-flags';
import * as repo from './home.repository.ts';

/** Figures older than this are computed again even without a device event (edits, agents falling silent). */
export const HOME_MAX_AGE_MS = 15_000;
/** How many locations the pages chart shows, the busiest first. */
const CHART_LOCATIONS = 12;

type Snapshot = {
  at: Date;
  devices: repo.LocationDevices[];
  supplies: Map<number, repo.LocationSupplies>;
  attention: repo.AttentionRow[];
  pages: Map<number, repo.LocationPages>;
  /** The days the pages compare. */
  span: repo.PageSpan;
  pairs: repo.StoredPair[];
  flaps: repo.AddressFlap[];
  agents: repo.AgentRow[];
  ranges: Map<number, number>;
  notRead: repo.LocationNotRead[];
  meterFlags: repo.LocationMeterFlags[];
  meterFlagDevices: repo.MeterFlagDevice[];
};

const addPages = (a: repo.Pages, b: repo.Pages): repo.Pages => ({ bw: a.bw + b.bw, color: a.color + b.color, total: a.total + b.total });
const ZERO: repo.Pages = { bw: 0, color: 0, total: 0 };
const byOldest = (a: { since: string | null }, b: { since: string | null }) => (a.since ?? '').localeCompare(b.since ?? '');

/**
 * `/home`: the figures of every location, computed in one pass and kept, then added up over
 * each caller's locations. A device event (any instance's, through the hub) makes the next
 * request start computing them again; so do HOME_MAX_AGE_MS. One computation runs at a time,
 * only while someone asks, so a busy home costs the database one pass at a time, not one per
 * caller, and a fleet nobody looks at costs nothing.
 */
export class HomeService {
  private readonly db: Db;
  private snapshot: Snapshot | null = null;
  /** Bumped by every device event; a snapshot begun before the last bump is stale. */
  private generation = 0;
  private snapshotGeneration = -1;
  private running: Promise<Snapshot> | null = null;
  private runningGeneration = -1;
  /** An event came while a computation ran: compute again when it ends. */
  private rerun = false;
  private failed: unknown = null;

  constructor(db: Db, hub: Hub) {
    this.db = db;
    // For the app's life: edits, merges and deletes of devices are published there too.
    hub.subscribe('devices', () => void this.generation++);
  }

  private fresh(s: Snapshot | null): s is Snapshot {
    return !!s && this.snapshotGeneration === this.generation && Date.now() - s.at.getTime() < HOME_MAX_AGE_MS;
  }

  /** Computes the figures again unless a computation begun after the last event runs; one at a time. */
  private refresh() {
    if (this.running) {
      this.rerun ||= this.runningGeneration !== this.generation;
      return;
    }
    const generation = this.generation;
    this.runningGeneration = generation;
    const run = this.compute().then((s) => {
      this.snapshot = s;
      this.snapshotGeneration = generation;
      this.failed = null;
      return s;
    });
    this.running = run;
    run.catch((err: unknown) => void (this.failed = err)).finally(() => {
      this.running = null;
      if (this.rerun) {
        this.rerun = false;
        this.refresh();
      }
    });
  }

  /**
   * The latest figures, and whether newer ones are being computed. Only the very first request
   * waits; later ones get the last figures at once while a computation runs (the console asks
   * again shortly), so a busy fleet's events never hold a request for a whole pass.
   */
  private async current(): Promise<{ snapshot: Snapshot; pending: boolean }> {
    if (this.fresh(this.snapshot)) return { snapshot: this.snapshot, pending: false };
    this.refresh();
    // After a failed computation old figures are not shown as current: this request waits for
    // the one just begun, which fails while the database is away and answers once it is back.
    const snapshot = this.snapshot && !this.failed ? this.snapshot : await this.running!;
    return { snapshot, pending: !this.fresh(snapshot) };
  }

  private async compute(): Promise<Snapshot> {
    const at = new Date();
    // One after the other: the pool's other connections stay free for the callers' own work.
    const devices = await repo.devicesByLocation(this.db);
    const supplies = await repo.suppliesByLocation(this.db);
    const attention = await repo.attentionByLocation(this.db);
    const span = repo.pageSpan(at);
    const pages = await repo.pagesByLocation(this.db, span);
    const pairs = await repo.identityPairs(this.db);
    const flaps = await repo.addressFlaps(this.db);
    const agents = await repo.agentsForHome(this.db);
    const ranges = await repo.rangesByLocation(this.db);
    const notRead = await repo.notReadByLocation(this.db);
    const meterFlags = await repo.meterFlagsByLocation(this.db);
    const meterFlagDevices = await repo.meterFlagDevices(this.db);
    return {
      at,
      devices,
      supplies: new Map(supplies.map((s) => [s.locationId, s])),
      attention,
      pages: new Map(pages.map((p) => [p.locationId, p])),
      span,
      pairs,
      flaps,
      agents,
      ranges,
      notRead,
      meterFlags,
      meterFlagDevices,
    };
  }

  async home(caller: Caller): Promise<Home> {
    const { snapshot: s, pending } = await this.current();
    const sees = (locationId: number) => caller.scope.has(locationId);
    return {
      pending,
      devices: caller.grants.has('MNU_DEVICES.READ') ? devicesPart(s, sees) : null,
      agents: caller.grants.has('MNU_AGENTS.READ') ? agentsPart(s, sees) : null,
      computedAt: s.at.toISOString(),
    };
  }
}

function devicesPart(s: Snapshot, sees: (locationId: number) => boolean): NonNullable<Home['devices']> {
  const byStatus = { OK: 0, WARNING: 0, ERROR: 0, NOT_AVAILABLE: 0, UNKNOWN: 0 };
  let total = 0;
  let maintenance = 0;
  let attention = 0;
  let noProfile = 0;
  let counterBackwards = 0;
  const runsOut = { within7: 0, within14: 0, empty: 0 };
  let thisMonth = ZERO;
  let lastMonth = ZERO;
  const byLocation: NonNullable<Home['devices']>['pages']['byLocation'] = [];
  for (const d of s.devices) {
    if (!sees(d.locationId)) continue;
    total += d.total;
    byStatus.OK += d.ok;
    byStatus.WARNING += d.warning;
    byStatus.ERROR += d.error;
    byStatus.NOT_AVAILABLE += d.notAvailable;
    byStatus.UNKNOWN += d.unknown;
    maintenance += d.maintenance;
    attention += d.attention;
    noProfile += d.noProfile;
    counterBackwards += d.backwards;
    const sup = s.supplies.get(d.locationId);
    if (sup) {
      runsOut.within7 += sup.within7;
      runsOut.within14 += sup.within14;
      runsOut.empty += sup.empty;
    }
    const p = s.pages.get(d.locationId);
    if (p) {
      thisMonth = addPages(thisMonth, p.thisMonth);
      lastMonth = addPages(lastMonth, p.lastMonth);
      byLocation.push({ locationId: d.locationId, locationName: d.locationName, thisMonth: p.thisMonth, lastMonth: p.lastMonth });
    }
  }
  byLocation.sort((a, b) => b.thisMonth.total + b.lastMonth.total - (a.thisMonth.total + a.lastMonth.total) || a.locationName.localeCompare(b.locationName));
  const rows = s.attention
    .filter((r) => sees(r.locationId))
    .sort(byOldest)
    .slice(0, HOME_LIST_ROWS)
    .map(({ locationId: _, ...r }) => r);
  const identity = repo.pairsSeenBy(s.pairs, sees).slice(0, HOME_LIST_ROWS);
  return {
    total,
    byStatus,
    maintenance,
    runsOut,
    attention: { count: attention, rows },
    pages: { thisMonth, lastMonth, span: s.span, byLocation: byLocation.slice(0, CHART_LOCATIONS) },
    quality: {
      noProfile,
      counterBackwards,
      identity,
      sharedSerials: s.flaps.filter((f) => sees(f.device.locationId)).slice(0, HOME_LIST_ROWS).map((f) => ({ device: strip(f.device), addresses: f.addresses })),
      meterFlags: meterFlagsPart(s, sees),
    },
  };
}

const strip = ({ locationId: _, ...d }: repo.PairDevice) => d;

/** Implausible meter reads in the caller's locations: devices per kind, the most recently flagged first. */
function meterFlagsPart(s: Snapshot, sees: (locationId: number) => boolean): NonNullable<Home['devices']>['quality']['meterFlags'] {
  const byKind = { JUMP: 0, BACKWARDS: 0, SPLIT: 0 };
  let devices = 0;
  for (const l of s.meterFlags) {
    if (!sees(l.locationId)) continue;
    devices += l.devices;
    for (const kind of METER_FLAG_KINDS) byKind[kind] += l.byKind[kind];
  }
  const rows = s.meterFlagDevices
    .filter((d) => sees(d.locationId))
    .sort((a, b) => b.lastAt.localeCompare(a.lastAt) || a.id - b.id)
    .slice(0, HOME_LIST_ROWS)
    .map(({ locationId: _, ...d }) => d);
  return { devices, byKind, rows };
}

function agentsPart(s: Snapshot, sees: (locationId: number) => boolean): NonNullable<Home['agents']> {
  const silentBefore = Date.now() - AGENT_SILENT_MINUTES * 60_000;
  const mine = s.agents.filter((a) => sees(a.locationId));
  let ranges = 0;
  for (const [locationId, n] of s.ranges) if (sees(locationId)) ranges += n;
  const notRead = s.notRead.filter((l) => sees(l.locationId));
  return {
    notRead: {
      count: notRead.reduce((n, l) => n + l.count, 0),
      rows: notRead.flatMap((l) => l.rows)
        .sort((a, b) => b.failuresInRow - a.failuresInRow || (a.lastOkAt ?? '').localeCompare(b.lastOkAt ?? '') || a.agentId - b.agentId || a.ip.localeCompare(b.ip))
        .slice(0, HOME_LIST_ROWS),
    },
    total: mine.length,
    silent: mine
      .filter((a) => (a.lastContactAt ? Date.parse(a.lastContactAt) : 0) < silentBefore)
      .slice(0, HOME_LIST_ROWS)
      .map(({ id, name, locationName, lastContactAt }) => ({ id, name, locationName, lastContactAt })),
    ranges,
  };
}
