import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { AppPage } from '../components/layout/app-page.tsx';
import type { ScreenRoute } from './route-table.ts';

/**
 * A screen that a later issue builds: its title and breadcrumb, no content yet. For item
 * pages an id below 0 (or none) means a new item, as the real forms will treat it.
 */
export function PlaceholderPage({ route }: { route: ScreenRoute }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const title = t(route.title);
  if (!route.parent) return <AppPage title={title} />;
  const isNew = id === undefined || (/^-?\d+$/.test(id) && Number(id) < 0);
  const itemTitle = isNew ? t('pages.newItem', { item: title }) : `${title} ${id}`;
  return (
    <AppPage
      title={itemTitle}
      breadcrumbs={[{ label: t(route.parent.title), to: route.parent.to }, { label: itemTitle }]}
    />
  );
}
