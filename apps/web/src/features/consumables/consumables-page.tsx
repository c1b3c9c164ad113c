import { useMemo } from 'react';
import { consumablesList, type ConsumableRow } from '@pagewatch/contracts/consumables';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { useDeviceLookups } from '../../components/consumables/use-device-lookups.ts';
import { consumablesColumns } from './consumables-list.tsx';

const rowId = (r: ConsumableRow) => r.id;
/** A row opens its device (spec section 2, Consumables). */
const rowHref = (r: ConsumableRow) => `/device/${r.device.id}`;

/** `/consumables`: every supply of every device in the caller's locations, with its level bar. */
export function ConsumablesPage() {
  const lookups = useDeviceLookups();
  const columns = useMemo(() => (lookups ? consumablesColumns(lookups) : null), [lookups]);
  return <ListScreen title="nav.consumables" gridKey="gridConsumables" list={consumablesList} columns={columns} getRowId={rowId} rowHref={rowHref} />;
}
