import { useMemo } from 'react';
import { networkRangesList } from '@pagewatch/contracts/network-ranges';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { clientConfig } from '../../lib/config.ts';
import { networksColumns } from './networks-columns.tsx';

/** `/networks` (spec section 2): the network ranges grid with Create. */
export function NetworksPage() {
  const columns = useMemo(() => networksColumns(clientConfig().NETWORK_RANGE_SHOW_PORTS), []);
  return (
    <ListScreen
      title="nav.networks"
      gridKey="gridNetworkRanges"
      list={networkRangesList}
      columns={columns}
      item="/network"
      create={{ label: 'networks.create', grant: 'MNU_NETWORK_RANGES.EDIT' }}
    />
  );
}
