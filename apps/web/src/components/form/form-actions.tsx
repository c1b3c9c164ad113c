import { Button, Group, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export interface FormActionsProps {
  /** The i18n area whose `save` and `delete` texts the buttons show (`networks`, `queues`…). */
  area: string;
  /** Whether the user may submit the form. */
  canSave: boolean;
  /** The save is under way (its button spins). */
  saving: boolean;
  /** Any of the form's actions is under way (the others wait). */
  busy: boolean;
  /** Where Cancel goes back to (the list); no Cancel on a form that is part of a page. */
  cancelTo?: string;
  /** Asks before deleting; no Delete button without it (a new item, a read-only user). */
  onDelete?: () => void;
  deleteDisabled?: boolean;
  /** The delete is under way without a dialog to show it (its button spins). */
  deleting?: boolean;
  /** Space above the bar, when it sits in the form's card. */
  mt?: MantineSpacing;
  /** `data-testid`s of the save and delete buttons, for the screens whose tests name them. */
  testIds?: { save?: string; delete?: string };
  /** Further buttons, between Cancel and Delete. */
  children?: ReactNode;
}

/** The action bar under an item's form: Save submits it, Cancel goes back to the list, Delete asks first. */
export function FormActions(p: FormActionsProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Group gap="sm" mt={p.mt}>
      <Button type="submit" disabled={!p.canSave} loading={p.saving} data-testid={p.testIds?.save}>
        {t(`${p.area}.save`)}
      </Button>
      {p.cancelTo !== undefined && (
        <Button variant="default" onClick={() => void navigate(p.cancelTo!)} disabled={p.busy}>
          {t('general.cancel')}
        </Button>
      )}
      {p.children}
      {p.onDelete && (
        <Button color="red" variant="light" onClick={p.onDelete} loading={p.deleting} disabled={p.busy || p.deleteDisabled} data-testid={p.testIds?.delete}>
          {t(`${p.area}.delete`)}
        </Button>
      )}
    </Group>
  );
}
