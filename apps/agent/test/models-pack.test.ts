import { readFileSync } from 'node:fs';
import { modelsPackSchema, parseModelsPack } from '@pagewatch/contracts/models-pack';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS_PACK_PATH, loadDefaultModelsPack } from '@pagewatch/snmp/models-pack';

const minimal = { schema: 'pagewatch/models-pack@1', version: 2, profiles: [{ id: 'generic', vendor: 'x' }] };

describe('models pack', () => {
  it('ships a valid pack with a version and the vendors without corpus data', () => {
    const pack = loadDefaultModelsPack();
    expect(pack.version).toBeGreaterThan(0);
    const vendors = pack.profiles.map((p) => p.vendor);
    for (const v of ['Kyocera', 'UTAX', 'TA Triumph-Adler', 'Olivetti', 'Lexmark', 'Toshiba TEC', 'Xerox', 'Lanier', 'Savin', 'Gestetner', 'NRG', 'Infotec', 'Pantum']) {
      expect(vendors).toContain(v);
    }
    expect(parseModelsPack(readFileSync(DEFAULT_MODELS_PACK_PATH, 'utf8')).ok).toBe(true);
  });

  it('accepts a minimal pack', () => {
    const result = parseModelsPack(minimal);
    expect(result.ok).toBe(true);
    expect(modelsPackSchema.parse(minimal).profiles[0]?.match.enterprises).toEqual([]);
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['a wrong schema tag', { ...minimal, schema: 'x' }, /schema/],
    ['a version of 0', { ...minimal, version: 0 }, /version/],
    ['a bad regex', { ...minimal, profiles: [{ id: 'a', vendor: 'A', match: { sysDescrPatterns: ['(('] } }] }, /valid regular expression/],
    ['a bad OID', { ...minimal, profiles: [{ id: 'a', vendor: 'A', serialNumber: [{ oid: '.1.3.x' }] }] }, /numeric OID/],
    ['a source with oid and from', { ...minimal, profiles: [{ id: 'a', vendor: 'A', model: [{ oid: '1.3', from: 'sysDescr' }] }] }, /exactly one/],
    ['a duplicate id', { ...minimal, profiles: [{ id: 'a', vendor: 'A' }, { id: 'a', vendor: 'B' }] }, /duplicate id/],
    ['an unknown parent', { ...minimal, profiles: [{ id: 'a', vendor: 'A', extends: 'b' }] }, /unknown profile b/],
    ['an inheritance cycle', { ...minimal, profiles: [{ id: 'a', vendor: 'A', extends: 'b' }, { id: 'b', vendor: 'B', extends: 'a' }] }, /cycle/],
    ['an unknown key', { ...minimal, extra: 1 }, /unrecognized|Unrecognized/],
  ])('rejects %s with a readable problem', (_what, input, problem) => {
    const result = parseModelsPack(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.join('\n')).toMatch(problem);
  });
});
