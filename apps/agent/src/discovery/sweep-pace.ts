/** How often the sweep measures how far behind it is and sets its rate. */
export const PACE_TICK_MS = 100;
/** Behind by more than this (answers waiting, timers late), the sweep slows down. */
const BEHIND_TARGET_MS = 100;
/** Answers an interval needs for its median to say anything. */
const MIN_SAMPLES = 5;

/**
 * How much a sweep can take on now (issue 53). A starved agent (a CPU hog, a busy host) reads
 * its answers late: they wait in the socket's receive queue (and overflow it) while the
 * per-address timers, which run first when the event loop wakes, give the addresses up as
 * silent. Two figures say how far behind it is: the answers' queueing delay (how much later than
 * the device's known answer time, or than the range's quickest answers, each one is handled),
 * which also grows when the devices themselves are slow to answer under load, and the event
 * loop's lag (how late the pace's own timer fires). An answer that waited through one stall of
 * the loop is late by that stall, which says nothing of a queue that grows; handled more than
 * 100 ms later than the lag explains, the answers are queueing and the rate drops by 30% a tick;
 * else it climbs back by a twentieth of the cap a tick (TCP's AIMD, by delay as
 * LEDBAT does). It starts at a tenth of the cap and grows by half a tick until it is first behind
 * or at the cap (TCP's slow start): the first answers of a full range come back at the rate the
 * requests went out, and a starved agent that sent them at the cap found them seconds late (3.4 s
 * at load 16).
 *
 * Waits are measured on `clock()`, which stops while the event loop is held up: a try has had
 * its wait only when the agent was there to hear the answer for that long, whatever the wall
 * clock says; and `queueDelayMs()` more, since the answers are handled that much late.
 */
export class SweepPace {
  private readonly cap: number;
  private readonly floor: number;
  private readonly now: () => number;
  /** Packets a second the sweep may send now. */
  rate: number;
  private excess: number[] = [];
  private unknownAges: number[] = [];
  /** The lowest median answer time of devices not heard from before: the range's own network. */
  private baselineMs = Infinity;
  private queueMs = 0;
  private lagMs = 0;
  private lastTick: number;
  /** The event loop's lag summed over the sweep: the time it was not there to read answers. */
  private stalledMs = 0;
  private slowStart = true;

  constructor(cap: number, now: () => number = () => performance.now()) {
    this.cap = cap;
    this.floor = Math.max(10, cap / 100);
    this.rate = Math.max(this.floor, cap / 10);
    this.now = now;
    this.lastTick = now();
  }

  /** An answer handled `ageMs` after its request; `knownMs`: the device's smoothed answer time, when heard from before. */
  answered(ageMs: number, knownMs: number | null): void {
    if (knownMs != null) this.excess.push(Math.max(0, ageMs - knownMs));
    else {
      this.unknownAges.push(ageMs);
      if (Number.isFinite(this.baselineMs)) this.excess.push(Math.max(0, ageMs - this.baselineMs));
    }
  }

  /** Called every PACE_TICK_MS by the sweep's timer: measures the lag, the queueing, sets the rate. */
  tick(): void {
    const t = this.now();
    const lag = Math.max(0, t - this.lastTick - PACE_TICK_MS);
    this.lastTick = t;
    this.stalledMs += lag;
    // A lag is held for a while: timers that fired late once will again while the host is busy.
    this.lagMs = Math.max(lag, this.lagMs * 0.8);
    if (this.unknownAges.length >= MIN_SAMPLES) this.baselineMs = Math.min(this.baselineMs, median(this.unknownAges));
    // Without answers (silent addresses, or none left) the queueing measured last fades.
    this.queueMs = this.excess.length >= MIN_SAMPLES ? median(this.excess) : this.queueMs * 0.8;
    this.excess = [];
    this.unknownAges = [];
    if (this.queueMs - this.lagMs > BEHIND_TARGET_MS) {
      this.slowStart = false;
      this.rate = Math.max(this.floor, this.rate * 0.7);
    } else {
      this.rate = Math.min(this.cap, this.slowStart ? this.rate * 1.5 : this.rate + this.cap / 20);
    }
  }

  /** Milliseconds the sweep has been attentive: the wall clock less the event loop's lag, so far and now. */
  clock(): number {
    const t = this.now();
    return t - this.stalledMs - Math.max(0, t - this.lastTick - PACE_TICK_MS);
  }

  /** How much later than the devices answer the answers are handled now. */
  queueDelayMs(): number {
    return this.queueMs;
  }

  /** How late the event loop runs now (held a while after each stall). */
  loopLagMs(): number {
    return this.lagMs;
  }

  /** How far behind the sweep is, in ms: the answers' queueing delay and the loop's lag. */
  behindMs(): number {
    return this.queueMs + this.lagMs;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
