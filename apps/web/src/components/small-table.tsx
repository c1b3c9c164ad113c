import type { Key, ReactNode } from 'react';
import { Table, Text } from '@mantine/core';

export type SmallColumn<Row> = { header?: ReactNode; width?: number; cell: (row: Row) => ReactNode };

/**
 * A short table inside a card (a location's devices, a dictionary's attributes, an agent's
 * runs): a header row, a row per item, or the `empty` text when there is nothing (and nothing is
 * loading). Columns without a header (actions) only take their width.
 */
export function SmallTable<Row>(props: {
  rows: Row[];
  columns: (SmallColumn<Row> | false)[];
  rowKey: (row: Row) => Key;
  empty: ReactNode;
  loading?: boolean;
  testId?: string;
}) {
  const columns = props.columns.filter((c): c is SmallColumn<Row> => c !== false);
  if (!props.rows.length && !props.loading) {
    return (
      <Text c="dimmed" size="sm">
        {props.empty}
      </Text>
    );
  }
  return (
    <Table striped withTableBorder data-testid={props.testId}>
      <TableHead headers={columns.map((c) => c.header)} widths={columns.map((c) => c.width)} />
      <Table.Tbody>
        {props.rows.map((r) => (
          <Table.Tr key={props.rowKey(r)}>
            {columns.map((c, i) => (
              <Table.Td key={i}>{c.cell(r)}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A table's header row: a cell each header, `widths` by position (an empty header takes only its width). */
export function TableHead(props: { headers: ReactNode[]; widths?: (number | undefined)[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {props.headers.map((h, i) => (
          <Table.Th key={i} w={props.widths?.[i]}>
            {h}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

/**
 * A card's compact list (home's lists, identity pairs): no header row, a row per item whose
 * cells `children` draws.
 */
export function CompactRows<Row>(props: { rows: readonly Row[]; rowKey: (row: Row) => Key; children: (row: Row) => ReactNode; testId?: string; rowTestId?: string }) {
  return (
    <Table fz="sm" verticalSpacing={4} data-testid={props.testId}>
      <Table.Tbody>
        {props.rows.map((r) => (
          <Table.Tr key={props.rowKey(r)} data-testid={props.rowTestId}>
            {props.children(r)}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
