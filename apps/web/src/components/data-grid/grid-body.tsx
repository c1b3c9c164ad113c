import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import { ActionIcon } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import type { Row as TableRow } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { formatCell } from './grid-cell.tsx';
import { ROW_HEIGHT } from './grid-page-size.ts';
import { isSelfOrDescendant, type RowId } from './grid-tree.ts';
import { SelectRowCell, type GridSelection } from './grid-selection.tsx';
import type { GridColumn } from './grid-types.ts';
import classes from './data-grid.module.css';

type Props<Row> = {
  rows: TableRow<Row>[];
  columnOf: (field: string) => GridColumn<Row>;
  scrollRef: RefObject<HTMLDivElement | null>;
  /** Height of the sticky header above the body inside the scroll area. */
  headerHeight: number;
  highlightId?: RowId | null;
  tree: boolean;
  onOpen?: (row: Row, newTab: boolean) => void;
  onRowDrop?: (dragged: Row, target: Row | null) => void;
  canDragRow?: (row: Row) => boolean;
  getRowId: (row: Row) => RowId;
  getSubRows?: (row: Row) => Row[] | undefined;
  selection?: GridSelection;
};

/** Clicks on controls inside a cell (links, buttons, the expander) are theirs, not the row's. */
function fromControl(e: MouseEvent | KeyboardEvent): boolean {
  const target = e.target as HTMLElement;
  return !!target.closest('a,button,input,select,textarea,label,[data-no-row-open]') && target !== e.currentTarget;
}

/** The virtualised rows: only those in view (plus a margin) are in the DOM, so thousands stay fast. */
export function GridBody<Row>(p: Props<Row>) {
  const { t } = useTranslation();
  const { rows } = p;
  const [active, setActive] = useState(0);
  const scrolledTo = useRef<RowId | null>(null);
  const drag = useRowDrag(p);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => p.scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: p.headerHeight,
    scrollPaddingStart: p.headerHeight,
  });

  // Bring the highlighted row (e.g. the user just saved) into view once when it appears.
  const highlightIndex = p.highlightId == null ? -1 : rows.findIndex((r) => p.getRowId(r.original) === p.highlightId);
  useEffect(() => {
    if (highlightIndex < 0 || scrolledTo.current === p.highlightId) return;
    scrolledTo.current = p.highlightId ?? null;
    setActive(highlightIndex);
    virtualizer.scrollToIndex(highlightIndex, { align: 'center' });
  }, [highlightIndex, p.highlightId, virtualizer]);

  const activeIndex = Math.min(active, Math.max(0, rows.length - 1));

  const focusRow = (i: number) => {
    const index = Math.max(0, Math.min(rows.length - 1, i));
    setActive(index);
    virtualizer.scrollToIndex(index);
    // The row may mount only after the scroll renders; try for a few frames.
    let tries = 0;
    const attempt = () => {
      const el = p.scrollRef.current?.querySelector<HTMLElement>(`[data-index="${index}"]`);
      if (el) el.focus({ preventScroll: true });
      else if (tries++ < 5) requestAnimationFrame(attempt);
    };
    requestAnimationFrame(attempt);
  };

  const onClick = (e: MouseEvent, row: Row) => {
    if (fromControl(e)) return;
    // Selecting text in a row is not a request to open it.
    if (window.getSelection()?.toString()) return;
    p.onOpen?.(row, e.ctrlKey || e.metaKey || e.button === 1);
  };

  const onKeyDown = (e: KeyboardEvent, r: TableRow<Row>, i: number) => {
    if (fromControl(e)) return;
    const moves: Record<string, number> = { ArrowDown: i + 1, ArrowUp: i - 1, PageDown: i + 10, PageUp: i - 10, Home: 0, End: rows.length - 1 };
    if (e.key in moves) {
      e.preventDefault();
      focusRow(moves[e.key]);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      p.onOpen?.(r.original, e.ctrlKey || e.metaKey);
    } else if (e.key === 'ArrowRight' && r.getCanExpand() && !r.getIsExpanded()) {
      e.preventDefault();
      r.toggleExpanded(true);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      if (r.getIsExpanded()) r.toggleExpanded(false);
      else if (r.getParentRow()) focusRow(rows.indexOf(r.getParentRow()!));
    }
  };

  const items = virtualizer.getVirtualItems();
  return (
    <div
      className={classes.body}
      role="rowgroup"
      style={{ height: virtualizer.getTotalSize() }}
      {...drag.bodyProps}
    >
      {items.map((v) => {
        const r = rows[v.index];
        const row = r.original;
        const id = p.getRowId(row);
        const cls = [
          classes.row,
          id === p.highlightId ? classes.highlighted : '',
          p.selection?.selected.has(id) ? classes.selected : '',
          drag.dropTarget === id ? classes.dropTarget : '',
        ].join(' ');
        return (
          <div
            key={r.id}
            className={cls}
            role="row"
            data-index={v.index}
            data-row-id={id}
            aria-selected={id === p.highlightId || undefined}
            aria-level={p.tree ? r.depth + 1 : undefined}
            aria-expanded={p.tree && r.getCanExpand() ? r.getIsExpanded() : undefined}
            tabIndex={v.index === activeIndex ? 0 : -1}
            style={{ transform: `translateY(${v.start - p.headerHeight}px)` }}
            onClick={(e) => onClick(e, row)}
            onAuxClick={(e) => e.button === 1 && onClick(e, row)}
            // A middle press would start the browser's auto-scroll instead of opening a tab.
            onMouseDown={(e) => e.button === 1 && e.preventDefault()}
            onFocus={() => setActive(v.index)}
            onKeyDown={(e) => onKeyDown(e, r, v.index)}
            {...drag.rowProps(row, id)}
          >
            {p.selection ? <SelectRowCell id={id} selection={p.selection} /> : null}
            {r.getVisibleCells().map((cell, ci) => {
              const col = p.columnOf(cell.column.id);
              const size = cell.column.getSize();
              const value = cell.getValue();
              return (
                <div key={cell.id} className={classes.cell} style={{ flex: `${size} 0 ${size}px` }} role="gridcell">
                  {p.tree && ci === 0 ? <Expander row={r} /> : null}
                  <span className={classes.cellText}>{col.cell ? col.cell(row) : formatCell(col, value, t)}</span>
                </div>
              );
            })}
          </div>
        );
      })}
    </div>
  );
}

