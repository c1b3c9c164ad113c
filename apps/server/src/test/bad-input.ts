import { expect } from 'vitest';

type Answer = { statusCode: number; body: string; json: () => { message: string; details: { field: string; message: string }[] } };

/**
 * Each bad payload answered 400 with a detail for its field whose message matches; with
 * `namedInMessage`, the answer's message names the field too.
 */
export async function expectFieldErrors(send: (payload: object) => Promise<Answer>, cases: [object, string, RegExp][], opts: { namedInMessage?: boolean } = {}): Promise<void> {
  for (const [payload, field, message] of cases) {
    const res = await send(payload);
    expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
    const detail = res.json().details.find((d) => d.field === field);
    expect(detail, `${field}: ${res.body}`).toBeTruthy();
    expect(detail!.message).toMatch(message);
    if (opts.namedInMessage) expect(res.json().message).toContain(field);
  }
}
