import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipelinedPool } from './pipelined-pool.ts';

const url = process.env.DATABASE_URL ?? '';

describe.skipIf(process.env.PAGEWATCH_TEST_DB !== 'postgres')('pipelined connections (PostgreSQL only: PGlite has no connections)', () => {
  let pool: PipelinedPool;
  beforeAll(() => {
    pool = new PipelinedPool({ connectionString: url, max: 4 }, { pipelines: 2, slowMs: 50 });
  });
  afterAll(() => pool.end());

  it('answers many statements at once, each with its own rows, in any order of completion', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => pool.query({ text: 'SELECT $1::int * 2 AS n', values: [i] })));
    expect(answers.map((r) => r.rows[0].n)).toEqual(Array.from({ length: 200 }, (_, i) => i * 2));
  });

  it('fails only the statement in error; those behind it still answer', async () => {
    const [bad, good] = await Promise.allSettled([pool.query('SELECT 1 / 0'), pool.query('SELECT 7 AS n')]);
    expect(bad.status).toBe('rejected');
    expect(String((bad as PromiseRejectedResult).reason)).toMatch(/division by zero/);
    expect(good.status === 'fulfilled' && good.value.rows[0].n).toBe(7);
  });

  it('does not queue short statements behind slow ones', async () => {
    // Both pipelined connections busy with a slow statement: a short one takes a pooled connection.
    const slow = [pool.query('SELECT pg_sleep(1.5)'), pool.query('SELECT pg_sleep(1.5)')];
    await new Promise((r) => setTimeout(r, 150));
    const started = performance.now();
    const quick = await pool.query('SELECT 1 AS n');
    expect(quick.rows[0].n).toBe(1);
    expect(performance.now() - started).toBeLessThan(1000);
    await Promise.all(slow);
  });

  it('runs a transaction on a connection of its own', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('CREATE TEMP TABLE pipelined_t (n int) ON COMMIT DROP');
      await client.query('INSERT INTO pipelined_t VALUES (1), (2)');
      expect((await client.query('SELECT count(*)::int AS n FROM pipelined_t')).rows[0].n).toBe(2);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  });

  it('replaces a connection the database ended', async () => {
    const pids = (await Promise.all([pool.query('SELECT pg_backend_pid() AS pid'), pool.query('SELECT pg_backend_pid() AS pid')])).map((r) => r.rows[0].pid as number);
    const admin = new PipelinedPool({ connectionString: url, max: 1 }, { pipelines: 1 });
    for (const pid of new Set(pids)) await admin.query({ text: 'SELECT pg_terminate_backend($1)', values: [pid] });
    await admin.end();
    await new Promise((r) => setTimeout(r, 200));
    // The first statement may meet the closed connection; later ones run on new ones.
    await Promise.allSettled([pool.query('SELECT 1'), pool.query('SELECT 1')]);
    const again = await pool.query('SELECT pg_backend_pid() AS pid');
    expect(pids).not.toContain(again.rows[0].pid);
  });
});

describe('pipelined connections to a database that is not there', () => {
  it('fail each statement at once instead of leaving it waiting', async () => {
    // 127.0.0.1:9 (discard) has nothing listening here.
    const pool = new PipelinedPool({ connectionString: 'postgres://postgres@127.0.0.1:9/none', max: 1 }, { pipelines: 2 });
    try {
      const results = await Promise.allSettled([pool.query('SELECT 1'), pool.query('SELECT 2'), pool.query('SELECT 3')]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    } finally {
      await pool.end();
    }
  });
});
