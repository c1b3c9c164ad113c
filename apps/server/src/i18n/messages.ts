import i18next from 'i18next';
import { SHARED_MESSAGES } from '@pagewatch/contracts/messages';

/**
 * Server-side messages in English and Russian, through i18next as the console's are. The field
 * errors of the contracts' schemas (`general.*`) come from the catalogue both share
 * (packages/contracts messages.ts), so a field error reads the same in the form and from the API.
 * Each module adds its own messages (`addMessages`); keys are flat (`errors.NOT_FOUND`).
 */
export const LANGS = ['en', 'ru'] as const;
export type Lang = (typeof LANGS)[number];

type Catalog = Record<string, string>;

const en: Catalog = {
  'errors.VALIDATION': 'Some fields are not valid',
  'errors.BAD_LIST_QUERY': 'The list query is not valid',
  'errors.UNAUTHENTICATED': 'The user is not signed in',
  'errors.BAD_CREDENTIALS': 'Invalid user name or password',
  'errors.TOKEN_EXPIRED': 'The session has expired; sign in again',
  'errors.FORBIDDEN': 'You do not have the right to do this',
  'errors.OUT_OF_SCOPE': 'This is outside your locations',
  'errors.NOT_FOUND': 'Not found',
  'errors.CONFLICT': 'This conflicts with existing data',
  'errors.TOO_LARGE': 'The request is too large',
  'errors.UNSUPPORTED_MEDIA': 'This file type is not accepted',
  'errors.UNPROCESSABLE': 'The request cannot be processed',
  'errors.SECRET_REQUIRED': 'Where a stored secret is sent has changed: enter it again',
  'errors.TOO_MANY_ATTEMPTS': 'Too many failed sign-ins; try again in {{seconds}} seconds',
  'errors.AGENT_UPDATE_REQUIRED': 'Update required: this agent speaks version {{version}} of the agent API, the server takes version {{oldest}} and later. Install the agent of the server\'s release',
  'errors.SMTP_NOT_CONFIGURED': 'E-mail is not configured: set the SMTP settings first',
  'errors.PUBLIC_URL_NOT_CONFIGURED': 'Password restore links cannot be sent: the console address (PAGEWATCH_PUBLIC_URL) is not configured',
  'errors.MAIL_FAILED': 'The e-mail could not be sent: {{reason}}',
  'errors.RESTORE_TOKEN_INVALID': 'The password restore link is not valid or has already been used',
  'errors.INTERNAL': 'Internal server error',
  'errors.DATABASE_UNAVAILABLE': 'The database is not available at the moment; try again shortly',
  'errors.EXPORTS_BUSY': 'The server is busy making other files and its queue is full; try again in {{seconds}} seconds',
  'errors.DATABASE_FULL': 'The database is out of disk space or memory; nothing was saved. Try again once the administrator has fixed it',
  'errors.NOT_READY': 'The server is not ready: {{reason}}',
  'list.unknownField': 'unknown field "{{field}}"',
  'list.unknownOperator': 'operator "{{op}}" is not allowed for "{{field}}"',
  'list.badValue': 'bad value for "{{field}}"',
  'list.badExpression': 'malformed filter expression',
  'list.tooDeep': 'filter expression is too deep or too long',
  'list.badPage': 'page must be "pageSize,pageNumber"',
  'list.badSort': 'sort must be "field,ASC" or "field,DESC"',
  'auth.restoreSent': 'If the account exists, a password restore link has been sent to its e-mail',
  'auth.restoreDone': 'The password has been changed; sign in with the new one',
  'auth.demoStored': 'Thank you! We will contact you soon',
  'mail.restoreSubject': 'Pagewatch: restore your password',
  'mail.demoSubject': 'Pagewatch: demo account requested by {{company}}',
  'mail.demoBody': 'A demo account has been requested.\n\nName: {{name}}\nE-mail: {{email}}\nPhone: {{phone}}\nCompany: {{company}}\nComment: {{comment}}',
  'mail.restoreBody': 'To set a new password for {{login}}, open this link within one hour:\n\n{{link}}\n\nIf you did not ask for it, ignore this message.',
};

