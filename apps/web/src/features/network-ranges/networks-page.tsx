import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { networkRangesListSpec, type NetworkRangeListRow } from '@pagewatch/contracts/network-ranges';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { AppPage } from '../../components/layout/app-page.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { clientConfig } from '../../lib/config.ts';
import { networksColumns } from './networks-columns.tsx';

const rowId = (r: NetworkRangeListRow) => r.id;
const rowHref = (r: NetworkRangeListRow) => `/network/${r.id}`;

/** `/networks` (spec section 2): the network ranges grid with Create. */
export function NetworksPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  const columns = useMemo(() => networksColumns(clientConfig().NETWORK_RANGE_SHOW_PORTS), []);

  return (
    <AppPage title={t('nav.networks')}>
      <DataGrid<NetworkRangeListRow>
        gridKey="gridNetworkRanges"
        endpoint={networkRangesListSpec.endpoint}
        columns={columns}
        defaultSort={networkRangesListSpec.defaultSort}
        getRowId={rowId}
        rowHref={rowHref}
        toolbar={
          hasGrant('MNU_NETWORK_RANGES.EDIT') && (
            <Button size="xs" leftSection={<IconPlus size={16} />} onClick={() => void navigate('/network/-1')}>
              {t('networks.create')}
            </Button>
          )
        }
      />
    </AppPage>
  );
}
