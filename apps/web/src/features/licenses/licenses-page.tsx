import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { licensesList, type LicenseListRow } from '@pagewatch/contracts/licenses';
import { isDefaultAdmin } from '@pagewatch/contracts/users';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import { AppPage } from '../../components/layout/app-page.tsx';
import { useAuth, useCurrentUser } from '../../lib/auth-context.tsx';
import { fetchLicenseRows, licenseKeys } from './api/licenses-api.ts';

const columns = columnsFromList(licensesList, {
  code: { header: 'licenses.code', width: 160 },
  name: { header: 'licenses.name', width: 240 },
  dateFrom: { header: 'licenses.dateFrom', width: 110 },
  dateTo: { header: 'licenses.dateTo', width: 110 },
  deviceCount: { header: 'licenses.deviceCount', width: 120 },
  activeDeviceCount: { header: 'licenses.activeDeviceCount', width: 120 },
  dbDeviceCount: { header: 'licenses.dbDeviceCount', width: 120 },
  id: { header: 'licenses.locationId', width: 90 },
  licenseId: { header: 'licenses.licenseId', width: 90 },
  parentId: { header: 'licenses.parentId', width: 90 },
});
const rowId = (r: LicenseListRow) => r.id;
const parentOf = (r: LicenseListRow) => r.parentId;
const rowHref = (r: LicenseListRow) => `/license/${encodeURIComponent(r.code)}`;

/**
 * `/licenses` (spec section 2): the tree of the caller's locations with their licenses (DEFAULT
 * with the instance license); a row opens the location's license. Create needs
 * BTN_LICENSE_UPDATE.EXECUTE and the default administrator, who alone changes licenses.
 */
export function LicensesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  const me = useCurrentUser();
  const rows = useQuery({ queryKey: licenseKeys.list, queryFn: fetchLicenseRows });
  const canCreate = hasGrant('BTN_LICENSE_UPDATE.EXECUTE') && isDefaultAdmin(me);

  return (
    <AppPage title={t('nav.licenses')}>
      <DataGrid<LicenseListRow>
        gridKey="gridLicenses"
        columns={columns}
        data={rows.data?.pageRows ?? []}
        loading={rows.isFetching}
        error={rows.error}
        defaultSort={[...licensesList.defaultSort]}
        getRowId={rowId}
        getParentId={parentOf}
        defaultExpanded
        rowHref={rowHref}
        toolbar={
          canCreate && (
            <Button size="xs" leftSection={<IconPlus size={16} />} onClick={() => void navigate('/license/-1')} data-testid="license-create">
              {t('licenses.create')}
            </Button>
          )
        }
      />
    </AppPage>
  );
}
