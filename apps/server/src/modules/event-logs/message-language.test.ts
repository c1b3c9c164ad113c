import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, testApp } from '../../test/test-app.ts';
import { filterPlan } from '../../test/filter-plan.ts';
import { eventLogsListIn } from './event-logs.list.ts';
import { part } from './event-logs.messages.ts';

/**
 * The event log searched in the reader's language (issue 40): a message filter matches the
 * message as the caller is shown it (Accept-Language, as every server message), under the
 * grids' search policy (three characters or more anywhere, one or two at the start).
 */
const t = testApp();
const top = ['parentId', '=', null];
const ids: Record<string, number> = {};

beforeAll(async () => {
  const log = t.ctx.eventLog;
  // en "Not available: Kyocera M2040 at 10.9.8.7", ru "Недоступно: Kyocera M2040 по адресу 10.9.8.7".
  ids.offline = await log.write({ group: 'DEVICES', level: 'W', messageCode: 'device.NOT_AVAILABLE', params: { device: part('device', { model: 'Kyocera M2040', ip: '10.9.8.7' }) } });
  // en "zelda created user ivanov", ru "zelda создал пользователя ivanov".
  ids.user = await log.write({ group: 'USERS', level: 'I', messageCode: 'user.created', params: { actor: 'zelda', login: 'ivanov' } });
  // A plain text: shown as stored to either reader.
  ids.plain = await log.write({ group: 'SYSTEM', level: 'I', message: 'Quokka plain record' });
  // A run whose final message comes from params: rendered in Russian at finish too.
  const run = await log.startRun({ group: 'JOBS', messageCode: 'job.session-pruning', params: { result: '' } });
  await log.finish(run, { params: { result: part('sessionsPruned', { deleted: 7 }) } });
  ids.run = run;
  // Other records, so that the planner weighs the indexes as on a real log.
  await t.ctx.db.execute(sql`
    INSERT INTO event_logs (log_datetime, event_group_id, log_level, message, message_ru, message_code)
    SELECT now() - i * interval '1 minute', (SELECT min(id) FROM event_groups), 'I', 'Filler ' || i, 'Заполнитель ' || i, 'x'
    FROM generate_series(1, 3000) i`);
  await t.ctx.db.execute(sql`VACUUM ANALYZE event_logs`);
});

const filterOf = (f: unknown) => `filter-json=${encodeURIComponent(JSON.stringify(f))}`;

