import { usersList } from '@pagewatch/contracts/users';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';

/** The users grid's looks; fields, filters and sorts come from the shared list spec. */
export const usersColumns = columnsFromList(usersList, {
  login: { header: 'users.login', width: 160 },
  email: { header: 'users.email', width: 220 },
  lastName: { header: 'users.lastName', width: 160 },
  firstName: { header: 'users.firstName', width: 140 },
  middleName: { header: 'users.middleName', width: 140 },
  activeFlag: { header: 'users.activeFlag', width: 110 },
  id: { header: 'users.id', width: 80 },
});
