import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The project's import graph, read from the source: every relative import and every import of a
 * workspace package (`@pagewatch/x/y`, through the package's `exports`), resolved to files.
 * `typeOnly` marks `import type` edges, which vanish at run time.
 */
export type Edge = { from: string; to: string; typeOnly: boolean };

const ROOT = resolve(import.meta.dirname, '../../..');
const SOURCE_DIRS = ['packages/contracts/src', 'packages/snmp/src', 'apps/server/src', 'apps/agent/src', 'apps/web/src', 'tools/printer-sim/src'];
const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** `@pagewatch/<name>` → its folder and its `exports` map. */
function workspacePackages(): Map<string, { dir: string; exports: Record<string, string> }> {
  const out = new Map<string, { dir: string; exports: Record<string, string> }>();
  for (const dir of ['packages/contracts', 'packages/snmp', 'apps/server', 'apps/agent', 'apps/web', 'tools/printer-sim']) {
    const pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { name: string; exports?: Record<string, string> };
    out.set(pkg.name, { dir: join(ROOT, dir), exports: pkg.exports ?? {} });
  }
  return out;
}

function resolveImport(from: string, spec: string, packages: ReturnType<typeof workspacePackages>): string | null {
  if (spec.startsWith('.')) {
    const path = resolve(dirname(from), spec);
    return existsSync(path) && statSync(path).isFile() ? path : null;
  }
  const m = /^(@pagewatch\/[^/]+)(\/.*)?$/.exec(spec);
  const pkg = m && packages.get(m[1]);
  if (!pkg) return null;
  const key = `.${m[2] ?? ''}`;
  const target = pkg.exports[key] ?? (pkg.exports['./*'] && m[2] ? pkg.exports['./*'].replace('*', m[2].slice(1)) : undefined);
  return target && /\.tsx?$/.test(target) ? resolve(pkg.dir, target) : null;
}

export function importGraph(): { files: string[]; edges: Edge[]; root: string } {
  const packages = workspacePackages();
  const all = SOURCE_DIRS.flatMap((d) => files(join(ROOT, d)));
  const edges: Edge[] = [];
  for (const file of all) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const to = resolveImport(file, m[3], packages);
      if (to) edges.push({ from: file, to, typeOnly: Boolean(m[2]) });
    }
  }
  return { files: all, edges, root: ROOT };
}

/** Strongly connected groups of more than one file (or a file importing itself): the cycles. */
export function cycles(files: string[], edges: Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (next.get(v) ?? []).includes(v)) out.push(group);
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return out;
}

export const rel = (root: string, path: string) => relative(root, path);

/** The server module (`apps/server/src/modules/<name>/…`) a file belongs to, if any. */
export const serverModule = (root: string, path: string) => /^apps\/server\/src\/modules\/([^/]+)\//.exec(rel(root, path))?.[1];

/**
 * The server's modules as a graph: an edge for every import (type imports included) from one
 * module's file to another's. Returns the groups of modules that reach each other (largest
 * first) and, inside them, the pairs that import each other directly.
 */
export function moduleCycles(root: string, edges: Edge[]): { groups: string[][]; pairs: string[] } {
  const links = new Set<string>();
  for (const e of edges) {
    const a = serverModule(root, e.from);
    const b = serverModule(root, e.to);
    if (a && b && a !== b) links.add(`${a} ${b}`);
  }
  const modules = [...new Set([...links].flatMap((l) => l.split(' ')))].sort();
  const moduleEdges = [...links].map((l) => {
    const [from, to] = l.split(' ');
    return { from, to, typeOnly: false };
  });
  const groups = cycles(modules, moduleEdges).map((g) => g.sort()).sort((x, y) => y.length - x.length);
  const pairs = [...links].map((l) => l.split(' ')).filter(([a, b]) => a < b && links.has(`${b} ${a}`)).map(([a, b]) => `${a} <-> ${b}`).sort();
  return { groups, pairs };
}
