import { useMemo } from 'react';
import { usersList } from '@pagewatch/contracts/users';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { usersColumns } from './users-list.ts';

/** `/users` (spec section 2): the users grid with Create; `?highlight=<id>` marks the user just saved. */
export function UsersPage() {
  const cloud = useAuth().config.CLOUD;
  // Cloud mode: the login is the e-mail, shown once (spec section 2, Users).
  const columns = useMemo(() => (cloud ? usersColumns.filter((c) => c.field !== 'login') : usersColumns), [cloud]);
  return (
    <ListScreen
      section="users"
      list={usersList}
      columns={columns}
      create={{ label: 'users.create' }}
    />
  );
}
