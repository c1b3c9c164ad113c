import { Button } from '@mantine/core';
import { IconHome, IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HOME_PATH } from '../lib/redirect.ts';
import type { ScreenRoute } from './route-table.ts';
import { ScreenMessage } from './screen-message.tsx';

/** A screen opened by link without the grant its menu entry needs: say so, and offer the way home. */
export function NoAccessPage({ route }: { route: ScreenRoute }) {
  const { t } = useTranslation();
  return (
    <ScreenMessage
      route={route}
      icon={IconLock}
      message={t('pages.noAccess.title')}
      hint={t('pages.noAccess.hint')}
      testId="screen-no-access"
      action={
        <Button component={Link} to={HOME_PATH} leftSection={<IconHome size={16} />} mt="xs">
          {t('pages.noAccess.home')}
        </Button>
      }
    />
  );
}
