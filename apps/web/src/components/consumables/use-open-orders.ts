import { useQuery } from '@tanstack/react-query';
import type { SupplyOrder } from '@pagewatch/contracts/supply-orders';
import { api } from '../../lib/api.ts';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { sharedKeys } from '../../lib/query-keys.ts';

/**
 * A device's open supply orders by supply index (issue 45), for the device card; nothing asked
 * without MNU_CONSUMABLES.READ. Its key starts as the supply-orders screen's, so an order placed
 * there reloads it.
 */
export function useOpenOrders(deviceId: number): Map<number, SupplyOrder> {
  const allowed = useHasGrant('MNU_CONSUMABLES.READ');
  const q = useQuery({
    queryKey: sharedKeys.deviceSupplyOrders(deviceId),
    queryFn: () => api<SupplyOrder[]>(`/supply-orders?device=${deviceId}`),
    enabled: allowed,
  });
  return new Map((q.data ?? []).map((o) => [o.supplyIndex, o]));
}
