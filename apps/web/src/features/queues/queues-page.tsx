import { queuesList } from '@pagewatch/contracts/queues';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { queuesColumns } from './queues-columns.tsx';

/** `/queues` (spec section 2): the print queues grid with Create. */
export function QueuesPage() {
  return (
    <ListScreen
      section="queues"
      list={queuesList}
      columns={queuesColumns}
      create={{ label: 'queues.create', grant: 'MNU_QUEUES.EDIT' }}
    />
  );
}
