/** The users list (/users). Owned by the DataGrid work; replaced there. */
export function UsersPage() {
  return null;
}
