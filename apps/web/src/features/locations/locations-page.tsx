import { locationsList } from '@pagewatch/contracts/dictionaries';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { notifyError, notifySuccess } from '../../lib/errors.ts';
import { clearLookups, useLookup } from '../../lib/lookups.ts';
import { fetchLocations, updateLocation, type LocationRow } from './api/locations-api.ts';

const columns = columnsFromList(locationsList, {
  name: { header: 'locations.name', width: 360 },
  code: { header: 'locations.code', width: 160 },
  id: { header: 'locations.id', width: 80 },
});

/**
 * `/locations` (spec section 2): the tree of the caller's locations. With PAGE_LOCATION.EDIT a
 * row dragged onto another moves under it (the server refuses cycles and moves out of scope).
 */
export function LocationsPage() {
  const { hasGrant } = useAuth();
  const canEdit = hasGrant('PAGE_LOCATION.EDIT');
  const locations = useLookup('locations', fetchLocations);

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
    <ListScreen<LocationRow>
      section="locations"
      list={locationsList}
      columns={columns}
      tree={locations}
      onRowDrop={canEdit ? (d, target) => void move(d, target) : undefined}
      create={{ label: 'locations.create', grant: 'PAGE_LOCATION.EDIT' }}
    />
  );
}
