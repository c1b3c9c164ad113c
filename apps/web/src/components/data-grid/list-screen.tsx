import { useEffect, useState, type ReactNode } from 'react';
import { Button, Center, Group, Loader, Tabs } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { Grant } from '@pagewatch/contracts/grants';
import type { List } from '@pagewatch/contracts/list';
import { useAuth } from '../../lib/auth-context.tsx';
import type { Section } from '../../lib/screen-access.ts';
import { menuItem } from '../layout/menu-items.ts';
import { AppPage } from '../layout/app-page.tsx';
import { DataGrid, type DataGridProps } from './data-grid.tsx';
import type { RowId } from './grid-tree.ts';
import type { GridColumn } from './grid-types.ts';

const idOf = (row: unknown) => (row as { id: RowId }).id;
const parentOf = (row: unknown) => (row as { parentId: RowId | null }).parentId;

/** The rows of a tree screen, loaded at once by a query. */
type TreeRows<Row> = Pick<UseQueryResult<{ pageRows: Row[] }>, 'data' | 'isFetching' | 'error'>;

export type ListScreenProps<Row> = Omit<DataGridProps<Row>, 'list' | 'columns' | 'toolbar' | 'getRowId' | 'gridKey'> & {
  /** The menu's section of the screen: its entry names the page title and the item route. */
  section: Section;
  /** Where the grid's layout is saved; by default `grid<Section>` (`gridUsers`). */
  gridKey?: string;
  /** The list (contracts) whose API the grid pages; a tree takes only its default sort. */
  list: Pick<List, 'endpoint' | 'defaultSort'>;
  /** Null while what the columns need (lookups) still loads: the grid reads its defaults once. */
  columns: readonly GridColumn<Row>[] | null;
  /** A row's id; by default its `id` field. */
  getRowId?: (row: Row) => RowId;
  /** The Create button (at the item route's `-1`): its label key and the grant that shows it; false hides it. */
  create?: { label: string; grant?: Grant; testId?: string } | false;
  /**
   * A tree that loads every row at once (locations, licenses): the query's rows, filtered and
   * sorted in the browser (the list's default sort), each under its `parentId`, all expanded.
   */
  tree?: TreeRows<Row>;
  /** The screen's other toolbar actions, after Create. */
  actions?: ReactNode;
  /**
   * Tabs beside the list's own (the queues' jobs): the list's tab is labelled `label`, each other
   * one shows its panel; the open tab stands in the address (`?tab=jobs`), so a reload keeps it.
   */
  tabs?: { label: string; others: { value: string; label: string; panel: ReactNode }[] };
};

/**
 * A list screen (spec section 2): the page frame with its title, the list's grid and the
 * toolbar's Create button; `?highlight=<id>` marks the row just saved.
 */
export function ListScreen<Row>({ section, gridKey = `grid${section[0].toUpperCase()}${section.slice(1)}`, list, columns, create, actions, tree, tabs, getRowId = idOf, ...grid }: ListScreenProps<Row>) {
  const { t } = useTranslation();
  // A row opens the item route's `/<id>` (`/user/7`), Create its `/-1`.
  const { label: title, item } = menuItem(section);
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  const [params, setParams] = useSearchParams();
  const highlight = Number(params.get('highlight'));
  // A link's filter (home's figures) is read once; the address then drops it, so a reload keeps what the user changed since.
  const [linkedFilter] = useState(() => params.get('filter'));
  useEffect(() => {
    if (linkedFilter === null) return;
    setParams((p) => {
      p.delete('filter');
      return p;
    }, { replace: true });
  }, [linkedFilter, setParams]);
  const canCreate = create && item && (!create.grant || hasGrant(create.grant));
  const toolbar = (canCreate || actions) && (
    <Group gap="xs">
      {canCreate && (
        <Button size="xs" leftSection={<IconPlus size={16} />} onClick={() => void navigate(`${item}/-1`)} data-testid={create.testId}>
          {t(create.label)}
        </Button>
      )}
      {actions}
    </Group>
  );
  const rows = tree
    ? { data: tree.data?.pageRows ?? [], loading: tree.isFetching, error: tree.error, defaultSort: [...list.defaultSort], getParentId: parentOf, defaultExpanded: true }
    : { list };
  const main = columns ? (
    <DataGrid<Row>
      highlightId={Number.isInteger(highlight) && highlight > 0 ? highlight : null}
      linkedFilter={linkedFilter}
      rowHref={item ? (row: Row) => `${item}/${getRowId(row)}` : undefined}
      {...rows}
      {...grid}
      gridKey={gridKey}
      getRowId={getRowId}
      columns={columns}
      toolbar={toolbar}
    />
  ) : (
    <Center py="xl">
      <Loader size="sm" />
    </Center>
  );
  const tab = tabs?.others.some((o) => o.value === params.get('tab')) ? params.get('tab')! : 'list';
  const openTab = (value: string | null) =>
    setParams((p) => {
      if (value && value !== 'list') p.set('tab', value);
      else p.delete('tab');
      return p;
    }, { replace: true });
  return (
    <AppPage title={t(title)}>
      {tabs ? (
        <Tabs value={tab} onChange={openTab} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="list">{t(tabs.label)}</Tabs.Tab>
            {tabs.others.map((o) => (
              <Tabs.Tab key={o.value} value={o.value}>
                {t(o.label)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="list">{main}</Tabs.Panel>
          {tabs.others.map((o) => (
            <Tabs.Panel key={o.value} value={o.value}>
              {o.panel}
            </Tabs.Panel>
          ))}
        </Tabs>
      ) : (
        main
      )}
    </AppPage>
  );
}
