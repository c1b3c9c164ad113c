import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, testApp } from '../../test/test-app.ts';
import { sqlRows } from '../../test/sql-rows.ts';
import { filterPlan } from '../../test/filter-plan.ts';
import { eventLogsListSql } from './event-logs.list.ts';

/**
 * The event log's message filter under the grids' search policy (issue 40): three characters or
 * more anywhere in the message, through its trigram index; one or two at its start. The answers
 * are exactly the records whose message holds the text, in any case, on the first request and
 * on the next ones (the count kept).
 */
const t = testApp();
const N = 3_000;
const top = ['parentId', '=', null];

beforeAll(async () => {
  const group = sql`(SELECT id FROM event_groups ORDER BY id LIMIT 1)`;
  // Runs with a child each (not top-level: never found), device events by IP, and a few texts
  // with capitals, Cyrillic, and the characters LIKE treats as wildcards.
  await t.ctx.db.execute(sql`
    INSERT INTO event_logs (log_datetime, event_group_id, log_level, message, message_code)
    SELECT now() - i * interval '1 minute', ${group}, 'I',
      CASE WHEN i % 3 = 0 THEN 'Agent run ' || i
           WHEN i % 100 = 1 THEN 'Принтер 10.' || (i % 7) || '.' || (i % 50) || '.9: ТОНЕР 5% Cyan_Toner'
           ELSE 'Device 10.' || (i % 7) || '.' || (i % 50) || '.' || (i % 200) || ' status changed' END, 'x'
    FROM generate_series(1, ${N}) i`);
  await t.ctx.db.execute(sql`
    INSERT INTO event_logs (parent_id, log_datetime, event_group_id, log_level, message, message_code)
    SELECT id, log_datetime, event_group_id, 'I', message || ' (range 10.1.1.0/24)', 'x' FROM event_logs WHERE message LIKE 'Agent run %'`);
  // What autovacuum does on a live PostgreSQL: statistics, and the GIN indexes' pending entries merged.
  await t.ctx.db.execute(sql`VACUUM ANALYZE event_logs`);
});

const filterOf = (f: unknown) => `filter-json=${encodeURIComponent(JSON.stringify(f))}`;
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

async function page(op: string, text: string): Promise<{ ids: number[]; total: number }> {
  const res = await t.app.inject({ url: `/api/event-logs/page?page=200,1&${filterOf([top, 'and', ['message', op, text]])}`, headers: bearer(t.admin) });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { pageRows: { id: number | string }[]; totalRows: number };
  return { ids: body.pageRows.map((r) => Number(r.id)).sort((a, b) => a - b), total: body.totalRows };
}

/** The top-level records whose message ILIKE finds (as PostgreSQL lowers text, in either database). */
async function holding(op: string, text: string): Promise<number[]> {
  const s = escapeLike(text);
  const starts = op === 'startswith' || (op === 'contains' && [...text].length < 3);
  const pattern = starts ? `${s}%` : op === 'endswith' ? `%${s}` : `%${s}%`;
  const rows = await sqlRows<{ id: number }>(t.ctx.db, sql`SELECT id FROM event_logs WHERE parent_id IS NULL AND message ILIKE ${pattern} ORDER BY id`);
  return rows.map((r) => Number(r.id));
}

describe('the event log searched by a part of a message', () => {
  it('finds exactly the top-level records that hold the text, on the first request and on the next', async () => {
    const cases: [string, string][] = [
      ['contains', '10.3.17'], // the start of a device's IP: a few dozen records
      ['contains', 'RUN 1234'], // an agent run's number, in other capitals
      ['contains', 'run 2'], // a few hundred
      ['contains', 'status changed'], // most records: read in the grid's order
      ['contains', 'тонер 5% cyan_'], // Cyrillic in other capitals, with % and _ as themselves
      ['contains', '5% cyan_toner x'], // no record
      ['startswith', 'Agent run 29'],
      ['endswith', '.199 status changed'],
      // One or two characters: the start of the message.
      ['contains', 'ag'],
      ['contains', 'П'],
    ];
    for (const [op, text] of cases) {
      const want = await holding(op, text);
      for (const attempt of ['first', 'again']) {
        const got = await page(op, text);
        expect(want.length, `${op} ${text}`).toBeLessThan(10_000);
        expect(got.total, `${op} ${text} (${attempt})`).toBe(want.length);
        if (want.length <= 200) expect(got.ids, `${op} ${text} (${attempt})`).toEqual(want);
        else expect(got.ids.filter((id) => want.includes(id)), `${op} ${text} (${attempt})`).toHaveLength(200);
      }
    }
  });

  it('reads three characters or more through the trigram index', async () => {
    const plan = (text: string) => filterPlan(t.ctx.db, eventLogsListSql, sql`event_logs l`, [top, 'and', ['message', 'contains', text]]);
    expect(await plan('10.3.17')).toContain('event_logs_top_message_trgm');
    expect(await plan('Run 12')).toContain('event_logs_top_message_trgm');
    // Two characters are the start of a word to the trigram index.
    expect(await plan('ag')).toContain('event_logs_top_message_trgm');
  });

  it('keeps "does not contain" a plain test of every record', async () => {
    const res = await t.app.inject({ url: `/api/event-logs/page?page=50,1&${filterOf([top, 'and', ['message', 'notcontains', 'status changed']])}`, headers: bearer(t.admin) });
    expect(res.statusCode).toBe(200);
    const rows = (res.json() as { pageRows: { message: string }[] }).pageRows;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.message).not.toContain('status changed');
  });
});