/** A tree's first cell starts with its row's expander: a toggle where it has children, else its space. */
function Expander<Row>({ row: r }: { row: TableRow<Row> }) {
  const { t } = useTranslation();
  return (
    <span style={{ paddingLeft: r.depth * 18 }} className={classes.expander}>
      {r.getCanExpand() ? (
        <ActionIcon
          size="sm"
          variant="subtle"
          color="gray"
          tabIndex={-1}
          aria-label={r.getIsExpanded() ? t('grid.collapse') : t('grid.expand')}
          onClick={r.getToggleExpandedHandler()}
        >
          {r.getIsExpanded() ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        </ActionIcon>
      ) : (
        <span className={classes.expanderSpace} />
      )}
    </span>
  );
}

/**
 * Rows dragged onto rows (a tree's move), or onto the body (to the root): never onto themselves
 * or their own descendants. Nothing is draggable without `onRowDrop`.
 */
function useRowDrag<Row>(p: Pick<Props<Row>, 'onRowDrop' | 'canDragRow' | 'getRowId' | 'getSubRows'>) {
  const [dropTarget, setDropTarget] = useState<RowId | 'root' | null>(null);
  const dragged = useRef<Row | null>(null);
  const enabled = !!p.onRowDrop;
  const canDrop = (target: Row | null) => {
    const d = dragged.current;
    if (!d) return false;
    return target === null || !isSelfOrDescendant(d, target, p.getRowId, p.getSubRows);
  };
  const drop = (target: Row | null) => {
    const d = dragged.current;
    const allowed = canDrop(target);
    dragged.current = null;
    setDropTarget(null);
    if (d && allowed) p.onRowDrop?.(d, target);
  };
  const bodyProps = {
    onDragOver: (e: DragEvent) => {
      if (enabled && dragged.current) {
        e.preventDefault();
        setDropTarget('root');
      }
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      if (enabled) drop(null);
    },
  };
  const rowProps = (row: Row, id: RowId) => ({
    draggable: enabled && (p.canDragRow?.(row) ?? true),
    onDragStart: (e: DragEvent) => {
      dragged.current = row;
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', String(id));
    },
    onDragEnd: () => {
      dragged.current = null;
      setDropTarget(null);
    },
    onDragOver: (e: DragEvent) => {
      if (!enabled || !dragged.current) return;
      e.stopPropagation();
      if (canDrop(row)) {
        e.preventDefault();
        setDropTarget(id);
      } else setDropTarget(null);
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      e.stopPropagation();
      drop(row);
    },
  });
  return { dropTarget, bodyProps, rowProps };
}
