import { describe, expect, it } from 'vitest';
import { countTreeRows, isSelfOrDescendant, shapeTree, treeFromParentIds } from './grid-tree.ts';

type Node = { id: number; parentId: number | null; name: string };
const flat: Node[] = [
  { id: 1, parentId: null, name: 'root' },
  { id: 2, parentId: 1, name: 'b-child' },
  { id: 3, parentId: 2, name: 'grandchild' },
  { id: 4, parentId: 1, name: 'a-child' },
  { id: 5, parentId: 99, name: 'orphan' },
];
const id = (n: Node) => n.id;

describe('tree helpers', () => {
  const tree = treeFromParentIds(flat, id, (n) => n.parentId);

  it('builds roots and children from parent ids; orphans become roots', () => {
    expect(tree.roots.map(id)).toEqual([1, 5]);
    expect(tree.getSubRows(flat[0])!.map(id)).toEqual([2, 4]);
    expect(tree.getSubRows(flat[2])).toBeUndefined();
  });

  it('refuses a drop into the dragged row itself or below it', () => {
    expect(isSelfOrDescendant(flat[0], flat[2], id, tree.getSubRows)).toBe(true);
    expect(isSelfOrDescendant(flat[0], flat[0], id, tree.getSubRows)).toBe(true);
    expect(isSelfOrDescendant(flat[1], flat[3], id, tree.getSubRows)).toBe(false);
  });

  it('keeps ancestors of matches and orders every level', () => {
    const shaped = shapeTree(
      tree.roots,
      tree.getSubRows,
      (n) => n.name.includes('child'),
      (rows) => rows.slice().sort((a, b) => a.name.localeCompare(b.name)),
    );
    expect(shaped.roots.map(id)).toEqual([1]);
    expect(shaped.getSubRows(flat[0])!.map(id)).toEqual([4, 2]);
    expect(shaped.getSubRows(flat[1])!.map(id)).toEqual([3]);
  });

  it('counts the rows of every level, not only the roots', () => {
    expect(countTreeRows(tree.roots, tree.getSubRows)).toBe(5);
    expect(countTreeRows(tree.roots, undefined)).toBe(2);
    const shaped = shapeTree(tree.roots, tree.getSubRows, (n) => n.name === 'grandchild', (rows) => rows.slice());
    // The match and the ancestors that lead to it.
    expect(countTreeRows(shaped.roots, shaped.getSubRows)).toBe(3);
  });
});
