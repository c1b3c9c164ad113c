import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { UserListRow } from '@pagewatch/contracts/users';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { AppPage } from '../../components/layout/app-page.tsx';
import { usersListSpec } from '@pagewatch/contracts/users';
import { usersColumns } from './users-list.ts';

const rowId = (u: UserListRow) => u.id;
const rowHref = (u: UserListRow) => `/user/${u.id}`;

/** `/users` (spec section 2): the users grid with Create; `?highlight=<id>` marks the user just saved. */
export function UsersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const highlight = Number(params.get('highlight'));

  return (
    <AppPage title={t('nav.users')}>
      <DataGrid<UserListRow>
        gridKey="gridUsers"
        endpoint={usersListSpec.endpoint}
        columns={usersColumns}
        defaultSort={usersListSpec.defaultSort}
        getRowId={rowId}
        rowHref={rowHref}
        highlightId={Number.isInteger(highlight) && highlight > 0 ? highlight : null}
        toolbar={
          <Button size="xs" leftSection={<IconPlus size={16} />} onClick={() => void navigate('/user/-1')}>
            {t('users.create')}
          </Button>
        }
      />
    </AppPage>
  );
}
