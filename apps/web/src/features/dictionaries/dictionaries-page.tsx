import { dictionariesList } from '@pagewatch/contracts/dictionaries';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';

const columns = columnsFromList(dictionariesList, {
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
  return (
    <ListScreen
      section="dictionaries"
      list={dictionariesList}
      columns={columns}
      create={{ label: 'dictionaries.create', grant: 'MNU_DICTIONARIES.EDIT' }}
    />
  );
}
