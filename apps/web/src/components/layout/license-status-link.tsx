import { Anchor } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { InstanceLicense } from '@pagewatch/contracts/licenses';
import { LICENSE_STATUS_DEFS } from '@pagewatch/contracts/license-status';
import { api } from '../../lib/api.ts';
import { sharedKeys } from '../../lib/query-keys.ts';

/** Spec section 1: a link to the instance license while its status is WARNING or ERROR. */
export function LicenseStatusLink() {
  const { t } = useTranslation();
  const { data } = useQuery({
    // The key the license screen uses, so an upload there updates the footer at once.
    queryKey: sharedKeys.instanceLicense,
    queryFn: () => api<InstanceLicense>('/instance-license/'),
    staleTime: 5 * 60_000,
    // Decoration, like the version: a failure must not raise a toast on every screen.
    meta: { silent: true },
  });
  if (!data || data.status === 'OK') return null;
  return (
    <Anchor component={Link} to="/license/DEFAULT" size="xs" c={LICENSE_STATUS_DEFS[data.status].color} title={data.statusDescription} data-testid="license-status-link" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      <IconAlertTriangle size={14} />
      {t('layout.licenseStatus', { status: t(LICENSE_STATUS_DEFS[data.status].labelKey) })}
    </Anchor>
  );
}
