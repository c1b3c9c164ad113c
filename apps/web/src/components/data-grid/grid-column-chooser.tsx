import { useState } from 'react';
import { ActionIcon, Button, Checkbox, Popover, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconColumns3, IconGripVertical } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { moveField } from './grid-columns.ts';
import classes from './data-grid.module.css';

type Props = {
  columns: ReadonlyArray<{ field: string; header: string }>;
  order: string[];
  hidden: string[];
  onOrder: (order: string[]) => void;
  onHidden: (hidden: string[]) => void;
  onReset: () => void;
};

/** Show, hide and reorder columns. Native drag and drop, with arrow buttons for the keyboard. */
export function GridColumnChooser({ columns, order, hidden, onOrder, onHidden, onReset }: Props) {
  const { t } = useTranslation();
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const byField = new Map(columns.map((c) => [c.field, c]));
  const visibleCount = order.filter((f) => !hidden.includes(f)).length;

  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button size="xs" variant="default" leftSection={<IconColumns3 size={16} />} aria-label={t('grid.columnChooser')}>
          {t('grid.columns')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={4} miw={220} data-testid="grid-column-chooser">
          <Text size="xs" c="dimmed">
            {t('grid.columnChooserHint')}
          </Text>
          {order.map((field, i) => {
            const col = byField.get(field);
            if (!col) return null;
            const visible = !hidden.includes(field);
            return (
              <div
                key={field}
                className={`${classes.chooserItem} ${over === field && dragged !== field ? classes.chooserItemOver : ''}`}
                draggable
                onDragStart={(e) => {
                  setDragged(field);
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', field);
                }}
                onDragOver={(e) => {
                  if (!dragged) return;
                  e.preventDefault();
                  setOver(field);
                }}
                onDragLeave={() => setOver((o) => (o === field ? null : o))}
                onDrop={(e) => {
                  e.preventDefault();
                  if (dragged && dragged !== field) onOrder(moveField(order, dragged, field));
                  setDragged(null);
                  setOver(null);
                }}
                onDragEnd={() => {
                  setDragged(null);
                  setOver(null);
                }}
              >
                <span className={classes.grip} title={t('grid.dragColumn')}>
                  <IconGripVertical size={14} />
                </span>
                <Checkbox
                  size="xs"
                  style={{ flex: 1 }}
                  label={t(col.header)}
                  checked={visible}
                  // The last visible column stays: a grid without columns cannot be opened again.
                  disabled={visible && visibleCount === 1}
                  onChange={(e) =>
                    onHidden(e.currentTarget.checked ? hidden.filter((f) => f !== field) : [...hidden, field])
                  }
                />
                <ActionIcon
                  size="xs"
                  variant="subtle"
                  color="gray"
                  aria-label={`${t('grid.moveUp')}: ${t(col.header)}`}
                  disabled={i === 0}
                  onClick={() => onOrder(moveField(order, field, order[i - 1]))}
                >
                  <IconChevronUp size={12} />
                </ActionIcon>
                <ActionIcon
                  size="xs"
                  variant="subtle"
                  color="gray"
                  aria-label={`${t('grid.moveDown')}: ${t(col.header)}`}
                  disabled={i === order.length - 1}
                  onClick={() => onOrder(moveField(order, field, order[i + 2] ?? null))}
                >
                  <IconChevronDown size={12} />
                </ActionIcon>
              </div>
            );
          })}
          <Button size="compact-xs" variant="subtle" onClick={onReset}>
            {t('grid.resetColumns')}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
