import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENT_STATUS_DEFS, AGENT_UPDATE_STATE_DEFS, DEVICE_FAILURE_DEFS } from '@pagewatch/contracts/agents';
import { ALERT_KIND_DEFS } from '@pagewatch/contracts/alerts';
import { DEVICE_STATUS_DEFS } from '@pagewatch/contracts/device-events';
import { LEVEL_STATE_DISPLAY } from '@pagewatch/contracts/devices';
import { LOG_LEVELS } from '@pagewatch/contracts/event-logs';
import { ROLE_CODES } from '@pagewatch/contracts/grants';
import { LICENSE_STATUS_DEFS } from '@pagewatch/contracts/license-status';
import { QUEUE_STATUS_DEFS } from '@pagewatch/contracts/queues';
import { SHARED_MESSAGES } from '@pagewatch/contracts/messages';
import { MENU_ITEMS } from '../components/layout/menu-items.ts';
import { AGENT_STATUSES, DEVICE_FAILURE_REASONS, NETWORK_RANGE_TYPES } from '@pagewatch/contracts/agent-api';
import { AGENT_UPDATE_STATES, DEVICE_OUTCOMES } from '@pagewatch/contracts/agents';
import { ALERT_KINDS } from '@pagewatch/contracts/alerts';
import { ATTENTION_ERRORS, DEVICE_STATUS_CODES } from '@pagewatch/contracts/device-events';
import { DEVICE_FLAGS, FORECAST_REASONS, IDENTITY_KINDS } from '@pagewatch/contracts/devices';
import { ATTRIBUTE_VALUE_TYPES } from '@pagewatch/contracts/dictionaries';
import { LOG_LEVEL_CODES, LOG_OBJECT_CLASSES } from '@pagewatch/contracts/event-logs';
import { RUNS_OUT_RANGES } from '@pagewatch/contracts/home';
import { LICENSE_STATUSES } from '@pagewatch/contracts/license-status';
import { METER_FLAG_KINDS } from '@pagewatch/contracts/meter-flags';
import { METER_NAMES, METER_PARTS } from '@pagewatch/contracts/meter-names';
import { BILLED_TOTALS, METER_QUALITY_FLAGS } from '@pagewatch/contracts/meter-reads';
import { BILLING_PERIODS, BILLING_RUN_STATES, READ_SOURCES, RUN_FILE_FORMATS } from '@pagewatch/contracts/billing';
import { IDP_KINDS } from '@pagewatch/contracts/identity-providers';
import { SSO_ERRORS } from '@pagewatch/contracts/sso-errors';
import { CHANNEL_KINDS } from '@pagewatch/contracts/notification-channels';
import { NOTIFICATION_TYPE_CODES, SCHEDULE_KINDS, WEEK_DAYS } from '@pagewatch/contracts/notifications';
import { QUEUE_STATUSES, QUEUE_TYPES } from '@pagewatch/contracts/queues';
import { COLOR_TYPES, DEVICE_TYPES, HR_DEVICE_STATUSES, HR_PRINTER_STATUSES, LEVEL_STATES, PRINTER_ERROR_BITS, SUPPLY_TYPES } from '@pagewatch/contracts/reading';
import { PERIOD_TYPES, REPORT_CODES } from '@pagewatch/contracts/reports';
import { START_TLS_MODES } from '@pagewatch/contracts/settings';
import { SUPPLY_ORDER_STATE_CODES } from '@pagewatch/contracts/supply-order-states';
import { CODE_PREFIX } from '../lib/code-labels.ts';

// Reads the locale files with fs as i18n.ts assembles them (file name = top-level key),
// because Vite's import.meta.glob does not exist here.
const here = fileURLToPath(new URL('.', import.meta.url));
const srcDir = join(here, '..');
const LANGS = ['en', 'ru'] as const;

type Tree = { [key: string]: string | Tree };

function loadLanguage(lang: string): Tree {
  const dir = join(here, 'locales', lang);
  const out: Tree = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    out[basename(file, '.json')] = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Tree;
  }
  // The texts shared with the server, merged in as i18n.ts does.
  for (const [area, texts] of Object.entries(SHARED_MESSAGES[lang as 'en' | 'ru'])) out[area] = { ...(out[area] as Tree), ...texts };
  return out;
}

