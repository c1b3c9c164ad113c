/**
 * The texts of the field errors that the contracts' schemas give (`general.*` keys): the
 * console's forms and the server's answers say the same thing in the same words. The console
 * adds them to its catalogue (apps/web/src/i18n/i18n.ts), the server to its own
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
  },
} as const;
