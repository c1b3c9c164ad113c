import { describe, expect, it } from 'vitest';
import { ROOM_PLAN_MAX_BYTES } from '@pagewatch/contracts/dictionaries';
import { bearer, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { multipart } from '../../test/devices-world.ts';

/**
 * A room plan of the largest size allowed must not stop the server (issue 52): while it is
 * parsed, sanitised and stored, the health probe answers within a second and another API call
 * within a few. Timed (vitest.config.ts): it holds a wall-clock bound.
 */
const t = testApp();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000">';
/** An SVG of exactly `bytes` bytes: `unit` repeated, padded with spaces. */
function svgOf(bytes: number, unit: string) {
  const tail = '</svg>';
  const n = Math.floor((bytes - SVG_HEAD.length - tail.length) / unit.length);
  const body = SVG_HEAD + unit.repeat(n);
  return Buffer.from(body + ' '.repeat(bytes - body.length - tail.length) + tail);
}

/**
 * Uploads `data` as a location's plan and, every 200 ms until it is answered, asks for the
 * health probe and for the location's plan: how late each answer came after it was due (a
 * blocked event loop makes both late, even though they start only once it is free).
 */
async function uploadWhileProbing(data: Buffer, filename: string, type: string) {
  const locationId = await addLocation(t.ctx.db, `LOAD${Math.random().toString(36).slice(2, 8)}`);
  const file = multipart('file', filename, type, data);
  let done = false;
  const started = Date.now();
  const uploaded = t.app
    .inject({ method: 'POST', url: `/api/locations/${locationId}/plan`, payload: file.payload, headers: { ...bearer(t.admin), ...file.headers } })
    .finally(() => { done = true; });
  const health: number[] = [];
  const api: number[] = [];
  // The first probe is made even if the upload was answered first: a blocked event loop delays
  // its timer until the upload is over, and that is how late its answer is.
  for (let k = 1; k === 1 || !done; k++) {
    const due = started + k * 200;
    await sleep(Math.max(0, due - Date.now()));
    const [h, a] = await Promise.all([
      t.app.inject({ url: '/api/health' }).then((r) => { expect(r.statusCode).toBe(200); return Date.now() - due; }),
      t.app.inject({ url: `/api/locations/${locationId}/plan`, headers: bearer(t.admin) }).then((r) => { expect(r.statusCode).toBe(200); return Date.now() - due; }),
    ]);
    health.push(h);
    api.push(a);
  }
  const res = await uploaded;
  return { res, health, api, locationId, ms: Date.now() - started };
}

describe('a room plan of the largest size allowed (issue 52)', () => {
  it.each([
    ['an SVG drawing', () => svgOf(ROOM_PLAN_MAX_BYTES, '<path d="M0 0L10 10" stroke="#000"/>'), 'plan.svg', 'image/svg+xml'],
    ['an SVG of unclosed tags', () => svgOf(ROOM_PLAN_MAX_BYTES, '<g a '), 'plan.svg', 'image/svg+xml'],
    ['a PNG', () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(ROOM_PLAN_MAX_BYTES - 8, 0x5a)]), 'plan.png', 'image/png'],
  ])('%s: the health probe answers within a second and the API within a few while it is stored', async (_, make, filename, type) => {
    const data = make();
    expect(data.length).toBe(ROOM_PLAN_MAX_BYTES);
    const { res, health, api, locationId } = await uploadWhileProbing(data, filename, type);
    expect(res.statusCode, res.body).toBe(200);
    expect(Math.max(...health)).toBeLessThan(1_000);
    expect(Math.max(...api)).toBeLessThan(3_000);
    // And the plan is there, whole.
    const image = await t.app.inject({ url: `/api/locations/${locationId}/plan/image`, headers: bearer(t.admin) });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe(type);
    if (type === 'image/png') expect(image.rawPayload.equals(data)).toBe(true);
    else expect(image.rawPayload.toString()).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 1000 1000">/);
  }, 120_000);
});
