import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentReading } from '@pagewatch/contracts/agent-api';
import { Spool } from './spool.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'pagewatch-spool-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const reading = (n: number): AgentReading => ({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, runId: null, rangeId: 1, ip: '127.0.0.1', port: 161, reading: {} as AgentReading['reading'] });

describe('spool', () => {
  it('keeps the order, batches readings by 500 and separates control records', async () => {
    const spool = new Spool(tempDir(), { sealAfterMs: 60_000 });
    await spool.append({ kind: 'run-start', runId: 'r1', startedAt: 't' });
    await Promise.all(Array.from({ length: 700 }, (_, i) => spool.append({ kind: 'reading', reading: reading(i) })));
    await spool.append({ kind: 'run-finish', runId: 'r1', finishedAt: 't', rangeResults: [] });
    const segments = spool.sealed();
    // 500 readings fill a segment; the run's end seals the second.
    expect(segments).toHaveLength(2);
    const messages = segments.flatMap((s) => spool.messages(s));
    expect(messages.map((m) => `${m.records[0]!.kind}:${m.records.length}`)).toEqual(['run-start:1', 'reading:500', 'reading:200', 'run-finish:1']);
    const ids = messages.flatMap((m) => m.records).filter((r) => r.kind === 'reading').map((r) => (r.kind === 'reading' ? r.reading.id : ''));
    expect(ids).toEqual(Array.from({ length: 700 }, (_, i) => reading(i).id));
    spool.close();
  });

  it('survives a crash: the open segment is recovered without its torn last line', async () => {
    const dir = tempDir();
    const spool = new Spool(dir, { sealAfterMs: 60_000 });
    for (let i = 0; i < 3; i++) await spool.append({ kind: 'reading', reading: reading(i) });
    spool.close(); // as if killed: nothing sealed
    const open = readdirSync(dir).find((n) => n.endsWith('.open'))!;
    writeFileSync(join(dir, open), readFileSync(join(dir, open), 'utf8') + '{"kind":"reading","reading":{"id":"tor');
    const again = new Spool(dir);
    const [segment] = again.sealed();
    expect(again.messages(segment!)[0]!.records).toHaveLength(3);
    // New records go to a new segment after the recovered one.
    await again.append({ kind: 'reading', reading: reading(9) });
    await again.flushOpen();
    expect(again.sealed()).toHaveLength(2);
    again.close();
  });

  it('resumes after the last acknowledged message and forgets a delivered segment', async () => {
    const dir = tempDir();
    const spool = new Spool(dir);
    await spool.append({ kind: 'run-start', runId: 'r1', startedAt: 't' });
    await spool.append({ kind: 'reading', reading: reading(1) });
    await spool.append({ kind: 'run-finish', runId: 'r1', finishedAt: 't', rangeResults: [] });
    const [segment] = spool.sealed();
    const [first] = spool.messages(segment!);
    spool.ack(segment!, first!.firstLine + first!.lines);
    const reopened = new Spool(dir);
    expect(reopened.messages(segment!).map((m) => m.records[0]!.kind)).toEqual(['reading', 'run-finish']);
    reopened.remove(segment!);
    expect(reopened.sealed()).toEqual([]);
    expect(reopened.pendingCount()).toBe(0);
  });
});
