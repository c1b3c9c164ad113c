/**
 * The texts that the contracts' schemas and registries give (field errors as `general.*`, the
 * report types and their filter's errors as `reports.*`): the
 * console's forms and the server's answers say the same thing in the same words. The console
 * adds them to the texts its start speaks (apps/web/src/i18n/locales/start.ts), the server to its own
 * (apps/server/src/i18n/messages.ts); neither repeats them.
 */
export const SHARED_MESSAGES = {
  en: {
    general: {
      mandatory: 'Required field',
      badLogin: '3 to 128 characters: letters, digits, @, _ and -',
      badEmail: 'Invalid e-mail address',
      passwordLength: 'The password must be 8 to 20 characters long',
      badPassword: 'Use Latin letters, digits and symbols only',
      passwordMismatch: 'The passwords do not match',
      badPhone: 'Invalid phone number',
      maxLength: 'The value is too long',
      tooShort: 'Must be at least {{minimum}}',
      tooLong: 'Must be at most {{maximum}}',
      badType: 'Invalid value',
      badValue: 'Invalid value',
      controlChars: 'Control characters (such as NUL) are not allowed',
      badMultipart: 'The upload is incomplete or malformed',
    },
    reports: {
      type: {
        DEVICE_AVAILABILITY: 'Device availability',
        DEVICE_COUNTERS: 'Device counters',
        PART_REPLACEMENTS: 'Consumable replacements',
        INSTALLED_CONSUMABLES: 'Installed consumables',
      },
      badDate: 'Enter a date as YYYY-MM-DD',
      fromAfterTo: 'The end of the period must not come before its start',
      dateRange: 'Reports hold days from 1 January 2022 on',
      badColumns: 'The report has no columns {{columns}}',
    },
    // A device's status as the console shows it and as e-mails to the user say it.
    notification: {
      status: { OK: 'OK', WARNING: 'Warning', ERROR: 'Error', NOT_AVAILABLE: 'Not available', UNKNOWN: 'Unknown' },
    },
  },
  ru: {
    general: {
      mandatory: 'Обязательное поле',
      badLogin: 'От 3 до 128 символов: буквы, цифры, @, _ и -',
      badEmail: 'Неверный адрес электронной почты',
      passwordLength: 'Длина пароля от 8 до 20 символов',
      badPassword: 'Допустимы только латинские буквы, цифры и символы',
      passwordMismatch: 'Пароли не совпадают',
      badPhone: 'Неверный номер телефона',
      maxLength: 'Слишком длинное значение',
      tooShort: 'Не меньше {{minimum}}',
      tooLong: 'Не больше {{maximum}}',
      badType: 'Неверное значение',
      badValue: 'Неверное значение',
      controlChars: 'Управляющие символы (например, NUL) недопустимы',
      badMultipart: 'Загрузка неполная или повреждена',
    },
    reports: {
      type: {
        DEVICE_AVAILABILITY: 'Доступность устройств',
        DEVICE_COUNTERS: 'Счётчики устройств',
        PART_REPLACEMENTS: 'Замены расходных материалов',
        INSTALLED_CONSUMABLES: 'Установленные расходные материалы',
      },
      badDate: 'Введите дату в виде ГГГГ-ММ-ДД',
      fromAfterTo: 'Конец периода не может быть раньше начала',
      dateRange: 'В отчётах есть дни начиная с 1 января 2022 года',
      badColumns: 'В отчёте нет столбцов {{columns}}',
    },
    notification: {
      status: { OK: 'Норма', WARNING: 'Предупреждение', ERROR: 'Ошибка', NOT_AVAILABLE: 'Недоступно', UNKNOWN: 'Неизвестно' },
    },
  },
} as const;
