import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { locationsList } from '@pagewatch/contracts/dictionaries';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import { AppPage } from '../../components/layout/app-page.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { notifyError, notifySuccess } from '../../lib/errors.ts';
import { clearLookups, useLookup } from '../../lib/lookups.ts';
import { fetchLocations, updateLocation, type LocationRow } from './api/locations-api.ts';

const columns = columnsFromList(locationsList, {
  name: { header: 'locations.name', width: 360 },
  code: { header: 'locations.code', width: 160 },
  id: { header: 'locations.id', width: 80 },
});
const rowId = (l: LocationRow) => l.id;
const parentOf = (l: LocationRow) => l.parentId;
const rowHref = (l: LocationRow) => `/location/${l.id}`;

/**
 * `/locations` (spec section 2): the tree of the caller's locations. With PAGE_LOCATION.EDIT a
 * row dragged onto another moves under it (the server refuses cycles and moves out of scope).
 */
export function LocationsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  const [params] = useSearchParams();
  const canEdit = hasGrant('PAGE_LOCATION.EDIT');
  const locations = useLookup('locations', fetchLocations);
  const highlight = Number(params.get('highlight'));

  const move = async (dragged: LocationRow, target: LocationRow | null) => {
    if ((target?.id ?? null) === dragged.parentId) return;
    try {
      await updateLocation(dragged.id, { parentId: target?.id ?? null });
      notifySuccess('updated');
    } catch (err) {
      notifyError(err);
    } finally {
      clearLookups();
    }
  };

  return (
    <AppPage title={t('nav.locations')}>
      <DataGrid<LocationRow>
        gridKey="gridLocations"
        columns={columns}
        data={locations.data?.pageRows ?? []}
        loading={locations.isFetching}
        error={locations.error}
        defaultSort={[...locationsList.defaultSort]}
        getRowId={rowId}
        getParentId={parentOf}
        defaultExpanded
        rowHref={rowHref}
        highlightId={Number.isInteger(highlight) && highlight > 0 ? highlight : null}
        onRowDrop={canEdit ? (d, target) => void move(d, target) : undefined}
        toolbar={
          canEdit && (
            <Button size="xs" leftSection={<IconPlus size={16} />} onClick={() => void navigate('/location/-1')}>
              {t('locations.create')}
            </Button>
          )
        }
      />
    </AppPage>
  );
}
