import { IconHammer } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ScreenRoute } from './route-table.ts';
import { ScreenMessage } from './screen-message.tsx';

/** A screen that a later issue builds: its title and breadcrumb, and a line saying so. */
export function PlaceholderPage({ route }: { route: ScreenRoute }) {
  const { t } = useTranslation();
  return <ScreenMessage route={route} icon={IconHammer} message={t('pages.notBuilt.title')} hint={t('pages.notBuilt.hint')} testId="screen-not-built" />;
}
