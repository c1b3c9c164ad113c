import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, moduleCycles, rel, serverModule } from './import-graph.ts';

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

  it('form no cycle between server modules: no two modules reach each other, directly or round about (issue 40)', () => {
    expect(moduleCycles(root, edges)).toEqual({ groups: [], pairs: [] });
  });

  it("reach a server module only through its public surface, modules/<m>/index.ts, from other modules, jobs and plugins", () => {
    const outside = (e: { from: string; to: string }) => {
      const to = serverModule(root, e.to);
      return to !== undefined && to !== serverModule(root, e.from) && /^apps\/server\/src\/(modules|jobs|plugins)\//.test(path(e.from));
    };
    const wrong = edges.filter((e) => outside(e) && !/^apps\/server\/src\/modules\/[^/]+\/index\.ts$/.test(path(e.to)));
    expect(wrong.map((e) => `${path(e.from)} -> ${path(e.to)}`)).toEqual([]);
  });

  it("keep a module's own files off its index.ts (the surface is for others; inside, it would make cycles)", () => {
    const wrong = edges.filter((e) => /\/index\.ts$/.test(e.to) && serverModule(root, e.to) !== undefined && serverModule(root, e.from) === serverModule(root, e.to));
    expect(wrong.map((e) => `${path(e.from)} -> ${path(e.to)}`)).toEqual([]);
  });

  it('keep the tables in db/schema, the database\'s shared schema: no *.tables.ts is left in the server', () => {
    const tables = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? tables(join(dir, d.name)) : /\.tables\.ts$/.test(d.name) ? [path(join(dir, d.name))] : []));
    expect(tables(join(root, 'apps/server/src'))).toEqual([]);
    expect(readdirSync(join(root, 'apps/server/src/db/schema'))).toContain('devices.ts');
  });

  it("keep the console's features apart: a feature imports shared parts, never another feature", () => {
    const feature = (p: string) => /^apps\/web\/src\/features\/([^/]+)\//.exec(path(p))?.[1];
    const wrong = edges.filter((e) => feature(e.from) && feature(e.to) && feature(e.from) !== feature(e.to));
    expect(wrong.map((e) => `${path(e.from)} -> ${path(e.to)}`)).toEqual([]);
  });

  it('cast no raw result through unknown outside tests: typed rows (`db.execute<T>`), no `as unknown as` and no `rows as` (issue 40)', () => {
    // The one left: the pipelined pool handed to Drizzle as the pg.Pool it stands in for (Drizzle
    // takes a client whose class is named *Pool as a pool, and gives its transactions a connection).
    const allowed = new Set(['apps/server/src/db/client.ts']);
    const wrong = files
      .filter((f) => !/\/test\//.test(path(f)) && !allowed.has(path(f)))
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').flatMap((line, i) => (/\bas unknown as\b|\.rows as\b/.test(line) ? [`${path(f)}:${i + 1}`] : [])));
    expect(wrong).toEqual([]);
  });

  it("give each route file the services it uses, never the whole AppContext (issue 56)", () => {
    const routes = files.filter((f) => /^apps\/server\/src\/modules\/.*\.routes\.ts$/.test(path(f)));
    const whole = routes.filter((f) => /:\s*AppContext\b(?!\s*\[)/.test(readFileSync(f, 'utf8')));
    expect(routes.length).toBeGreaterThan(20);
    expect(whole.map(path)).toEqual([]);
  });

  it('sees the whole graph (a parser that found nothing would pass every check above)', () => {
    expect(files.length).toBeGreaterThan(250);
    expect(edges.length).toBeGreaterThan(1000);
  });
});
