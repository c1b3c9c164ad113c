import type { ReadingTray } from '@pagewatch/contracts/reading';
import { computeLevel } from './level.ts';
import type { MibData } from './mib-data.ts';
import { PRT } from './printer-mib.ts';

/** The paper format a device takes at most. */
export type PaperFormat = 'A4' | 'A3';

const COLUMNS = [PRT.inputMaxCapacity, PRT.inputCurrentLevel, PRT.inputName];

/** prtInputTable as trays. Trays without a name are listed too, named by their index. */
export function readTrays(data: MibData): ReadingTray[] {
  const rows = new Set<string>();
  for (const column of COLUMNS) for (const index of data.column(column).keys()) rows.add(index);
  const trays: ReadingTray[] = [];
  for (const row of rows) {
    if (!/^\d+\.\d+$/.test(row)) continue;
    const index = Number(row.split('.')[1]);
    const what = `tray ${index}`;
    const name =
      data.text(`${PRT.inputName}.${row}`, `${what} name`) ??
      data.text(`${PRT.inputDescription}.${row}`, `${what} description`) ??
      `Tray ${index}`;
    const maxCapacity = data.int(`${PRT.inputMaxCapacity}.${row}`, `${what} max capacity`);
    const level = data.int(`${PRT.inputCurrentLevel}.${row}`, `${what} level`);
    // Trays count sheets: without a capacity a level is no percentage.
    const { levelState, percent } = computeLevel(level, maxCapacity, false);
    trays.push({ index, name, mediaName: data.text(`${PRT.inputMediaName}.${row}`, `${what} media`), level, maxCapacity, levelState, percent });
  }
  return trays;
}

/** Millimetres per unit of prtInputDimUnit: tenThousandthsOfInches(3), micrometers(4). */
const MM_PER_UNIT: Record<number, number> = { 3: 25.4 / 10000, 4: 1 / 1000 };

/** A3 when a tray takes paper with a long edge of 400 mm or more (A3 420, ledger 432). */
export function paperFormatFromTrays(data: MibData): PaperFormat | null {
  let longest = 0;
  for (const [row, unitVb] of data.column(PRT.inputDimUnit)) {
    const unit = typeof unitVb.value === 'number' ? MM_PER_UNIT[unitVb.value] : undefined;
    if (!unit) continue;
    const feed = data.int(`${PRT.inputFeedDim}.${row}`, 'tray media dimension') ?? -1;
    const xfeed = data.int(`${PRT.inputXFeedDim}.${row}`, 'tray media dimension') ?? -1;
    longest = Math.max(longest, feed * unit, xfeed * unit);
  }
  if (longest <= 0) return null;
  return longest >= 400 ? 'A3' : 'A4';
}