/** Every leaf as `area.key.sub` → text. */
function flatten(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else flatten(v, key, out);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const contractsDir = join(srcDir, '..', '..', '..', 'packages', 'contracts', 'src');

/** The contracts' statuses (statusDefs): their label keys are `<prefix>.<code>`, built rather than written out. */
const STATUS_SETS = { AGENT_STATUS_DEFS, AGENT_UPDATE_STATE_DEFS, DEVICE_FAILURE_DEFS, ALERT_KIND_DEFS, DEVICE_STATUS_DEFS, LEVEL_STATE_DISPLAY, LOG_LEVELS, LICENSE_STATUS_DEFS, QUEUE_STATUS_DEFS };
const statusLabelKeys = Object.values(STATUS_SETS).flatMap((defs) => Object.values(defs).map((d) => d.labelKey));
const statusPrefixes = new Set([...statusLabelKeys.map((k) => k.replace(/\.[^.]+$/, '')), ...Object.values(CODE_PREFIX)]);

const strings = Object.fromEntries(LANGS.map((l) => [l, flatten(loadLanguage(l))])) as Record<
  (typeof LANGS)[number],
  Map<string, string>
>;

describe('translations', () => {
  it('have the same keys in English and Russian', () => {
    const missing: string[] = [];
    for (const lang of LANGS) {
      for (const other of LANGS) {
        if (other === lang) continue;
        for (const key of strings[other].keys()) if (!strings[lang].has(key)) missing.push(`${lang}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('use the same {{placeholders}} in every language', () => {
    const differing: string[] = [];
    for (const [key, en] of strings.en) {
      const ru = strings.ru.get(key);
      if (ru !== undefined && placeholders(en).join() !== placeholders(ru).join()) differing.push(key);
    }
    expect(differing).toEqual([]);
  });

  it('have no empty texts', () => {
    const empty = LANGS.flatMap((l) => [...strings[l]].filter(([, v]) => !v.trim()).map(([k]) => `${l}: ${k}`));
    expect(empty).toEqual([]);
  });

  it('cover every literal key the console passes to t()', () => {
    // `t('area.key')`, `i18n.t("area.key", …)` and `i18nKey="area.key"`; template keys are
    // dynamic and checked where they are built.
    const pattern = /(?:\bt\(\s*|i18nKey=\{?\s*)(['"])([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+)\1/g;
    const unknown: string[] = [];
    for (const file of sourceFiles(srcDir)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(pattern)) {
        if (!strings.en.has(m[2])) unknown.push(`${file.slice(srcDir.length + 1)}: ${m[2]}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('cover every key named as a string elsewhere (menu labels, route titles, schema messages)', () => {
    // Keys travel as data too: `label: 'nav.devices'`, zod messages like 'general.mandatory'
    // in the shared contracts. Any quoted literal that starts with a known area is a key.
    const areas = new Set([...strings.en.keys()].map((k) => k.split('.')[0]));
    const pattern = /(['"])([a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)\1/g;
    const unknown: string[] = [];
    for (const file of [...sourceFiles(srcDir), ...sourceFiles(contractsDir)]) {
      for (const m of readFileSync(file, 'utf8').matchAll(pattern)) {
        const key = m[2];
        if (areas.has(key.split('.')[0]) && !strings.en.has(key) && !statusPrefixes.has(key)) unknown.push(`${basename(file)}: ${key}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('name every status of the contracts (the prefixes given to statusDefs, with each code)', () => {
    const missing = LANGS.flatMap((l) => statusLabelKeys.filter((k) => !strings[l].has(k)).map((k) => `${l}: ${k}`));
    expect(missing).toEqual([]);
  });

  it('describe every section home offers (a line under each menu entry)', () => {
    const keys = MENU_ITEMS.filter((item) => item.key !== 'home').map((item) => `home.sections.${item.key}`);
    expect(LANGS.flatMap((l) => keys.filter((k) => !strings[l].has(k)).map((k) => `${l}: ${k}`))).toEqual([]);
  });

  it('name every role code the server seeds (the user form shows roles by code)', () => {
    const missing = LANGS.flatMap((l) => ROLE_CODES.filter((c) => !strings[l].has(`user.roleNames.${c}`)).map((c) => `${l}: ${c}`));
    expect(missing).toEqual([]);
  });
});

/**
 * Every code set of the contracts (an exported array) that a screen shows, with where its labels
 * are (`<prefix>.<code>`): no status, type or dictionary value reaches a reader as its raw code.
 */
const SHOWN_CODES: Record<string, [codes: readonly (string | number)[], prefix: string]> = {
  AGENT_STATUSES: [AGENT_STATUSES, 'agents.status'],
  NETWORK_RANGE_TYPES: [NETWORK_RANGE_TYPES, 'networks.type'],
  DEVICE_FAILURE_REASONS: [DEVICE_FAILURE_REASONS, 'agents.reason'],
  AGENT_UPDATE_STATES: [AGENT_UPDATE_STATES, 'agents.update'],
  DEVICE_OUTCOMES: [DEVICE_OUTCOMES, 'agents.outcome'],
  ALERT_KINDS: [ALERT_KINDS, 'alerts.kind'],
  DEVICE_STATUS_CODES: [DEVICE_STATUS_CODES, 'home.status'],
  ATTENTION_ERRORS: [ATTENTION_ERRORS, 'devices.errorBit'],
  DEVICE_FLAGS: [DEVICE_FLAGS, 'devices.flag'],
  FORECAST_REASONS: [FORECAST_REASONS, 'devices.forecast.reason'],
  IDENTITY_KINDS: [IDENTITY_KINDS, 'devices.identity'],
  ATTRIBUTE_VALUE_TYPES: [ATTRIBUTE_VALUE_TYPES, 'dictionaries.types'],
  LOG_LEVEL_CODES: [LOG_LEVEL_CODES, 'logs.level'],
  LOG_OBJECT_CLASSES: [LOG_OBJECT_CLASSES, 'logs.objects'],
  ROLE_CODES: [ROLE_CODES, 'user.roleNames'],
  RUNS_OUT_RANGES: [RUNS_OUT_RANGES, 'devices.runsOutWithin'],
  LICENSE_STATUSES: [LICENSE_STATUSES, 'licenses.status'],
  METER_FLAG_KINDS: [METER_FLAG_KINDS, 'devices.meterFlag'],
  METER_NAMES: [METER_NAMES, 'meters.name'],
  METER_PARTS: [METER_PARTS, 'meters.part'],
  SUPPLY_ORDER_STATE_CODES: [SUPPLY_ORDER_STATE_CODES, 'supplyOrders.state'],
  METER_QUALITY_FLAGS: [METER_QUALITY_FLAGS, 'meters.quality'],
  BILLED_TOTALS: [BILLED_TOTALS, 'meters.billed'],
  CHANNEL_KINDS: [CHANNEL_KINDS, 'channel.kind'],
  NOTIFICATION_TYPE_CODES: [NOTIFICATION_TYPE_CODES, 'notification.types'],
  WEEK_DAYS: [WEEK_DAYS, 'notification.day'],
  SCHEDULE_KINDS: [SCHEDULE_KINDS, 'notification.scheduleKind'],
  QUEUE_TYPES: [QUEUE_TYPES, 'queues.type'],
  QUEUE_STATUSES: [QUEUE_STATUSES, 'queues.status'],
  LEVEL_STATES: [LEVEL_STATES, 'devices.levelState'],
  DEVICE_TYPES: [DEVICE_TYPES, 'notification.deviceType'],
  COLOR_TYPES: [COLOR_TYPES, 'notification.colorType'],
  SUPPLY_TYPES: [SUPPLY_TYPES, CODE_PREFIX.supplyType],
  HR_PRINTER_STATUSES: [HR_PRINTER_STATUSES, CODE_PREFIX.printerStatus],
  HR_DEVICE_STATUSES: [HR_DEVICE_STATUSES, CODE_PREFIX.deviceStatus],
  PRINTER_ERROR_BITS: [PRINTER_ERROR_BITS, 'devices.errorBit'],
  REPORT_CODES: [REPORT_CODES, 'reports.type'],
  PERIOD_TYPES: [PERIOD_TYPES, 'reports.period'],
  START_TLS_MODES: [START_TLS_MODES, 'settings.startTlsMode'],
  BILLING_PERIODS: [BILLING_PERIODS, 'billing.period'],
  BILLING_RUN_STATES: [BILLING_RUN_STATES, 'billing.state'],
  READ_SOURCES: [READ_SOURCES, 'billing.source'],
  RUN_FILE_FORMATS: [RUN_FILE_FORMATS, 'contracts.file'],
  IDP_KINDS: [IDP_KINDS, 'idp.kind'],
  SSO_ERRORS: [SSO_ERRORS, 'login.sso'],
};

/** The contracts' other exported arrays, and why a reader never sees their codes as labels. */
const NOT_LABELLED: Record<string, string> = {
  AGENT_RELEASE_PLATFORMS: 'names of the agent executables (linux-x64), shown as the files are named',
  REFUSAL_REASONS: "the agent's discovery notes, folded into DEVICE_FAILURE_REASONS before a screen",
  DEVICE_EVENT_TYPES: 'event kinds the event log writes as sentences of their own (logs messageCode)',
  ROOM_PLAN_TYPES: 'MIME types of an upload',
  LOCATION_DEPENDENTS: "the keys of a location's delete refusal, which the server words",
  COMPONENTS: 'grant codes (MNU_AGENTS), the spec names them so',
  OPERATIONS: 'grant operations (READ, EDIT), part of a grant code',
  PAGE_SIZES: 'numbers',
  FILTER_OPERATORS: 'the list protocol; the grid words its own filter menu',
  COUNTER_FIELDS: "models-pack fields, a profile author's words",
  COUNTER_ATTACHMENT_COLUMNS: 'attachment column names for programs (their titles are reports.column)',
  FILE_EXTENSIONS: 'file formats (CSV, XLSX, PDF), words in both languages',
  REPORT_FORMATS: 'file formats (CSV, XLSX), words in both languages',
  PAPER_FORMATS: 'paper formats (A4, A3), words in both languages',
  PROCESS_PERIODICITIES: 'numbers of minutes',
  DERIVED_COUNTERS: 'counter fields, headed by the devices grid as columns (devices.<field>)',
  SOURCED_COUNTERS: 'counter fields, headed by the devices grid as columns (devices.<field>)',
  TRIM_ACTIONS: "what ingest did to a text, in the server's log",
  FILE_HEADERS: 'a choice the report form words (reports.fileHeader)',
  SETTING_VALUE_TYPES: 'value types of a setting, not shown',
  SUGGESTION_FILE_COLUMNS: 'column keys of a file, titled in it',
  ORDER_FILE_COLUMNS: 'column keys of a file, titled in it',
  RUN_FILE_COLUMNS: 'column keys of a file, titled in it',
  ERP_FILE_HEADER: "the ERP meter-import file's fixed header, for programs (apps/server/docs/billing.md)",
  DEVICE_WEB_PORTS: 'numbers',
  DEVICE_WEB_METHODS: 'HTTP methods, written in the event log as they are',
};

/** Labels that are the code itself, where the code is a word of that language. */
const WORDS = new Set(['LDAP / Active Directory', 'OpenID Connect', 'IPP', 'MFP', 'OK', 'Slack', 'Telegram', 'Microsoft Teams', 'Webhook', 'SSL/TLS', 'STARTTLS', 'TLS']);

describe('codes on screen', () => {
  it('every exported code set of the contracts is labelled here or said why not', () => {
    const named = new Set([...Object.keys(SHOWN_CODES), ...Object.keys(NOT_LABELLED)]);
    const unlisted: string[] = [];
    for (const file of sourceFiles(contractsDir)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/export const ([A-Z][A-Z0-9_]*) = (?:\[|Object\.keys)/g)) if (!named.has(m[1])) unlisted.push(`${basename(file)}: ${m[1]}`);
    }
    expect(unlisted).toEqual([]);
  });

  it('every code has a label in English and Russian that is not the code', () => {
    const wrong: string[] = [];
    for (const [set, [codes, prefix]] of Object.entries(SHOWN_CODES)) {
      for (const code of codes) {
        for (const lang of LANGS) {
          const label = strings[lang].get(`${prefix}.${code}`);
          if (label === undefined) wrong.push(`${lang}: ${set} ${code} has no label (${prefix}.${code})`);
          else if (label === String(code) && !WORDS.has(label)) wrong.push(`${lang}: ${set} ${code} is labelled with its code`);
          // A Russian label in Latin letters is an English word or a code left as it was.
          else if (lang === 'ru' && !/[а-яё]/i.test(label) && !WORDS.has(label) && !/^[A-Z0-9/ -]+$/.test(label)) wrong.push(`ru: ${set} ${code} is "${label}", not Russian`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
