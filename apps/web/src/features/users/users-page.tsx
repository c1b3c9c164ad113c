import { usersList } from '@pagewatch/contracts/users';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { usersColumns } from './users-list.ts';

/** `/users` (spec section 2): the users grid with Create; `?highlight=<id>` marks the user just saved. */
export function UsersPage() {
  return (
    <ListScreen
      title="nav.users"
      gridKey="gridUsers"
      list={usersList}
      columns={usersColumns}
      item="/user"
      create={{ label: 'users.create' }}
    />
  );
}
