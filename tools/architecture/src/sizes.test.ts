import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importGraph } from './import-graph.ts';

/**
 * The sizes a newcomer can read (issue 56): no source file over 400 lines, and no function
 * (a component, a hook, a method, a callback) over 150. A file or function that grows past them
 * is split along a seam of its own, each part a thing one can name.
 */
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 150;

const { files, root } = importGraph();
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** Each function of a file longer than `max` lines, by its name (or the line it starts on) and its length. */
export function longFunctions(path: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) {
        const named = node.name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
        out.push(`${named ? named.getText(source) : `(line ${first + 1})`}: ${lines} lines`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('sizes', () => {
  it(`no source file is over ${MAX_FILE_LINES} lines`, () => {
    const long = files.map((f) => ({ f, n: lineCount(readFileSync(f, 'utf8')) })).filter(({ n }) => n > MAX_FILE_LINES);
    expect(long.map(({ f, n }) => `${relative(root, f)}: ${n} lines`)).toEqual([]);
  });

  it(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files.flatMap((f) => longFunctions(f, readFileSync(f, 'utf8'), MAX_FUNCTION_LINES).map((what) => `${relative(root, f)} ${what}`));
    expect(long).toEqual([]);
  });

  it('measures a function as it is written, so a long one fails', () => {
    const body = Array.from({ length: 151 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    expect(longFunctions('x.ts', `export function big() {\n${body}\n}\nconst small = () => 1;\n`, MAX_FUNCTION_LINES)).toEqual(['big: 153 lines']);
    expect(longFunctions('x.tsx', `const Grid = () => {\n${body}\n};\n`, MAX_FUNCTION_LINES)).toEqual(['Grid: 153 lines']);
  });
});
