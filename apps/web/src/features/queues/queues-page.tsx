import { queueJobsList, queuesList, type QueueJobRow } from '@pagewatch/contracts/queues';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { queueJobsColumns, queuesColumns } from './queues-columns.tsx';

/** `/queues` (spec sections 2, 5: "the queue list and queue form have tabs for queue and jobs"): the print queues grid with Create, and the jobs of all the caller's queues. */
export function QueuesPage() {
  return (
    <ListScreen
      section="queues"
      list={queuesList}
      columns={queuesColumns}
      create={{ label: 'queues.create', grant: 'MNU_QUEUES.EDIT' }}
      tabs={{
        label: 'queues.tabs.queues',
        others: [{ value: 'jobs', label: 'queues.tabs.jobs', panel: <DataGrid<QueueJobRow> gridKey="gridAllQueueJobs" list={queueJobsList} columns={queueJobsColumns} getRowId={(r) => r.id} height={560} /> }],
      }}
    />
  );
}
