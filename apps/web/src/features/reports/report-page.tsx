import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Alert, Button, Center, Group, Loader, MultiSelect, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { DayInput } from '../../components/form/day-input.tsx';
import { IconCalendarPlus, IconFileSpreadsheet, IconFileTypeCsv, IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PERIOD_TYPES, REPORTS, reportById, type PeriodType, type ReportCode, type ReportFormat } from '@pagewatch/contracts/reports';
import { useDeviceLookups, type DeviceLookups } from '../../components/consumables/use-device-lookups.ts';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { loadGridState } from '../../components/data-grid/grid-storage.ts';
import { gridQueryKey } from '../../components/data-grid/use-grid-data.ts';
import { AppPage } from '../../components/layout/app-page.tsx';
import { api } from '../../lib/api.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { downloadFile } from '../../lib/download.ts';
import { notifyError, notifyQueued, notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { reportKeys } from './api/reports-api.ts';
import { ReportChart } from './report-chart.tsx';
import { reportGridColumns, type ReportRow } from './report-columns.tsx';
import { exportColumns, loadKept, MIN_DAY, requestOf, requestQuery, saveKept, todayUtc, withDate, withPeriodType, type KeptReport, type ReportFilterValues } from './report-filter.ts';
import { formatDay } from '../../lib/format.ts';

/** `/report/{id}`: a report's filter, its rows, their export, and its schedule as a notification. */
export function ReportPage() {
  const { t } = useTranslation();
  const code = reportById(Number(useParams().id));
  const lookups = useDeviceLookups();
  const title = code ? t(`reports.type.${code}`) : t('pages.report');
  return (
    <AppPage title={title} breadcrumbs={[{ label: t('nav.reports'), to: '/reports' }, { label: title }]} actions={code && <ScheduleButton code={code} />}>
      {!code ? (
        <Alert color="yellow" role="alert">
          {t('reports.notFound')}
        </Alert>
      ) : !lookups ? (
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <Report key={code} code={code} name={title} lookups={lookups} />
      )}
    </AppPage>
  );
}

/** With BTN_EDIT_DEVICE.EXECUTE: opens the notification form with type REPORT and this report. */
function ScheduleButton({ code }: { code: ReportCode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  if (!hasGrant('BTN_EDIT_DEVICE.EXECUTE')) return null;
  return (
    <Button variant="default" leftSection={<IconCalendarPlus size={16} />} onClick={() => void navigate(`/notification/-1?type=REPORT&report=${code}`)}>
      {t('reports.schedule')}
    </Button>
  );
}

function Report({ code, name, lookups }: { code: ReportCode; name: string; lookups: DeviceLookups }) {
  const { t } = useTranslation();
  const def = REPORTS[code];
  const today = todayUtc();
  const [kept, setKept] = useState<KeptReport>(() => loadKept(code, name, today));
  const { filter, applied } = kept;
  useEffect(() => saveKept(code, kept), [code, kept]);
  const setFilter = (f: ReportFilterValues) => setKept((k) => ({ ...k, filter: f }));

  const columns = useMemo(() => reportGridColumns(code, lookups), [code, lookups]);
  const query = applied ? requestQuery(applied) : null;
  // A report read a page at a time (installed consumables) is asked for by its grid; the others
  // come whole and are sorted and filtered in the browser.
  const pageEndpoint = def.pageEndpoint;
  const rows = useQuery({
    queryKey: reportKeys.rows(code, query),
    queryFn: async ({ signal }) => (await api<Record<string, unknown>[]>(def.list.endpoint, { query: query!, signal })).map((r, i): ReportRow => ({ ...r, rowNo: i })),
    enabled: query !== null && !pageEndpoint,
    // The grid shows the server's message in its own error panel.
    meta: { silent: true },
  });
  const data = rows.data ?? [];
  const [pagedTotal, setPagedTotal] = useState<number | null>(null);
  const rowCount = pageEndpoint ? pagedTotal : rows.data ? data.length : null;

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const request = requestOf(filter, code);
    setKept((k) => ({ ...k, applied: request }));
    // The same filter again is asked for again: Apply always shows today's figures.
    if (requestQuery(request) !== query) return;
    if (pageEndpoint) void queryClient.invalidateQueries({ queryKey: gridQueryKey(pageEndpoint) });
    else void rows.refetch();
  };

  const [exporting, setExporting] = useState<ReportFormat | null>(null);
  const exportAs = async (format: ReportFormat) => {
    if (!applied) return;
    // The file holds the grid's visible columns in their order (spec section 7), and what the report's file always holds.
    const visible = exportColumns(code, loadGridState(def.gridKey, columns));
    setExporting(format);
    notifySuccess('genFile');
    try {
      await downloadFile(`/reports/download/${def.id}/${format}?filter=${encodeURIComponent(JSON.stringify({ ...applied, columns: visible }))}`, `${name}.${format.toLowerCase()}`, notifyQueued);
    } catch (err) {
      notifyError(err);
    } finally {
      setExporting(null);
    }
  };

  const period = applied?.from && applied.to ? `${formatDay(applied.from)} – ${formatDay(applied.to)}` : null;

  return (
    <Stack gap="md">
      <ReportFilterForm code={code} lookups={lookups} filter={filter} setFilter={setFilter} today={today} onApply={apply} busy={rows.isFetching} />

      {applied && (
        <Group justify="space-between" align="baseline">
          <Title order={3} size="h4">
            {filter.title || name}
            {period && (
              <Text span c="dimmed" fw={400} ml="sm">
                {period}
              </Text>
            )}
          </Title>
          {rowCount !== null && (
            <Text size="sm" c="dimmed" data-testid="report-count">
              {t('reports.rows', { count: rowCount })}
            </Text>
          )}
        </Group>
      )}
      {query !== null && rows.data && data.length > 0 && <ReportChart code={code} query={query} />}

      <DataGrid<ReportRow>
        gridKey={def.gridKey}
        columns={columns}
        getRowId={(r) => (pageEndpoint ? String(r.id) : r.rowNo)}
        {...(pageEndpoint && query !== null ? { endpoint: pageEndpoint, params: query, onTotalRows: setPagedTotal } : { data })}
        paged
        defaultSort={[...def.list.defaultSort]}
        loading={rows.isFetching}
        error={rows.error}
        emptyText={applied ? undefined : <span data-testid="report-not-applied">{t('reports.notApplied')}</span>}
        height={560}
        toolbar={
          <Button.Group aria-label={t('reports.export')}>
            {def.formats.map((f) => (
              <Button
                key={f}
                size="xs"
                variant="default"
                leftSection={f === 'CSV' ? <IconFileTypeCsv size={16} /> : <IconFileSpreadsheet size={16} />}
                disabled={!rowCount || exporting !== null}
                loading={exporting === f}
                onClick={() => void exportAs(f)}
              >
                {f}
              </Button>
            ))}
          </Button.Group>
        }
      />
    </Stack>
  );
}

type FilterFormProps = {
  code: ReportCode; lookups: DeviceLookups; filter: ReportFilterValues; today: string; busy: boolean;
  setFilter(f: ReportFilterValues): void; onApply(e: FormEvent): void;
};

/** A report's filter: its title, period and the devices it covers; Apply runs it. */
function ReportFilterForm({ code, lookups, filter, setFilter, today, onApply, busy }: FilterFormProps) {
  const { t } = useTranslation();
  const def = REPORTS[code];
  const options = (kind: 'deviceType' | 'colorType' | 'paperFormat' | 'locationId') => lookups.options[kind].map((o) => ({ value: String(o.value), label: o.label }));
  const dayProps = { minDate: MIN_DAY, disabled: !def.period, clearable: false };
  return (
    <Paper withBorder p="md" component="form" onSubmit={onApply} aria-label={t('reports.filter')}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        <TextInput label={t('reports.title')} maxLength={250} value={filter.title} onChange={(e) => setFilter({ ...filter, title: e.currentTarget.value })} />
        <Select
          label={t('reports.periodType')}
          allowDeselect={false}
          disabled={!def.period}
          data={PERIOD_TYPES.map((p) => ({ value: p, label: t(`reports.period.${p}`) }))}
          value={filter.periodType}
          onChange={(v) => v && setFilter(withPeriodType(filter, v as PeriodType, today))}
        />
        <DayInput {...dayProps} label={t('reports.from')} value={filter.from} onChange={(v) => v && setFilter(withDate(filter, 'from', v))} />
        <DayInput {...dayProps} label={t('reports.to')} value={filter.to} onChange={(v) => v && setFilter(withDate(filter, 'to', v))} />
        <MultiSelect
          label={t('reports.locations')}
          description={t('reports.locationsHint')}
          searchable
          clearable
          data={options('locationId')}
          value={filter.location.map(String)}
          onChange={(v) => setFilter({ ...filter, location: v.map(Number) })}
        />
        <MultiSelect label={t('reports.printerTypes')} clearable data={options('deviceType')} value={filter.printerType} onChange={(v) => setFilter({ ...filter, printerType: v })} />
        <MultiSelect label={t('reports.colorTypes')} clearable data={options('colorType')} value={filter.colorType} onChange={(v) => setFilter({ ...filter, colorType: v })} />
        <MultiSelect label={t('reports.paperFormats')} clearable data={options('paperFormat')} value={filter.paperFormat} onChange={(v) => setFilter({ ...filter, paperFormat: v })} />
      </SimpleGrid>
      <Group mt="md">
        <Button type="submit" leftSection={<IconPlayerPlay size={16} />} loading={busy}>
          {t('reports.apply')}
        </Button>
        {!def.period && (
          <Text size="sm" c="dimmed">
            {t('reports.installedHint')}
          </Text>
        )}
      </Group>
    </Paper>
  );
}
