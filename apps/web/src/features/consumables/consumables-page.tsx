import { useMemo } from 'react';
import { Button, Popover } from '@mantine/core';
import { IconTargetArrow } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ForecastAccuracyCard } from '../../components/consumables/forecast-accuracy-card.tsx';
import { consumablesList, type ConsumableRow } from '@pagewatch/contracts/consumables';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { useDeviceLookups } from '../../components/consumables/use-device-lookups.ts';
import { consumablesColumns } from './consumables-list.tsx';

const rowId = (r: ConsumableRow) => r.id;
/** A row opens its device (spec section 2, Consumables). */
const rowHref = (r: ConsumableRow) => `/device/${r.device.id}`;

/** `/consumables`: every supply of every device in the caller's locations, with its level bar. */
export function ConsumablesPage() {
  const { t } = useTranslation();
  const lookups = useDeviceLookups();
  const columns = useMemo(() => (lookups ? consumablesColumns(lookups) : null), [lookups]);
  return <ListScreen section="consumables" list={consumablesList} columns={columns} getRowId={rowId} rowHref={rowHref} actions={accuracy(t('devices.accuracy.button'))} />;
}

/** The forecasts' accuracy (issue 45) behind a toolbar button, so that the grid keeps the page. */
const accuracy = (label: string) => (
  <Popover width={460} position="bottom-end" shadow="md">
    <Popover.Target>
      <Button size="xs" variant="default" leftSection={<IconTargetArrow size={16} />} data-testid="forecast-accuracy-button">
        {label}
      </Button>
    </Popover.Target>
    <Popover.Dropdown p={0}>
      <ForecastAccuracyCard />
    </Popover.Dropdown>
  </Popover>
);