const ru: Catalog = {
  'errors.VALIDATION': 'Некоторые поля заполнены неверно',
  'errors.BAD_LIST_QUERY': 'Неверный запрос списка',
  'errors.UNAUTHENTICATED': 'Пользователь не авторизован',
  'errors.BAD_CREDENTIALS': 'Неверное имя пользователя или пароль',
  'errors.TOKEN_EXPIRED': 'Сеанс истёк; войдите снова',
  'errors.FORBIDDEN': 'У вас нет прав на это действие',
  'errors.OUT_OF_SCOPE': 'Это вне ваших расположений',
  'errors.NOT_FOUND': 'Не найдено',
  'errors.CONFLICT': 'Это противоречит существующим данным',
  'errors.TOO_LARGE': 'Слишком большой запрос',
  'errors.UNSUPPORTED_MEDIA': 'Этот тип файла не принимается',
  'errors.UNPROCESSABLE': 'Запрос не может быть обработан',
  'errors.SECRET_REQUIRED': 'Изменилось, куда отправляется сохранённый секрет: введите его заново',
  'errors.TOO_MANY_ATTEMPTS': 'Слишком много неудачных попыток входа; повторите через {{seconds}} с',
  'errors.AGENT_UPDATE_REQUIRED': 'Требуется обновление: агент использует версию {{version}} API агентов, сервер принимает версию {{oldest}} и новее. Установите агент из выпуска сервера',
  'errors.SMTP_NOT_CONFIGURED': 'Почта не настроена: сначала задайте параметры SMTP',
  'errors.PUBLIC_URL_NOT_CONFIGURED': 'Ссылки для восстановления пароля нельзя отправить: адрес консоли (PAGEWATCH_PUBLIC_URL) не задан',
  'errors.MAIL_FAILED': 'Не удалось отправить письмо: {{reason}}',
  'errors.RESTORE_TOKEN_INVALID': 'Ссылка для восстановления пароля недействительна или уже использована',
  'errors.INTERNAL': 'Внутренняя ошибка сервера',
  'errors.DATABASE_UNAVAILABLE': 'База данных сейчас недоступна; повторите чуть позже',
  'errors.EXPORTS_BUSY': 'Сервер занят формированием других файлов, и очередь заполнена; повторите через {{seconds}} с',
  'errors.DATABASE_FULL': 'У базы данных кончилось место на диске или память; ничего не сохранено. Повторите, когда администратор это исправит',
  'errors.NOT_READY': 'Сервер не готов: {{reason}}',
  'list.unknownField': 'неизвестное поле «{{field}}»',
  'list.unknownOperator': 'оператор «{{op}}» недопустим для «{{field}}»',
  'list.badValue': 'неверное значение для «{{field}}»',
  'list.badExpression': 'неверное выражение фильтра',
  'list.tooDeep': 'выражение фильтра слишком глубокое или длинное',
  'list.badPage': 'page должен иметь вид «размер,номер»',
  'list.badSort': 'sort должен иметь вид «поле,ASC» или «поле,DESC»',
  'auth.restoreSent': 'Если учётная запись существует, ссылка для восстановления пароля отправлена на её почту',
  'auth.restoreDone': 'Пароль изменён; войдите с новым паролем',
  'auth.demoStored': 'Спасибо! Мы скоро свяжемся с вами',
  'mail.restoreSubject': 'Pagewatch: восстановление пароля',
  'mail.demoSubject': 'Pagewatch: запрос демо-доступа от {{company}}',
  'mail.demoBody': 'Запрошен демо-доступ.\n\nИмя: {{name}}\nE-mail: {{email}}\nТелефон: {{phone}}\nКомпания: {{company}}\nКомментарий: {{comment}}',
  'mail.restoreBody': 'Чтобы задать новый пароль для {{login}}, откройте эту ссылку в течение часа:\n\n{{link}}\n\nЕсли вы этого не запрашивали, проигнорируйте письмо.',
};

type Tree = { [key: string]: string | Tree };
/** `{ area: { key: text, group: { key: text } } }` as flat `area.key` and `area.group.key` entries. */
const flat = (tree: Tree, prefix = ''): Catalog =>
  Object.fromEntries(Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v]] : Object.entries(flat(v, `${prefix}${k}.`)))));
Object.assign(en, flat(SHARED_MESSAGES.en));
Object.assign(ru, flat(SHARED_MESSAGES.ru));

export const catalogs: Record<Lang, Catalog> = { en, ru };

const i18n = i18next.createInstance();
void i18n.init({
  initAsync: false,
  resources: { en: { translation: en }, ru: { translation: ru } },
  fallbackLng: 'en',
  // Keys are flat: their dots are part of the key.
  keySeparator: false,
  nsSeparator: false,
  // Messages go into JSON and e-mail text, not HTML; a parameter not given stays visible as
  // {{name}} (skipOnVariables, the default).
  interpolation: { escapeValue: false },
});

/** Adds messages of a module; a key missing in one language is a start-up error. */
export function addMessages(more: Record<Lang, Catalog>) {
  for (const key of Object.keys(more.en)) if (!(key in more.ru)) throw new Error(`ru message missing: ${key}`);
  for (const key of Object.keys(more.ru)) if (!(key in more.en)) throw new Error(`en message missing: ${key}`);
  for (const lang of LANGS) {
    Object.assign(catalogs[lang], more[lang]);
    i18n.addResources(lang, 'translation', more[lang]);
  }
}

/** A parameter that is itself a message (or a list of them, joined by commas), translated with its parent. */
export type NestedMessage = { key: string; params?: Record<string, unknown> };
const isNested = (v: unknown): v is NestedMessage => typeof v === 'object' && v !== null && typeof (v as NestedMessage).key === 'string';

export function translate(lang: Lang, key: string, params: Record<string, unknown> = {}): string {
  const show = (v: unknown): string =>
    isNested(v) ? translate(lang, v.key, v.params) : Array.isArray(v) ? v.map(show).join(', ') : String(v);
  const values = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, show(v)]));
  // No nesting: a value such as a device's name must never be read as `$t(another.key)`.
  return i18n.t(key, { ...values, lng: lang, nest: false });
}

export function hasMessage(key: string): boolean {
  return i18n.exists(key, { lng: 'en', fallbackLng: false });
}

/** The first language of Accept-Language we speak; English otherwise. */
export function pickLang(acceptLanguage: string | undefined): Lang {
  return namedLang(acceptLanguage) ?? 'en';
}

/** The first of our languages an Accept-Language header ranks highest; null when it names none. */
export function namedLang(acceptLanguage: string | undefined): Lang | null {
  if (!acceptLanguage) return null;
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag, q] = part.trim().split(';q=');
      return { base: tag.toLowerCase().split('-')[0], q: q ? Number(q) || 0 : 1 };
    })
    .sort((a, b) => b.q - a.q);
  for (const { base } of ranked) if ((LANGS as readonly string[]).includes(base)) return base as Lang;
  return null;
}
