import { NETWORK_RANGE_TYPE_DEFS, NETWORK_RANGE_TYPES, networkRangesList, type NetworkRangeListRow } from '@pagewatch/contracts/network-ranges';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import type { GridColumn } from '../../components/data-grid/grid-types.ts';

const TYPE_OPTIONS = NETWORK_RANGE_TYPES.map((t) => ({ value: t, label: NETWORK_RANGE_TYPE_DEFS[t].labelKey }));

/** The network ranges grid's looks; the port column only when the server says ports are shown. */
export function networksColumns(showPorts: boolean): GridColumn<NetworkRangeListRow>[] {
  const columns = columnsFromList(networkRangesList, {
    name: { header: 'networks.name', width: 180 },
    type: { header: 'networks.typeLabel', width: 190, type: 'lookup', options: TYPE_OPTIONS },
    address: { header: 'networks.address', width: 130 },
    mask: { header: 'networks.mask', width: 130 },
    from: { header: 'networks.from', width: 130 },
    to: { header: 'networks.to', width: 130 },
    port: { header: 'networks.port', width: 80 },
    snmpVersion: { header: 'networks.snmpVersion', width: 90 },
    agentName: { header: 'networks.agent', width: 170 },
    locationName: { header: 'networks.location', width: 160 },
    agentId: { header: 'networks.agentId', width: 90 },
    locationId: { header: 'networks.locationId', width: 90 },
    id: { header: 'networks.id', width: 80 },
  });
  return showPorts ? columns : columns.filter((c) => c.field !== 'port');
}
