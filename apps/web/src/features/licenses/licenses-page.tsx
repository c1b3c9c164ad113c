import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { licensesList, type LicenseListRow } from '@pagewatch/contracts/licenses';
import { isDefaultAdmin } from '@pagewatch/contracts/users';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { useCurrentUser } from '../../lib/auth-context.tsx';
import { formatDay, formatNumber } from '../../lib/format.ts';
import { fetchLicenseRows, licenseKeys } from './api/licenses-api.ts';

const columns = columnsFromList(licensesList, {
  code: { header: 'licenses.code', width: 160 },
  name: { header: 'licenses.name', width: 240 },
  // A location without a license says so, rather than three empty cells.
  dateFrom: { header: 'licenses.dateFrom', width: 110, cell: (r) => (r.dateFrom ? formatDay(r.dateFrom) : <NoLicense />) },
  dateTo: { header: 'licenses.dateTo', width: 110, cell: (r) => (r.dateTo ? formatDay(r.dateTo) : '—') },
  deviceCount: { header: 'licenses.deviceCount', width: 120, cell: (r) => (r.deviceCount === null ? '—' : formatNumber(r.deviceCount)) },
  activeDeviceCount: { header: 'licenses.activeDeviceCount', width: 120 },
  dbDeviceCount: { header: 'licenses.dbDeviceCount', width: 120 },
  id: { header: 'licenses.locationId', width: 90 },
  licenseId: { header: 'licenses.licenseId', width: 90 },
  parentId: { header: 'licenses.parentId', width: 90 },
});
function NoLicense() {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed" span>
      {t('licenses.noLicense')}
    </Text>
  );
}

// A location's license opens by the location's code.
const rowHref = (r: LicenseListRow) => `/license/${encodeURIComponent(r.code)}`;

/**
 * `/licenses` (spec section 2): the tree of the caller's locations with their licenses (DEFAULT
 * with the instance license); a row opens the location's license. Create needs
 * BTN_LICENSE_UPDATE.EXECUTE and the default administrator, who alone changes licenses.
 */
export function LicensesPage() {
  const me = useCurrentUser();
  const rows = useQuery({ queryKey: licenseKeys.list, queryFn: fetchLicenseRows });
  const create = isDefaultAdmin(me) && { label: 'licenses.create', grant: 'BTN_LICENSE_UPDATE.EXECUTE' as const, testId: 'license-create' };
  return <ListScreen section="licenses" list={licensesList} columns={columns} tree={rows} rowHref={rowHref} create={create} />;
}
