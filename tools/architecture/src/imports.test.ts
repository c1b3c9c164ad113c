import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, rel } from './import-graph.ts';

/** House style rule 8: imports flow one way. */
const { files, edges, root } = importGraph();
const path = (p: string) => rel(root, p);

describe('imports', () => {
  it('form no cycle anywhere (type imports included)', () => {
    expect(cycles(files, edges).map((group) => group.map(path).sort())).toEqual([]);
  });

  it("keep the server's lib/ and db/ free of modules and plugins", () => {
    const wrong = edges.filter((e) => /^apps\/server\/src\/(lib|db)\//.test(path(e.from)) && /^apps\/server\/src\/(modules|plugins)\//.test(path(e.to)));
    expect(wrong.map((e) => `${path(e.from)} -> ${path(e.to)}`)).toEqual([]);
  });

  it('keep SQL in repositories: server modules and plugins other than repositories, lists and seeds import neither drizzle-orm nor a table', () => {
    const holdsSql = /\.(repository|list|seed)\.ts$/;
    const layered = files.filter((f) => /^apps\/server\/src\/(modules|plugins)\//.test(path(f)) && !holdsSql.test(f));
    const wrong = [
      ...layered.filter((f) => /from\s+'drizzle-orm/.test(readFileSync(f, 'utf8'))).map((f) => `${path(f)} -> drizzle-orm`),
      ...edges.filter((e) => layered.includes(e.from) && !e.typeOnly && /\/db\/schema\//.test(path(e.to))).map((e) => `${path(e.from)} -> ${path(e.to)}`),
    ];
    expect(wrong).toEqual([]);
  });

  it("keep the console's features apart: a feature imports shared parts, never another feature", () => {
    const feature = (p: string) => /^apps\/web\/src\/features\/([^/]+)\//.exec(path(p))?.[1];
    const wrong = edges.filter((e) => feature(e.from) && feature(e.to) && feature(e.from) !== feature(e.to));
    expect(wrong.map((e) => `${path(e.from)} -> ${path(e.to)}`)).toEqual([]);
  });

  it('sees the whole graph (a parser that found nothing would pass every check above)', () => {
    expect(files.length).toBeGreaterThan(250);
    expect(edges.length).toBeGreaterThan(1000);
  });
});
