import { useMemo } from 'react';
import { networkRangesList } from '@pagewatch/contracts/network-ranges';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { clientConfig } from '../../lib/config.ts';
import { networksColumns } from './networks-columns.tsx';

/** `/networks` (spec section 2): the network ranges grid with Create. */
export function NetworksPage() {
  const columns = useMemo(() => networksColumns(clientConfig().NETWORK_RANGE_SHOW_PORTS), []);
  // The layout keeps its older name (the section was "network ranges"), so saved layouts stay.
  return (
    <ListScreen
      section="networks"
      gridKey="gridNetworkRanges"
      list={networkRangesList}
      columns={columns}
      create={{ label: 'networks.create', grant: 'MNU_NETWORK_RANGES.EDIT' }}
    />
  );
}
