import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { dictionariesListSpec, type DictionaryListRow } from '@pagewatch/contracts/dictionaries';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import { AppPage } from '../../components/layout/app-page.tsx';
import { useAuth } from '../../lib/auth-context.tsx';

const columns = columnsFromList<DictionaryListRow>(dictionariesListSpec, {
  code: { header: 'dictionaries.code', width: 200 },
  name: { header: 'dictionaries.name', width: 260 },
  nameRu: { header: 'dictionaries.nameRu', width: 260 },
  hierarchical: { header: 'dictionaries.hierarchical', width: 120 },
  isSystem: { header: 'dictionaries.isSystem', width: 110 },
  itemCount: { header: 'dictionaries.itemCount', width: 110 },
  id: { header: 'dictionaries.id', width: 80 },
});

/** `/dictionaries` (spec section 2): every dictionary; a row opens it. */
export function DictionariesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  return (
    <AppPage title={t('nav.dictionaries')}>
      <DataGrid<DictionaryListRow>
        gridKey="gridDictionaries"
        endpoint={dictionariesListSpec.endpoint}
        columns={columns}
        defaultSort={dictionariesListSpec.defaultSort}
        getRowId={(d) => d.id}
        rowHref={(d) => `/dictionary/${d.id}`}
        toolbar={
          hasGrant('MNU_DICTIONARIES.EDIT') && (
            <Button size="xs" leftSection={<IconPlus size={16} />} onClick={() => void navigate('/dictionary/-1')}>
              {t('dictionaries.create')}
            </Button>
          )
        }
      />
    </AppPage>
  );
}
