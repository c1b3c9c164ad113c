import { Badge, Paper, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CounterValue, isDerived } from './counter-value.tsx';
import { DEVICE_FLAGS, TONERS, type Device } from '@pagewatch/contracts/devices';
import { DEVICE_STATUS_DEFS, type DeviceStatusCode } from '@pagewatch/contracts/device-events';
import { FLAG_LOOK } from './device-flags.tsx';
import { MeterFlagsNote } from './meter-flags-note.tsx';
import { billedTotalText, sourceText } from './source-text.ts';
import { LevelBar } from '../../components/consumables/level-bar.tsx';
import { useDeviceLookups } from '../../components/consumables/use-device-lookups.ts';
import classes from './devices.module.css';
import { formatNumber, formatDateTime, formatDay } from '../../lib/format.ts';
import { codeLabel } from '../../lib/code-labels.ts';

type Field = [label: string, value: React.ReactNode];

function Section({ title, fields, testId }: { title: string; fields: Field[]; testId: string }) {
  return (
    <Paper withBorder p="md">
      <Title order={4} size="h5" mb="xs">
        {title}
      </Title>
      <Table withRowBorders={false} verticalSpacing={3} data-testid={testId}>
        <Table.Tbody>
          {fields.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Td className={classes.fieldLabel}>{label}</Table.Td>
              <Table.Td>{value === null || value === undefined || value === '' ? '—' : value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function StatusBadge({ code }: { code: string }) {
  const { t } = useTranslation();
  const def = DEVICE_STATUS_DEFS[code as DeviceStatusCode];
  return (
    <Badge variant="light" size="sm" color={def?.color ?? 'gray'}>
      {def ? t(def.labelKey) : code}
    </Badge>
  );
}

/** Every field of the device (spec section 3, Device), grouped. */
export function DeviceDetail({ device: d }: { device: Device }) {
  const { t } = useTranslation();
  const lookups = useDeviceLookups();
  const date = (v: string | null) => (v ? formatDateTime(v) : null);
  const n = (v: number | null) => (v === null ? null : formatNumber(v));
  /** A counter with how it was read (the OID and the profile's rule, or how it was derived), as the agent reported it. */
  const read = (value: React.ReactNode, field: string) => {
    const source = d.counterSources[field];
    if (value === null || !source) return value;
    // A derived counter's rule, the Printer-MIB or a vendor's record, in the user's language.
    const how = sourceText(t, source);
    return (
      <>
        {value}
        <Text size="xs" c="dimmed" data-testid={`counter-source-${field}`} title={t('devices.howRead')}>
          {t('devices.howRead')}: {how}
        </Text>
      </>
    );
  };
  const c = (v: number | null, column: string, source: string) =>
    read(v === null ? null : <CounterValue value={v} derived={isDerived(d.derivedCounters, column)} />, source);
  const yes = (v: boolean) => (v ? t('grid.yes') : t('grid.no'));
  const dict = (kind: 'deviceType' | 'colorType' | 'paperFormat', v: string | null) => (v ? (lookups?.label(kind, v) ?? v) : null);
  const day = d.dayCounters;
  const billed = billedTotalText(t, d);

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <Section
        title={t('devices.section.identity')}
        testId="detail-identity"
        fields={[
          [t('devices.modelCode'), d.modelCode],
          [t('devices.modelVendorCode'), d.modelVendorCode],
          [t('devices.serialNumber'), d.serialNumber],
          [t('devices.inventoryNumber'), d.inventoryNumber],
          [t('devices.deviceType'), dict('deviceType', d.deviceType)],
          [t('devices.colorType'), dict('colorType', d.colorType)],
          [t('devices.paperFormat'), dict('paperFormat', d.paperFormat)],
          [t('devices.firmware'), d.firmware],
          [t('devices.sysObjectId'), d.sysObjectId],
          [t('devices.sysDescr'), d.sysDescr],
        ]}
      />
      <Section
        title={t('devices.section.network')}
        testId="detail-network"
        fields={[
          [t('devices.ip'), d.ip],
          [t('devices.port'), d.port],
          [t('devices.macAddress'), d.macAddress],
          [t('devices.hostName'), d.hostName],
          [t('devices.snmpLocation'), d.snmpLocation],
          [t('devices.location'), d.locationName],
          [t('devices.agent'), d.agentName],
        ]}
      />
      <Section
        title={t('devices.section.status')}
        testId="detail-status"
        fields={[
          [t('devices.statusCode'), <StatusBadge key="s" code={d.statusCode} />],
          [t('devices.printerStatus'), codeLabel(t, 'printerStatus', d.printerStatus)],
          [t('devices.scannerStatus'), d.scannerStatus],
          [t('devices.snmpStatusCode'), codeLabel(t, 'deviceStatus', d.snmpStatusCode)],
          [t('devices.errorBits'), d.errorBits.map((b) => t(`devices.errorBit.${b}`, { defaultValue: b })).join(', ')],
          ...DEVICE_FLAGS.map((f): Field => [t(FLAG_LOOK[f].labelKey), yes(d[f])]),
          [t('devices.managedFlag'), yes(d.managedFlag)],
          [t('devices.comment'), d.comment],
        ]}
      />
      <Section
        title={t('devices.section.dates')}
        testId="detail-dates"
        fields={[
          [t('devices.createdAt'), date(d.createdAt)],
          [t('devices.refreshedAt'), date(d.refreshedAt)],
          [t('devices.walkRefreshedAt'), date(d.walkRefreshedAt)],
          [t('devices.walkRequestedAt'), date(d.walkRequestedAt)],
        ]}
      />
      <Section
        title={t('devices.section.counters')}
        testId="detail-counters"
        fields={[
          [t('devices.totalCount'), read(d.totalCount === null ? null : `${n(d.totalCount)}${d.totalUnit ? ` (${d.totalUnit})` : ''}`, 'total')],
          // Which total is billed, the other beside it (issue 57).
          ...(billed ? [[t('devices.billedTotal.label'), <Text key="b" size="sm" data-testid="billed-total">{billed}</Text>] as Field] : []),
          ...(d.splitMismatch
            ? [[t('devices.dataQuality'), <Text key="q" size="sm" c="orange" data-testid="split-mismatch">{t('devices.splitMismatch', { sum: n(d.splitMismatch.monoPlusColor), total: n(d.splitMismatch.total) })}</Text>] as Field]
            : []),
          ...(d.meterFlags.length ? [[t('devices.meterFlags'), <MeterFlagsNote key="f" flags={d.meterFlags} />] as Field] : []),
          [t('devices.monoCount'), c(d.monoCount, 'monoCount', 'mono')],
          [t('devices.colorCount'), c(d.colorCount, 'colorCount', 'color')],
          [t('devices.a3Count'), c(d.a3Count, 'a3Count', 'a3')],
          [t('devices.a3BwCount'), c(d.a3BwCount, 'a3BwCount', 'a3Bw')],
          [t('devices.a3ColorCount'), c(d.a3ColorCount, 'a3ColorCount', 'a3Color')],
          [t('devices.a4Count'), c(d.a4Count, 'a4Count', 'a4')],
          [t('devices.a4BwCount'), c(d.a4BwCount, 'a4BwCount', 'a4Bw')],
          [t('devices.a4ColorCount'), c(d.a4ColorCount, 'a4ColorCount', 'a4Color')],
          [t('devices.equivalentCount'), n(d.equivalentCount)],
          [t('devices.copyCount'), read(n(d.copyCount), 'copies')],
          [t('devices.scanCount'), read(n(d.scanCount), 'scans')],
          [t('devices.faxCount'), read(n(d.faxCount), 'fax')],
          [t('devices.duplexCount'), read(n(d.duplexCount), 'duplex')],
          [t('devices.powerOnCount'), read(n(d.powerOnCount), 'powerOn')],
        ]}
      />
      <Section
        title={day ? t('devices.section.dayCountersOf', { date: formatDay(day.factDate) }) : t('devices.section.dayCounters')}
        testId="detail-day-counters"
        fields={[
          [t('devices.dayTotal'), n(day?.total ?? null)],
          [t('devices.monoCount'), n(day?.mono ?? null)],
          [t('devices.colorCount'), n(day?.color ?? null)],
          [t('devices.copyCount'), n(day?.copies ?? null)],
          [t('devices.scanCount'), n(day?.scans ?? null)],
        ]}
      />
      <Section
        title={t('devices.section.toners')}
        testId="detail-toners"
        fields={TONERS.map((f): Field => [t(`devices.${f}`), d[f] === null ? null : <LevelBar key={f} level={d[f]} />])}
      />
    </SimpleGrid>
  );
}
