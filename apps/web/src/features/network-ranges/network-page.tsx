import { Badge, Group, NumberInput, Radio, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { NETWORK_RANGE_TYPE_DEFS, NETWORK_RANGE_TYPES, PACKETS_PER_SECOND, rangeSize, type NetworkRange } from '@pagewatch/contracts/network-ranges';
import type { AgentListRow } from '@pagewatch/contracts/agents';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormCard } from '../../components/form/form-card.tsx';
import { SecretInput } from '../../components/form/secret-input.tsx';
import { useDeleteItem, useSaveInput } from '../../components/form/use-item-mutations.ts';
import { useItemQuery } from '../../components/form/use-item-id.ts';
import { ItemPage } from '../../components/layout/item-page.tsx';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { clientConfig } from '../../lib/config.ts';
import { deleteRange, fetchAgents, fetchRange, fetchUserLocations, rangeKeys, rangeQueryKey, saveRange, type LocationOption } from './api/networks-api.ts';
import { emptyRange, formFieldOf, inputOf, validateRange, valuesOf, type RangeFormValues } from './network-form-values.ts';

/** `/network/{id}` (spec section 2): a network range's form; an id below 0 creates one (`?agent=<id>` preselects it). */
export function NetworkPage() {
  const { t } = useTranslation();
  const { idParam, isNew, item: range } = useItemQuery(rangeQueryKey, fetchRange);
  const agents = useQuery({ queryKey: rangeKeys.agentOptions, queryFn: fetchAgents });
  const locations = useQuery({ queryKey: rangeKeys.userLocations, queryFn: fetchUserLocations });
  const failed = range.error ?? agents.error ?? locations.error;
  const ready = (isNew || range.data) && agents.data && locations.data;

  return (
    <ItemPage kind={t('pages.network')} list={{ label: t('nav.networks'), to: '/networks' }} isNew={isNew} name={range.data?.name || idParam} error={failed} ready={!!ready}>
      {() => (
        <RangeForm key={idParam} range={range.data ?? null} agents={agents.data!.pageRows} locations={locations.data!.pageRows} />
      )}
    </ItemPage>
  );
}

const V3_LEVELS = ['noAuthNoPriv', 'authNoPriv', 'authPriv'] as const;
const AUTH_PROTOCOLS = ['md5', 'sha', 'sha224', 'sha256', 'sha384', 'sha512'];
const PRIV_PROTOCOLS = ['des', 'aes', 'aes256b', 'aes256r'];

