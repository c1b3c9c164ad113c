import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LocationRef } from '@pagewatch/contracts/users';
import { NoticeDialog } from '../../components/notice-dialog.tsx';
import type { LocationChange } from './user-form-rules.ts';

/** "Choose at least one role": the save stops (spec section 5). */
export function NoRolesDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return <NoticeDialog opened={opened} onClose={onClose} title={t('user.noRolesTitle')} message={t('user.rolesRequired')} closeLabel={t('user.close')} testId="no-roles-dialog" />;
}

function LocationList({ title, locations }: { title: string; locations: LocationRef[] }) {
  if (!locations.length) return null;
  return (
    <div>
      <Text size="sm" fw={500}>
        {title}
      </Text>
      <List size="sm">
        {locations.map((l) => (
          <List.Item key={l.id}>{l.name}</List.Item>
        ))}
      </List>
    </div>
  );
}

/** After a save that changed the user's locations: which ones, before going back to the list. */
export function LocationsChangedDialog({ change, onClose }: { change: LocationChange | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={change !== null} onClose={onClose} title={t('user.locationsChangedTitle')} centered data-testid="locations-changed-dialog">
      <Stack gap="sm">
        <Text size="sm">{t('user.locationsChangedText')}</Text>
        <LocationList title={t('user.locationsAdded')} locations={change?.added ?? []} />
        <LocationList title={t('user.locationsRemoved')} locations={change?.removed ?? []} />
        <LocationList title={t('user.locationsNotKept')} locations={change?.notKept ?? []} />
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('user.close')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
