import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Paper, Text } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Idp } from '@pagewatch/contracts/identity-providers';
import { AppPage } from '../../components/layout/app-page.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { SmallTable } from '../../components/small-table.tsx';
import { useConfirmedMutation } from '../../components/use-confirmed-mutation.ts';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { deleteProvider, fetchLocations, fetchProviders, IDP_KEY, IDP_LOCATIONS_KEY } from './api/identity-providers-api.ts';
import { ProviderDialog } from './provider-dialog.tsx';

/**
 * `/identity-providers` (issue 55): the directories and OpenID providers whose users sign in, each
 * at a location of the caller's, with the groups that give roles and locations. MNU_IDENTITY_PROVIDERS.READ
 * to see, .EDIT to change.
 */
export function IdentityProvidersPage() {
  const { t } = useTranslation();
  const canEdit = useHasGrant('MNU_IDENTITY_PROVIDERS.EDIT');
  const providers = useQuery({ queryKey: IDP_KEY, queryFn: fetchProviders });
  const locations = useQuery({ queryKey: IDP_LOCATIONS_KEY, queryFn: fetchLocations });
  const locationName = (id: number) => locations.data?.pageRows.find((l) => l.id === id)?.name ?? `#${id}`;
  const [editing, setEditing] = useState<Idp | 'new' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: IDP_KEY });
  const remove = useConfirmedMutation({
    mutationFn: (p: Idp) => deleteProvider(p.id),
    onSuccess: () => {
      notifySuccess('deleted');
      void refresh();
    },
  });
  return (
    <AppPage
      title={t('nav.identityProviders')}
      actions={
        <Button size="sm" leftSection={<IconPlus size={16} />} disabled={!canEdit} onClick={() => setEditing('new')} data-testid="idp-add">
          {t('idp.add')}
        </Button>
      }
    >
      <Paper withBorder p="md">
        <Text size="sm" c="dimmed" mb="sm">{t('idp.hint')}</Text>
        <SmallTable
          testId="idp-table"
          rows={providers.data ?? []}
          rowKey={(p) => p.id}
          loading={providers.isLoading}
          empty={t('idp.none')}
          columns={[
            { header: t('idp.name'), cell: (p) => p.name },
            { header: t('idp.kindLabel'), cell: (p) => t(`idp.kind.${p.kind}`) },
            { header: t('idp.location'), cell: (p) => locationName(p.locationId) },
            { header: t('idp.mappings'), cell: (p) => p.mappings.map((m) => m.group).join(', ') || '—' },
            { header: t('idp.state'), cell: (p) => <Badge color={p.enabled ? 'green' : 'gray'} variant="light">{t(p.enabled ? 'idp.enabled' : 'idp.disabled')}</Badge> },
            {
              cell: (p) => (
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <ActionIcon variant="subtle" aria-label={t('idp.edit')} onClick={() => setEditing(p)}><IconPencil size={16} /></ActionIcon>
                  <ActionIcon variant="subtle" color="red" aria-label={t('idp.delete')} disabled={!canEdit} onClick={() => remove.ask(p)}><IconTrash size={16} /></ActionIcon>
                </Group>
              ),
            },
          ]}
        />
      </Paper>
      {editing && <ProviderDialog provider={editing === 'new' ? null : editing} canEdit={canEdit} onClose={() => setEditing(null)} onSaved={() => void refresh()} />}
      <ConfirmDialog {...remove.dialog} title={t('idp.delete')} message={t('idp.deleteConfirm', { name: remove.target?.name ?? '' })} confirmLabel={t('idp.delete')} />
    </AppPage>
  );
}