function RangeForm({ range, agents, locations }: { range: NetworkRange | null; agents: AgentListRow[]; locations: LocationOption[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { hasGrant } = useAuth();
  const canEdit = hasGrant('MNU_NETWORK_RANGES.EDIT');
  const showPorts = clientConfig().NETWORK_RANGE_SHOW_PORTS;
  const presetAgent = params.get('agent');
  const form = useForm<RangeFormValues>({
    initialValues: range ? valuesOf(range) : emptyRange(presetAgent, locations.length === 1 ? String(locations[0].id) : null),
    validate: (v) => Object.fromEntries(Object.entries(validateRange(v, range)).map(([k, key]) => [k, t(key, { defaultValue: key })])),
  });
  const v = form.getValues();

  const save = useSaveInput(range?.id ?? null, { save: saveRange, inputOf, keyOf: rangeQueryKey, form, fieldOf: formFieldOf, then: () => void navigate('/networks') });
  const remove = useDeleteItem({ remove: () => deleteRange(range!.id), backTo: '/networks' });
  const busy = save.isPending || remove.mutation.isPending;
  const size = rangeSize({ type: v.type, address: v.address, mask: v.mask, from: v.from, to: v.to });
  const secret = (field: 'community' | 'authKey' | 'privKey', isSet: boolean | undefined) => (
    <SecretInput
      label={t(`networks.${field}`)}
      required={field === 'community' && !isSet}
      isSet={isSet}
      hints={{ stored: t('networks.secretStored'), notSet: t('networks.secretNotSet'), keep: t('networks.secretKeep') }}
      data-testid={`secret-${field}`}
      {...form.getInputProps(field)}
    />
  );

  return (
    <form onSubmit={submitFocusingErrors(form, (values) => save.mutate(values))} noValidate data-testid="network-form">
      <Stack gap="md" maw={900}>
        <FormCard disabled={!canEdit || busy}>
          <TextInput label={t('networks.name')} {...form.getInputProps('name')} />
          <Radio.Group label={t('networks.typeLabel')} required {...form.getInputProps('type')}>
            <Group mt={4} gap="lg">
              {NETWORK_RANGE_TYPES.map((type) => (
                <Radio
                  key={type}
                  value={type}
                  label={
                    <Group gap={6}>
                      {t(NETWORK_RANGE_TYPE_DEFS[type].labelKey)}
                      {NETWORK_RANGE_TYPE_DEFS[type].recommended && (
                        <Badge size="xs" variant="light" color="teal">
                          {t('networks.recommended')}
                        </Badge>
                      )}
                    </Group>
                  }
                />
              ))}
            </Group>
          </Radio.Group>
          <Text size="xs" c="dimmed">
            {t(`networks.typeHint.${v.type}`)}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: showPorts ? 3 : 2 }} spacing="sm">
            {v.type === 'RANGE' ? (
              <>
                <TextInput label={t('networks.from')} required placeholder="192.168.1.1" {...form.getInputProps('from')} />
                <TextInput label={t('networks.to')} required placeholder="192.168.1.254" {...form.getInputProps('to')} />
              </>
            ) : (
              <>
                <TextInput label={t('networks.address')} required placeholder={v.type === 'BROADCAST' ? '192.168.1.255' : '192.168.1.0'} {...form.getInputProps('address')} />
                <TextInput label={t('networks.mask')} required={v.type === 'NETMASK'} placeholder="255.255.255.0 / 24" {...form.getInputProps('mask')} />
              </>
            )}
            {showPorts && <NumberInput label={t('networks.port')} required min={1} max={65535} allowDecimal={false} {...form.getInputProps('port')} />}
          </SimpleGrid>
          {v.type !== 'BROADCAST' && size > 0 && (
            <Text size="xs" c="dimmed" data-testid="range-size">
              {t('networks.addressCount', { count: size })}
            </Text>
          )}
          {v.type !== 'BROADCAST' && (
            <NumberInput
              label={t('networks.packetsPerSecond')} description={t('networks.packetsPerSecondHint')} required
              min={PACKETS_PER_SECOND.min} max={PACKETS_PER_SECOND.max} allowDecimal={false} thousandSeparator=" "
              {...form.getInputProps('packetsPerSecond')}
            />
          )}
          {v.type !== 'BROADCAST' && size > 0 && Number(v.packetsPerSecond) >= PACKETS_PER_SECOND.min && (
            // A silent address is asked twice: the worst case is every address silent.
            <Text size="xs" c="dimmed" data-testid="sweep-time">
              {t('networks.sweepTime', { seconds: Math.ceil((2 * size) / Number(v.packetsPerSecond)) })}
            </Text>
          )}
        </FormCard>
        <FormCard disabled={!canEdit || busy}>
          <Select label={t('networks.snmpVersion')} required allowDeselect={false} data={['1', '2c', '3'].map((x) => ({ value: x, label: `SNMP v${x}` }))} {...form.getInputProps('snmpVersion')} />
          {v.snmpVersion === '3' ? (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput label={t('networks.v3User')} required autoComplete="off" {...form.getInputProps('v3User')} />
              <Select label={t('networks.v3Level')} required data={V3_LEVELS.map((l) => ({ value: l, label: l }))} {...form.getInputProps('v3Level')} />
              {v.v3Level !== 'noAuthNoPriv' && v.v3Level !== null && (
                <>
                  <Select label={t('networks.v3AuthProtocol')} required data={AUTH_PROTOCOLS} {...form.getInputProps('v3AuthProtocol')} />
                  {secret('authKey', range?.authKeySet)}
                </>
              )}
              {v.v3Level === 'authPriv' && (
                <>
                  <Select label={t('networks.v3PrivProtocol')} required data={PRIV_PROTOCOLS} {...form.getInputProps('v3PrivProtocol')} />
                  {secret('privKey', range?.privKeySet)}
                </>
              )}
            </SimpleGrid>
          ) : (
            secret('community', range?.communitySet)
          )}
        </FormCard>
        <FormCard disabled={!canEdit || busy}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select label={t('networks.agent')} clearable searchable data={agents.map((a) => ({ value: String(a.id), label: a.name }))} {...form.getInputProps('agentId')} />
            <Select
              label={t('networks.location')}
              description={t('networks.locationHint')}
              clearable
              searchable
              data={locations.map((l) => ({ value: String(l.id), label: l.name }))}
              {...form.getInputProps('locationId')}
            />
          </SimpleGrid>
          <Textarea label={t('networks.comment')} autosize minRows={2} {...form.getInputProps('comment')} />
        </FormCard>
        <FormActions area="networks" canSave={canEdit} saving={save.isPending} busy={busy} cancelTo="/networks" onDelete={range && canEdit ? () => remove.ask() : undefined} />
      </Stack>
      <ConfirmDialog {...remove.dialog} title={t('networks.deleteTitle')} message={t('networks.deleteConfirm')} confirmLabel={t('networks.proceed')} />
    </form>
  );
}

