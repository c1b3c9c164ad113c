import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Anchor, Badge, Code, Group, Input, Loader, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { EventLogRow } from '@pagewatch/contracts/event-logs';
import type { FilterExpression } from '@pagewatch/contracts/list';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { gridQueryKey } from '../../components/data-grid/use-grid-data.ts';
import { AppPage } from '../../components/layout/app-page.tsx';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { subscribeLogEvents } from '../../lib/ws.ts';
import { eventLogKey, LOGS_ENDPOINT, useEventGroups, useEventLog } from './api/logs-api.ts';
import { LogLevelBadge } from './log-level-badge.tsx';
import { formatDuration, logLiveHandler, objectHref } from './log-format.ts';
import { GroupLabel, logsColumns } from './logs-columns.tsx';
import { formatDateTime } from '../../lib/format.ts';

const rowId = (r: EventLogRow) => r.id;
const rowHref = (r: EventLogRow) => `/log/${r.id}`;

/**
 * Listens to one record while the page is open (spec section 4): `subscribe-log-events {id}`,
 * reload 500 ms after a response or a change, reload and unsubscribe when it finishes.
 * Returns whether it is still listening.
 */
function useLogLive(id: number): boolean {
  const queryClient = useQueryClient();
  const [listening, setListening] = useState(false);
  useEffect(() => {
    if (!(id > 0)) return;
    const reload = () => {
      void queryClient.invalidateQueries({ queryKey: eventLogKey(id) });
      void queryClient.invalidateQueries({ queryKey: gridQueryKey(LOGS_ENDPOINT) });
    };
    let off: (() => void) | null = null;
    const unsubscribe = () => {
      off?.();
      off = null;
    };
    const live = logLiveHandler(id, {
      reload,
      stop: () => {
        unsubscribe();
        setListening(false);
      },
    });
    off = subscribeLogEvents(id, live.onMessage);
    setListening(true);
    return () => {
      live.cancel();
      unsubscribe();
      setListening(false);
    };
  }, [id, queryClient]);
  return listening;
}

function ReadOnly({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return <TextInput label={label} value={value} readOnly variant="filled" data-testid={testId} />;
}

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Input.Wrapper label={label} data-testid={testId}>
      <Group gap="xs" mih={36} align="center">
        {children}
      </Group>
    </Input.Wrapper>
  );
}

/** `/log/{id}`: one record, read-only, with its children, updating live. */
export function LogPage() {
  const { t } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const record = useEventLog(id);
  const groups = useEventGroups();
  const canFilter = useHasGrant('BTN_CLEAR_FILTER.EXECUTE');
  const listening = useLogLive(id);
  const groupRows = groups.data?.pageRows;
  const columns = useMemo(() => logsColumns(groupRows ?? []), [groupRows]);
  const childFilter = useMemo<FilterExpression>(() => ['parentId', '=', id], [id]);

  const title = `${t('pages.log')} ${Number.isInteger(id) && id > 0 ? id : ''}`.trim();
  const breadcrumbs = [{ label: t('nav.logs'), to: '/logs' }, { label: title }];
  const r = record.data;

  if (record.isError) {
    return (
      <AppPage title={title} breadcrumbs={breadcrumbs}>
        <Alert color="red" variant="light">
          {errorMessage(record.error)}
        </Alert>
      </AppPage>
    );
  }
  if (!r) {
    return (
      <AppPage title={title} breadcrumbs={breadcrumbs}>
        <Loader size="sm" />
      </AppPage>
    );
  }

  const href = objectHref(r.objectClass, r.objectId);
  const objectText = r.objectClass ? `${t(`logs.objects.${r.objectClass}`, { defaultValue: r.objectClass })} ${r.objectId ?? ''}`.trim() : '';
  return (
    <AppPage
      title={title}
      breadcrumbs={breadcrumbs}
      actions={
        listening && r.logLevel === 'P' ? (
          <Badge color="violet" variant="dot" data-testid="log-live">
            {t('logs.live')}
          </Badge>
        ) : null
      }
    >
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          <ReadOnly label={t('logs.logDatetime')} value={formatDateTime(r.logDatetime)} testId="log-date" />
          <Field label={t('logs.eventGroup')} testId="log-group">
            <GroupLabel code={r.eventGroup.code} name={r.eventGroup.name} />
          </Field>
          <Field label={t('logs.logLevel')} testId="log-level">
            <LogLevelBadge level={r.logLevel} />
          </Field>
          <Field label={t('logs.object')} testId="log-object">
            {href ? (
              <Anchor component={Link} to={href}>
                {objectText}
              </Anchor>
            ) : (
              <Text>{objectText}</Text>
            )}
          </Field>
          <ReadOnly label={t('logs.user')} value={r.user ? `${r.user.login} (${r.user.name})` : ''} testId="log-user" />
          <ReadOnly label={t('logs.messageCode')} value={r.messageCode ?? ''} testId="log-message-code" />
          <ReadOnly label={t('logs.logDurationSeconds')} value={formatDuration(r.logDuration)} testId="log-duration" />
          <Field label={t('logs.parent')} testId="log-parent">
            {r.parentId ? (
              <Anchor component={Link} to={`/log/${r.parentId}`}>
                {r.parent ? `${r.parentId}: ${r.parent.message}` : String(r.parentId)}
              </Anchor>
            ) : (
              <Text c="dimmed">{t('logs.noParent')}</Text>
            )}
          </Field>
        </SimpleGrid>
      </Paper>

      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('logs.messageLines')}
        </Title>
        <Code block data-testid="log-message">
          {r.messageLines.join('\n')}
        </Code>
      </Stack>

      {r.stackTraceLines.length ? (
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('logs.stackTrace')}
          </Title>
          <Code block data-testid="log-stack" style={{ maxHeight: 300, overflow: 'auto' }}>
            {r.stackTraceLines.join('\n')}
          </Code>
        </Stack>
      ) : null}

      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('logs.children', { n: r.childrenCount })}
        </Title>
        <DataGrid<EventLogRow>
          gridKey="gridLogChildren"
          endpoint={LOGS_ENDPOINT}
          columns={columns}
          defaultSort={[{ field: 'logDatetime', dir: 'ASC' }]}
          baseFilter={childFilter}
          filterPanel={canFilter}
          getRowId={rowId}
          rowHref={rowHref}
          height={360}
        />
      </Stack>
    </AppPage>
  );
}
