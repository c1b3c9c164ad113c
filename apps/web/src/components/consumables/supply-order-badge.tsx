import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SUPPLY_ORDER_STATES, type SupplyOrderState } from '@pagewatch/contracts/supply-order-states';

/** An order's state in its own colour and words (SUPPLY_ORDER_STATES defines both once). */
export function SupplyOrderBadge({ state }: { state: SupplyOrderState }) {
  const { t } = useTranslation();
  const s = SUPPLY_ORDER_STATES[state];
  return (
    <Badge color={s.color} variant="light" data-testid="supply-order-state" data-state={state}>
      {t(s.labelKey)}
    </Badge>
  );
}
