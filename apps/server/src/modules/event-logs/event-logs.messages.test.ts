import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NETWORK_RANGE_TYPES } from '@pagewatch/contracts/agent-api';
import { DEVICE_EVENT_TYPES, DEVICE_STATUS_CODES } from '@pagewatch/contracts/device-events';
import { eventGroups, eventLogs } from '../../db/schema/event-logs.ts';
import { catalogs } from '../../i18n/messages.ts';
import { JOBS } from '../../jobs/jobs.ts';
import { bearer, createUser, testApp } from '../../test/test-app.ts';
import { agentReading, batch, createAgent, post } from '../ingest/ingest.fixtures.ts';
import './event-logs.messages.ts';

// ---- Every code the server writes has its templates (scans the sources, like the console's key test) ----

const srcDir = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

const sources = sourceFiles(srcDir).map((path) => ({ path: path.slice(srcDir.length + 1), text: readFileSync(path, 'utf8') }));
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/** Codes as written: string literals on lines that set a messageCode (or pass one to logActivity). */
function writtenCodes() {
  const codes = new Set<string>();
  const dynamic: string[] = [];
  for (const { path, text } of sources) {
    for (const line of text.split('\n')) {
      if (!/messageCode[?]?:|logActivity\(/.test(line)) continue;
      for (const m of line.matchAll(/'([a-z][A-Za-z]*\.[A-Za-z-]+)'/g)) codes.add(m[1]);
      for (const m of line.matchAll(/messageCode: `([^`]*)`/g)) dynamic.push(`${path}: ${m[1]}`);
    }
  }
  return { codes, dynamic };
}

describe('event log templates', () => {
  const { codes, dynamic } = writtenCodes();

  it('exist in English and Russian for every messageCode the server writes', () => {
    // The two computed codes: one per device event type, one per job.
    for (const type of DEVICE_EVENT_TYPES) codes.add(`device.${type}`);
    for (const job of JOBS) codes.add(`job.${job.name}`);
    // A new computed code must be added above.
    expect(dynamic.sort()).toEqual(['jobs/job-runner.ts: job.${job.name}', 'modules/ingest/ingest.repository.ts: device.${e.type}']);
    expect(codes.size).toBeGreaterThan(40);
    const missing = [...codes].flatMap((c) => (['en', 'ru'] as const).filter((l) => !catalogs[l][`log.${c}`]).map((l) => `${l}: log.${c}`));
    expect(missing).toEqual([]);
  });

  it('name the same placeholders in both languages, and every part they use exists', () => {
    const logKeys = Object.keys(catalogs.en).filter((k) => k.startsWith('log.'));
    const differ = logKeys.filter((k) => placeholders(catalogs.en[k]).join() !== placeholders(catalogs.ru[k] ?? '').join());
    expect(differ).toEqual([]);
    const parts = new Set<string>();
    for (const { text } of sources) for (const m of text.matchAll(/\b(?:part|logPart)\('([\w.]+)'/g)) parts.add(m[1]);
    for (const t of NETWORK_RANGE_TYPES) parts.add(`rangeType.${t}`);
    for (const s of DEVICE_STATUS_CODES) parts.add(`status.${s}`);
    expect([...parts].filter((p) => !catalogs.en[`log.part.${p}`] || !catalogs.ru[`log.part.${p}`])).toEqual([]);
  });
});

// ---- Messages read back in the caller's language ----

const t = testApp();

type Row = { id: number; message: string; messageCode: string | null; parentId: number | null };
const inLang = (lang: string, token = t.admin) => ({ ...bearer(token), 'accept-language': lang === 'ru' ? 'ru-RU,ru;q=0.9,en;q=0.8' : 'en-US,en;q=0.9' });
async function rows(lang: string, filter: unknown): Promise<Row[]> {
  const res = await t.app.inject({ url: `/api/event-logs/page?page=100,1&filter-json=${encodeURIComponent(JSON.stringify(filter))}`, headers: inLang(lang) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().pageRows;
}
const byCode = (lang: string, code: string) => rows(lang, ['messageCode', '=', code]);
async function record(lang: string, id: number) {
  const res = await t.app.inject({ url: `/api/event-logs/${id}`, headers: inLang(lang) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Row & { messageLines: string[]; children: Row[]; parent: { id: number; message: string } | null };
}

describe('event log messages by language', () => {
  it('a user creation', async () => {
    const locs = (await t.app.inject({ url: '/api/user-locations/', headers: bearer(t.admin) })).json().pageRows as { id: number; code: string }[];
    await createUser(t.app, t.admin, { login: 'olga', role: 'OPERATOR', locationIds: [locs.find((l) => l.code === 'DEFAULT')!.id] });
    const [en] = await byCode('en', 'user.created');
    const [ru] = await byCode('ru', 'user.created');
    expect(en.message).toBe('admin created user olga');
    expect(ru.message).toBe('admin создал пользователя olga');
    expect((await record('ru', ru.id)).messageLines).toEqual(['admin создал пользователя olga']);
    // Filters match the text in the reader's language (issue 40).
    expect((await rows('ru', ['message', 'contains', 'создал пользователя olga'])).map((r) => r.message)).toEqual(['admin создал пользователя olga']);
    expect(await rows('ru', ['message', 'contains', 'created user olga'])).toEqual([]);
    expect((await rows('en', ['message', 'contains', 'created user olga'])).map((r) => r.message)).toEqual(['admin created user olga']);
  });

  it('a sign-in', async () => {
    const [en] = await byCode('en', 'auth.signedIn');
    const [ru] = await byCode('ru', 'auth.signedIn');
    expect(en.message).toBe('admin signed in from 127.0.0.1');
    expect(ru.message).toBe('admin вошёл в систему с адреса 127.0.0.1');
  });

  it('a device event and an agent run with its range child', async () => {
    const { agentId, token, rangeId } = await createAgent(t.app, t.admin, { name: 'Office', range: { from: '127.0.10.1', to: '127.0.10.254' } });
    const runId = randomUUID();
    const startedAt = new Date(Date.now() - 5000);
    const { logId } = await t.ctx.agents.runStart(agentId, runId, startedAt);
    expect((await record('ru', logId)).message).toBe('Агент Office: опрос');
    expect((await record('en', logId)).message).toBe('Agent Office: polling');

    const res = await post(t.app, token, batch([agentReading('127.0.10.5', { serial: 'SNX1', total: 100 }, { runId, rangeId })]));
    expect(res.statusCode, res.body).toBe(200);
    const [devEn] = await byCode('en', 'device.NEW_DEVICE');
    const [devRu] = await byCode('ru', 'device.NEW_DEVICE');
    expect(devEn.message).toBe('New device: HP LaserJet M404 (SN SNX1) at 127.0.10.5');
    expect(devRu.message).toBe('Новое устройство: HP LaserJet M404 (SN SNX1) по адресу 127.0.10.5');

    await t.ctx.agents.runFinish(agentId, runId, { finishedAt: new Date(), rangeResults: [{ rangeId: rangeId!, scanned: 254, found: 1, durationMs: 900, error: null }] });
    const en = await record('en', logId);
    const ru = await record('ru', logId);
    expect(en.message).toBe('Agent Office: 1 devices found in 1 range(s)');
    expect(ru.message).toBe('Агент Office: найдено устройств: 1, диапазонов: 1');
    expect(en.children.map((c) => c.message)).toEqual(['range 127.0.10.1-127.0.10.254:161: 254 addresses scanned, 1 devices found']);
    expect(ru.children.map((c) => c.message)).toEqual(['диапазон 127.0.10.1-127.0.10.254:161: проверено адресов: 254, найдено устройств: 1']);
    expect((await record('ru', ru.children[0].id)).parent).toEqual({ id: logId, message: 'Агент Office: найдено устройств: 1, диапазонов: 1' });
    // The finished run's text is searched in the reader's language too.
    expect((await rows('ru', ['id', '=', logId]))[0].message).toBe(ru.message);
    expect((await rows('ru', ['message', 'contains', 'найдено устройств: 1, диапазонов: 1'])).map((r) => r.id)).toEqual([logId]);
    expect((await rows('en', ['message', 'contains', '1 devices found in 1 range'])).map((r) => r.id)).toEqual([logId]);
  });

  it('returns a record without params (written before them) as stored', async () => {
    const [group] = await t.ctx.db.select().from(eventGroups);
    const [old] = await t.ctx.db
      .insert(eventLogs)
      .values({ eventGroupId: group.id, logLevel: 'I', message: 'admin created user ivan (old record)', messageCode: 'user.created' })
      .returning({ id: eventLogs.id });
    expect((await record('ru', old.id)).message).toBe('admin created user ivan (old record)');
    expect((await rows('ru', ['id', '=', old.id]))[0].message).toBe('admin created user ivan (old record)');
    // A plain message with no code is shown as written, too.
    const plain = await t.ctx.eventLog.write({ group: 'SYSTEM', level: 'I', message: 'plain text' });
    expect((await record('ru', plain)).message).toBe('plain text');
  });
});
