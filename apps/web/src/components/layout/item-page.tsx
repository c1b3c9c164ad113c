import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Crumb } from './breadcrumb-context.tsx';
import { AppPage } from './app-page.tsx';
import { LoadState } from './load-state.tsx';

/**
 * The frame of an item's page (`/agent/{id}`…, spec section 2): "New <kind>" or "<kind>: <name>"
 * as its title, its list before it in the breadcrumb, and the content once its data is there.
 */
export function ItemPage(p: { kind: string; list: Crumb; isNew: boolean; name: string | number | undefined; error: unknown; ready: boolean; children: () => ReactNode }) {
  const { t } = useTranslation();
  const title = p.isNew ? t('pages.newItem', { item: p.kind }) : `${p.kind}: ${p.name}`;
  return (
    <AppPage title={title} breadcrumbs={[p.list, { label: title }]}>
      <LoadState error={p.error} ready={p.ready}>
        {p.children}
      </LoadState>
    </AppPage>
  );
}