async function found(lang: 'en' | 'ru', text: string, op = 'contains'): Promise<number[]> {
  const res = await t.app.inject({
    url: `/api/event-logs/page?page=200,1&${filterOf([top, 'and', ['message', op, text]])}`,
    headers: { ...bearer(t.admin), 'accept-language': lang },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { pageRows: { id: number | string; message: string }[]; totalRows: number };
  expect(body.totalRows).toBe(body.pageRows.length);
  return body.pageRows.map((r) => Number(r.id)).filter((id) => Object.values(ids).includes(id)).sort((a, b) => a - b);
}

describe('the event log message search in the reader\'s language', () => {
  it('a Russian reader finds a record by a word of its Russian message, not by the English one', async () => {
    expect(await found('ru', 'недоступно')).toEqual([ids.offline]);
    expect(await found('ru', 'ПОЛЬЗОВАТЕЛЯ iva')).toEqual([ids.user]);
    expect(await found('ru', 'удалено завершённых сеансов: 7')).toEqual([ids.run]);
    expect(await found('ru', 'available')).toEqual([]);
    expect(await found('ru', 'created user')).toEqual([]);
    expect(await found('ru', 'deleted 7 ended')).toEqual([]);
    // Words both languages show: the model, the address, the login; and a plain text as stored.
    expect(await found('ru', 'Kyocera M2040')).toEqual([ids.offline]);
    expect(await found('ru', '10.9.8')).toEqual([ids.offline]);
    expect(await found('ru', 'ivanov')).toEqual([ids.user]);
    expect(await found('ru', 'quokka')).toEqual([ids.plain]);
  });

  it('an English reader finds it by the English words, not by the Russian ones', async () => {
    expect(await found('en', 'available')).toEqual([ids.offline]);
    expect(await found('en', 'CREATED USER iva')).toEqual([ids.user]);
    expect(await found('en', 'deleted 7 ended')).toEqual([ids.run]);
    expect(await found('en', 'недоступно')).toEqual([]);
    expect(await found('en', 'пользователя')).toEqual([]);
    expect(await found('en', 'Kyocera M2040')).toEqual([ids.offline]);
    expect(await found('en', 'quokka')).toEqual([ids.plain]);
  });

  it('one or two characters match the start of the message as the reader is shown it', async () => {
    expect(await found('ru', 'Не')).toEqual([ids.offline]);
    expect(await found('ru', 'н')).toEqual([ids.offline]);
    expect(await found('en', 'Не')).toEqual([]);
    expect(await found('en', 'no')).toEqual([ids.offline]);
    expect(await found('ru', 'no')).toEqual([]);
    // "zelda …" starts both languages' texts; "со" is inside the Russian one, not at its start.
    expect(await found('ru', 'ze')).toEqual([ids.user]);
    expect(await found('en', 'ze')).toEqual([ids.user]);
    expect(await found('ru', 'со')).toEqual([]);
    expect(await found('ru', 'Qu')).toEqual([ids.plain]);
    // Written out as "starts with", the same.
    expect(await found('ru', 'Недоступно: K', 'startswith')).toEqual([ids.offline]);
  });

  it('sorts by the message as the reader is shown it', async () => {
    const order = async (lang: 'en' | 'ru') => {
      const only = ['id', 'anyof', [ids.offline, ids.user]];
      const res = await t.app.inject({ url: `/api/event-logs/page?page=10,1&sort=message,ASC&${filterOf([only])}`, headers: { ...bearer(t.admin), 'accept-language': lang } });
      return (res.json() as { pageRows: { id: number | string }[] }).pageRows.map((r) => Number(r.id));
    };
    // "Not available…" before "zelda…"; "zelda…" (Latin) before "Недоступно…" (Cyrillic).
    expect(await order('en')).toEqual([ids.offline, ids.user]);
    expect(await order('ru')).toEqual([ids.user, ids.offline]);
  });

  it('records written before the Russian text was stored are found once the log-translation job has run', async () => {
    // Such a record as migration 0041 finds it: code and params, no Russian text.
    const res = await t.ctx.db.execute(sql`
      INSERT INTO event_logs (event_group_id, log_level, message, message_code, message_params)
      SELECT id, 'I', 'Back online: Ricoh MP at 10.4.4.4', 'device.BACK_ONLINE', ${JSON.stringify({ device: part('device', { model: 'Ricoh MP', ip: '10.4.4.4' }) })}::jsonb
      FROM event_groups WHERE code = 'DEVICES' RETURNING id`);
    ids.old = Number((res.rows[0] as { id: unknown }).id);
    // (Other texts after the job: a text filter's count is kept for 30 s, list-counts.ts.)
    expect(await found('ru', 'снова на связи')).toEqual([]);
    expect(await found('ru', 'back online')).toEqual([ids.old]);
    await t.ctx.jobs.runNow('log-translation');
    expect(await found('ru', 'снова на связ')).toEqual([ids.old]);
    expect(await found('ru', 'back onlin')).toEqual([]);
    expect(await found('en', 'back onlin')).toEqual([ids.old]);
    // Nothing is left for its next run.
    expect(await t.ctx.eventLog.translateMissing({ batchSize: 2, pauseMs: 0 })).toBe(0);
  });

  it('reads a Russian reader\'s three characters or more through the Russian trigram index', async () => {
    const plan = (text: string) => filterPlan(t.ctx.db, eventLogsListIn('ru'), sql`event_logs l`, [top, 'and', ['message', 'contains', text]]);
    expect(await plan('недоступно')).toContain('event_logs_top_message_ru_trgm');
    expect(await plan('10.9.8')).toContain('event_logs_top_message_ru_trgm');
    expect(await plan('Не')).toContain('event_logs_top_message_ru_trgm');
  });
});
