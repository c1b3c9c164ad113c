import pg from 'pg';

/** What the pool tells about itself (for metrics). */
export type PoolStats = { connections: number; idle: number; waiting: number; inFlight: number };

type Pipe = { client: pg.Client; started: number[]; broken: boolean };

/**
 * The server's PostgreSQL connections. Single statements go to a few pipelined connections,
 * written one behind the other without waiting for each answer: under load a statement then
 * finds its database process awake, instead of costing a round trip and a wake-up of its own.
 * Transactions take a connection of their own from an ordinary pool (`connect`).
 *
 * A statement goes to the pipelined connection with the fewest statements in flight. One that
 * is held up by a slow statement (the oldest in flight running longer than `slowMs`) takes no
 * more, and when all are held up the statement runs on a pooled connection, so a long report
 * never queues short reads behind it.
 */
export class PipelinedPool {
  private readonly pool: pg.Pool;
  private readonly config: pg.ClientConfig;
  private readonly pipes: (Pipe | null)[];
  private readonly slowMs: number;
  private ended = false;

  constructor(config: pg.PoolConfig, opts: { pipelines: number; slowMs?: number }) {
    this.config = config;
    this.pool = new pg.Pool(config);
    // pg-pool hears the errors of idle connections only: one checked out for a transaction when
    // the database goes away would emit an unheard 'error' and end the process. Its statement
    // fails with the error all the same, and the pool drops it on release (no longer queryable).
    this.pool.on('connect', (client) => client.on('error', () => undefined));
    this.pipes = Array.from({ length: opts.pipelines }, () => null);
    this.slowMs = opts.slowMs ?? 50;
  }

  /** Errors of idle pooled connections (a restart of the database, say). */
  on(event: 'error', listener: (err: Error) => void): this {
    this.pool.on(event, listener);
    return this;
  }

  /** A connection of its own, for a transaction; `release()` it. */
  connect(): Promise<pg.PoolClient> {
    return this.pool.connect();
  }

  query(config: pg.QueryConfig | string, values?: unknown[]): Promise<pg.QueryResult> {
    const pipe = this.pick();
    if (!pipe) return this.pool.query(config as pg.QueryConfig, values);
    pipe.started.push(performance.now());
    const done = () => pipe.started.shift();
    return pipe.client.query(config as pg.QueryConfig, values).then(
      (res) => (done(), res),
      (err: unknown) => {
        done();
        throw err;
      },
    );
  }

  stats(): PoolStats {
    const open = this.pipes.filter((p): p is Pipe => p !== null && !p.broken);
    return {
      connections: this.pool.totalCount + open.length,
      idle: this.pool.idleCount,
      waiting: this.pool.waitingCount,
      inFlight: open.reduce((n, p) => n + p.started.length, 0),
    };
  }

  async end(): Promise<void> {
    this.ended = true;
    await Promise.all(this.pipes.map((p) => p?.client.end().catch(() => undefined)));
    await this.pool.end();
  }

  private pick(): Pipe | null {
    if (this.ended) return null;
    const now = performance.now();
    let best: Pipe | null = null;
    for (let i = 0; i < this.pipes.length; i++) {
      let pipe = this.pipes[i];
      if (!pipe || pipe.broken) pipe = this.pipes[i] = this.open();
      if (pipe.started.length && now - pipe.started[0] > this.slowMs) continue;
      if (!best || pipe.started.length < best.started.length) best = pipe;
      if (best.started.length === 0) break;
    }
    return best;
  }

  private open(): Pipe {
    const client = new pg.Client({ ...this.config, pipeline: true } as pg.ClientConfig);
    const pipe: Pipe = { client, started: [], broken: false };
    // A lost connection fails the statements in flight (pg answers them with the error); the
    // next statement opens a new one in its place.
    const lost = () => {
      pipe.broken = true;
    };
    client.on('error', lost);
    client.on('end', lost);
    client.connect().catch(lost);
    return pipe;
  }
}
