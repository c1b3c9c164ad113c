import type { UserListRow } from '@pagewatch/contracts/users';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import type { ListDefinition } from '../../components/data-grid/grid-types.ts';

/**
 * The users list as the server declares it (apps/server/src/modules/users/users.list.ts):
 * the same fields, types, filters and sorts. `id` is listed but hidden until chosen.
 * Login is hidden in cloud mode, where it equals the e-mail (spec section 2).
 */
export const usersList: ListDefinition = {
  endpoint: '/users',
  defaultSort: [{ field: 'lastName', dir: 'ASC' }],
  columns: [
    { field: 'login', type: 'string', sortable: true, filterable: true },
    { field: 'email', type: 'string', sortable: true, filterable: true },
    { field: 'lastName', type: 'string', sortable: true, filterable: true },
    { field: 'firstName', type: 'string', sortable: true, filterable: true },
    { field: 'middleName', type: 'string', sortable: true, filterable: true },
    { field: 'activeFlag', type: 'boolean', sortable: true, filterable: true },
    { field: 'id', type: 'number', sortable: true, filterable: true, hidden: true },
  ],
};

export const usersColumns = columnsFromList<UserListRow>(usersList, {
  login: { header: 'users.login', width: 160 },
  email: { header: 'users.email', width: 220 },
  lastName: { header: 'users.lastName', width: 160 },
  firstName: { header: 'users.firstName', width: 140 },
  middleName: { header: 'users.middleName', width: 140 },
  activeFlag: { header: 'users.activeFlag', width: 110 },
  id: { header: 'users.id', width: 80 },
});
