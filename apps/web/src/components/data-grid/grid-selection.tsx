import { Checkbox } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RowId } from './grid-tree.ts';
import classes from './data-grid.module.css';

/** Width of the checkbox column of a grid with row selection. */
export const SELECT_WIDTH = 36;

/** Row selection as the grid is given it: the ticked ids (kept by the screen) and the change handler. */
export type GridSelection = { selected: ReadonlySet<RowId>; onChange: (ids: RowId[]) => void };

/** The header's checkbox: ticks or unticks every row of the page; indeterminate when some are ticked. */
export function SelectAllCell({ pageIds, selection }: { pageIds: RowId[]; selection: GridSelection }) {
  const { t } = useTranslation();
  const ticked = pageIds.filter((id) => selection.selected.has(id)).length;
  const all = pageIds.length > 0 && ticked === pageIds.length;
  const toggle = () => {
    const rest = [...selection.selected].filter((id) => !pageIds.includes(id));
    selection.onChange(all ? rest : [...rest, ...pageIds]);
  };
  return (
    <div className={classes.selectCell} role="columnheader">
      <Checkbox size="xs" aria-label={t('grid.selectAll')} checked={all} indeterminate={ticked > 0 && !all} onChange={toggle} disabled={!pageIds.length} />
    </div>
  );
}

export function SelectRowCell({ id, selection }: { id: RowId; selection: GridSelection }) {
  const { t } = useTranslation();
  const on = selection.selected.has(id);
  return (
    <div className={classes.selectCell} role="gridcell" data-no-row-open>
      <Checkbox
        size="xs"
        aria-label={t('grid.selectRow')}
        checked={on}
        onChange={() => selection.onChange(on ? [...selection.selected].filter((x) => x !== id) : [...selection.selected, id])}
      />
    </div>
  );
}

/** The filter row's empty cell above the checkboxes. */
export function SelectSpacer() {
  return <div className={classes.selectCell} role="gridcell" />;
}
