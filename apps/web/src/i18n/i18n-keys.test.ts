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
const statusPrefixes = new Set(statusLabelKeys.map((k) => k.replace(/\.[^.]+$/, '')));

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
