import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp } from '../../test/test-app.ts';
import { ingestTables } from '../../test/ingest-tables.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { agentReading, batch, createAgent, post, type Printer } from './ingest.fixtures.ts';

const t = testApp();

const { rows, eventTypes, clean } = ingestTables(() => t.ctx.db);

describe('an agent and the devices of other locations', () => {
  // A and its child A_CHILD are agent A's scope; B is another branch (issue 14, finding 4).
  let loc: { A: number; A_CHILD: number; B: number };
  beforeAll(async () => {
    loc = { A: await addLocation(t.ctx.db, 'SCOPE_A'), A_CHILD: 0, B: await addLocation(t.ctx.db, 'SCOPE_B') };
    loc.A_CHILD = await addLocation(t.ctx.db, 'SCOPE_A_CHILD', 'SCOPE_A');
  });
  beforeEach(clean);

  const T0 = Date.now() - 3600_000;
  const sendAs = async (token: string, ip: string, p: Printer, s: number) => {
    const res = await post(t.app, token, batch([agentReading(ip, p, { readAt: new Date(T0 + s * 1000) })]));
    expect(res.statusCode, res.body).toBe(200);
  };
  const bySerial = (serial: string) =>
    rows<{ id: number; location_id: number; agent_id: number | null; ip: string; total_count: number; status_code: string }>(
      sql`SELECT id, location_id, agent_id, ip, total_count::float8 AS total_count, status_code FROM devices WHERE serial_number = ${serial} ORDER BY id`);
  const notes = () =>
    rows<{ log_level: string; message: string; message_code: string; location_id: number; message_params: Record<string, unknown> }>(
      sql`SELECT log_level, message, message_code, location_id, message_params FROM event_logs WHERE message_code = 'device.serialElsewhere' ORDER BY id`);

  it('never overwrites a device of another location by serial or MAC: a new device and a warning note instead', async () => {
    await t.ctx.db.execute(sql`DELETE FROM event_logs WHERE message_code = 'device.serialElsewhere'`);
    const a = await createAgent(t.app, t.admin, { name: 'Agent A', locationId: loc.A });
    const b = await createAgent(t.app, t.admin, { name: 'Agent B', locationId: loc.B });
    await sendAs(b.token, '127.0.12.1', { serial: 'X1', mac: '00:11:22:33:44:55', total: 100 }, 0);
    const [victim] = await bySerial('X1');
    expect(victim).toMatchObject({ location_id: loc.B, agent_id: b.agentId, ip: '127.0.12.1', total_count: 100 });

    // A posts B's serial (and MAC) from another address, with other counters and an error.
    await sendAs(a.token, '127.0.13.7', { serial: 'X1', mac: '00:11:22:33:44:55', total: 999_999, errors: ['jammed'], deviceStatus: 'down' }, 10);
    const after = await bySerial('X1');
    expect(after).toHaveLength(2);
    expect(after[0]).toEqual(victim);
    expect(after[1]).toMatchObject({ location_id: loc.A, agent_id: a.agentId, ip: '127.0.13.7', total_count: 999_999 });
    // B's users get no event of A's reading.
    expect(await eventTypes(victim.id)).toEqual(['NEW_DEVICE']);
    // The note: a warning at A's location naming the serial, not B's location.
    const [note, ...more] = await notes();
    expect(more).toEqual([]);
    expect(note).toMatchObject({ log_level: 'W', location_id: loc.A, message_params: expect.objectContaining({ serial: 'X1' }) });
    expect(note.message).toContain('X1');
    expect(note.message).not.toMatch(/SCOPE_B|Location SCOPE_B/);
    expect(JSON.stringify(note.message_params)).not.toMatch(/SCOPE_B/);

    // A's next reading updates its own device; no second note.
    await sendAs(a.token, '127.0.13.7', { serial: 'X1', mac: '00:11:22:33:44:55', total: 1_000_000 }, 20);
    expect((await bySerial('X1')).map((d) => d.total_count)).toEqual([100, 1_000_000]);
    expect(await notes()).toHaveLength(1);

    // No serial, B's MAC: a new device as well.
    await sendAs(b.token, '127.0.12.2', { serial: null, mac: '00:11:22:33:44:66', total: 5 }, 0);
    await sendAs(a.token, '127.0.13.8', { serial: null, mac: '00:11:22:33:44:66', total: 6 }, 10);
    const byMac = await rows<{ location_id: number; total_count: number }>(sql`SELECT location_id, total_count::float8 AS total_count FROM devices WHERE mac_address = '00:11:22:33:44:66' ORDER BY id`);
    expect(byMac).toEqual([{ location_id: loc.B, total_count: 5 }, { location_id: loc.A, total_count: 6 }]);
  });

  it("matches devices of the agent's location and the locations below it", async () => {
    const a = await createAgent(t.app, t.admin, { name: 'Agent A', locationId: loc.A });
    const child = await createAgent(t.app, t.admin, { name: 'Agent A child', locationId: loc.A_CHILD });
    await sendAs(child.token, '127.0.14.1', { serial: 'Y1', total: 10 }, 0);
    await sendAs(a.token, '127.0.14.1', { serial: 'Y1', total: 20 }, 10);
    const devs = await bySerial('Y1');
    expect(devs).toHaveLength(1);
    expect(devs[0]).toMatchObject({ location_id: loc.A_CHILD, agent_id: a.agentId, total_count: 20 });
    // The child's agent cannot reach up to its parent's devices.
    await sendAs(a.token, '127.0.14.2', { serial: 'Y2', total: 10 }, 0);
    await sendAs(child.token, '127.0.14.2', { serial: 'Y2', total: 30 }, 10);
    expect((await bySerial('Y2')).map((d) => [d.location_id, d.total_count])).toEqual([[loc.A, 10], [loc.A_CHILD, 30]]);
  });
});
