/**
 * Server-side messages in English and Russian. Keys match the console's where they overlap
 * (`general.*` validation keys), so a field error reads the same in the form and from the API.
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
  'errors.TOO_MANY_ATTEMPTS': 'Too many failed sign-ins; try again in {{seconds}} seconds',
  'errors.SMTP_NOT_CONFIGURED': 'E-mail is not configured: set the SMTP settings first',
  'errors.PUBLIC_URL_NOT_CONFIGURED': 'Password restore links cannot be sent: the console address (PAGEWATCH_PUBLIC_URL) is not configured',
  'errors.MAIL_FAILED': 'The e-mail could not be sent: {{reason}}',
  'errors.RESTORE_TOKEN_INVALID': 'The password restore link is not valid or has already been used',
  'errors.INTERNAL': 'Internal server error',
  'errors.DATABASE_UNAVAILABLE': 'The database is not available at the moment; try again shortly',
  'errors.NOT_READY': 'The server is not ready: {{reason}}',
  'general.mandatory': 'Required field',
  'general.badLogin': 'Login: 3 to 128 characters; letters, digits, @, _ and - only',
  'general.badEmail': 'Invalid e-mail address',
  'general.badPassword': 'Password: Latin letters, digits and symbols only',
  'general.passwordLength': 'Password: 8 to 20 characters',
  'general.passwordMismatch': 'The passwords do not match',
  'general.badPhone': 'Invalid phone number',
  'general.maxLength': 'Too long',
  'general.tooShort': 'Must be at least {{minimum}}',
  'general.tooLong': 'Must be at most {{maximum}}',
  'general.badType': 'Invalid value',
  'general.badValue': 'Invalid value',
  'general.badMultipart': 'The upload is incomplete or malformed',
  'general.controlChars': 'Control characters (such as NUL) are not allowed',
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
  'errors.TOO_MANY_ATTEMPTS': 'Слишком много неудачных попыток входа; повторите через {{seconds}} с',
  'errors.SMTP_NOT_CONFIGURED': 'Почта не настроена: сначала задайте параметры SMTP',
  'errors.PUBLIC_URL_NOT_CONFIGURED': 'Ссылки для восстановления пароля нельзя отправить: адрес консоли (PAGEWATCH_PUBLIC_URL) не задан',
  'errors.MAIL_FAILED': 'Не удалось отправить письмо: {{reason}}',
  'errors.RESTORE_TOKEN_INVALID': 'Ссылка для восстановления пароля недействительна или уже использована',
  'errors.INTERNAL': 'Внутренняя ошибка сервера',
  'errors.DATABASE_UNAVAILABLE': 'База данных сейчас недоступна; повторите чуть позже',
  'errors.NOT_READY': 'Сервер не готов: {{reason}}',
  'general.mandatory': 'Обязательное поле',
  'general.badLogin': 'Логин: от 3 до 128 символов; только буквы, цифры, @, _ и -',
  'general.badEmail': 'Неверный адрес электронной почты',
  'general.badPassword': 'Пароль: только латинские буквы, цифры и символы',
  'general.passwordLength': 'Пароль: от 8 до 20 символов',
  'general.passwordMismatch': 'Пароли не совпадают',
  'general.badPhone': 'Неверный номер телефона',
  'general.maxLength': 'Слишком длинное значение',
  'general.tooShort': 'Не меньше {{minimum}}',
  'general.tooLong': 'Не больше {{maximum}}',
  'general.badType': 'Неверное значение',
  'general.badValue': 'Неверное значение',
  'general.controlChars': 'Управляющие символы (например, NUL) недопустимы',
  'general.badMultipart': 'Загрузка неполная или повреждена',
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
  'mail.restoreBody': 'Чтобы задать новый пароль для {{login}}, откройте эту ссылку в течение часа:\n\n{{link}}\n\nЕсли вы этого не запрашивали, проигнорируйте письмо.',
};

export const catalogs: Record<Lang, Catalog> = { en, ru };

/** Adds messages of a module; a key missing in one language is a start-up error. */
export function addMessages(more: Record<Lang, Catalog>) {
  for (const key of Object.keys(more.en)) if (!(key in more.ru)) throw new Error(`ru message missing: ${key}`);
  for (const key of Object.keys(more.ru)) if (!(key in more.en)) throw new Error(`en message missing: ${key}`);
  Object.assign(en, more.en);
  Object.assign(ru, more.ru);
}

/** A parameter that is itself a message (or a list of them, joined by commas), translated with its parent. */
export type NestedMessage = { key: string; params?: Record<string, unknown> };
const isNested = (v: unknown): v is NestedMessage => typeof v === 'object' && v !== null && typeof (v as NestedMessage).key === 'string';

export function translate(lang: Lang, key: string, params: Record<string, unknown> = {}): string {
  const text = catalogs[lang][key] ?? catalogs.en[key] ?? key;
  const show = (v: unknown): string =>
    isNested(v) ? translate(lang, v.key, v.params) : Array.isArray(v) ? v.map(show).join(', ') : String(v);
  return text.replace(/\{\{(\w+)\}\}/g, (_, p: string) => (p in params ? show(params[p]) : `{{${p}}}`));
}

export function hasMessage(key: string): boolean {
  return key in en;
}

/** The first language of Accept-Language we speak; English otherwise. */
export function pickLang(acceptLanguage: string | undefined): Lang {
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag, q] = part.trim().split(';q=');
      return { base: tag.toLowerCase().split('-')[0], q: q ? Number(q) || 0 : 1 };
    })
    .sort((a, b) => b.q - a.q);
  for (const { base } of ranked) if ((LANGS as readonly string[]).includes(base)) return base as Lang;
  return 'en';
}
