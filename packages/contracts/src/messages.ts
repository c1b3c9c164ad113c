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
        METER_READS: 'Meter reads',
      },
      badDate: 'Enter a date as YYYY-MM-DD',
      fromAfterTo: 'The end of the period must not come before its start',
      dateRange: 'Reports hold days from 1 January 2022 on',
      badColumns: 'The report has no columns {{columns}}',
    },
    meters: {
      name: {
        total: 'Total', totalLargeTwice: 'Total, large as two', mono: 'Black', color: 'Colour', a3: 'Large', a4: 'Small',
        a3Bw: 'Black large', a4Bw: 'Black small', a3Color: 'Large colour', a4Color: 'Colour small',
        copies: 'Copies', prints: 'Prints', scans: 'Scans', fax: 'Fax', duplex: 'Duplex',
      },
      part: { First: 'first read', FirstDate: 'first read date', Last: 'last read', LastDate: 'last read date', Pages: 'pages' },
      /** A file's header: the meter, its code where it has one, the figure. */
      header: '{{meter}}: {{part}}',
      headerCode: '{{meter}} ({{code}}): {{part}}',
      column: {
        serialNumber: 'Serial number', inventoryNumber: 'Inventory number', ip: 'IP address', modelCode: 'Model', hostname: 'Host name',
        location: 'Location', deviceType: 'Printer type', colorType: 'Colour type', paperFormat: 'Paper format',
        periodFrom: 'Period from', periodTo: 'Period to', dataQuality: 'Data quality',
      },
      quality: { SPLIT_MISMATCH: 'black + colour ≠ total', COUNTER_BACKWARDS: 'a meter went backwards', CORRECTED: 'corrected' },
    },
    meterCorrections: {
      badDate: 'Enter a date as YYYY-MM-DD',
      dateRange: 'A correction starts on a day from 1 January 2022 to 31 December 2099',
      offsetRange: 'The offset is a whole number of pages from −1,000,000,000,000 to 1,000,000,000,000',
      offsetZero: 'An offset of 0 pages changes nothing',
      alreadyWithdrawn: 'This correction has already been withdrawn',
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
        METER_READS: 'Показания счётчиков',
      },
      badDate: 'Введите дату в виде ГГГГ-ММ-ДД',
      fromAfterTo: 'Конец периода не может быть раньше начала',
      dateRange: 'В отчётах есть дни начиная с 1 января 2022 года',
      badColumns: 'В отчёте нет столбцов {{columns}}',
    },
    meters: {
      name: {
        total: 'Всего', totalLargeTwice: 'Всего, крупный формат за два', mono: 'Ч/б', color: 'Цвет', a3: 'Крупный формат', a4: 'Малый формат',
        a3Bw: 'Ч/б крупный формат', a4Bw: 'Ч/б малый формат', a3Color: 'Цвет крупный формат', a4Color: 'Цвет малый формат',
        copies: 'Копирование', prints: 'Печать', scans: 'Сканирование', fax: 'Факс', duplex: 'Дуплекс',
      },
      part: { First: 'первое показание', FirstDate: 'дата первого показания', Last: 'последнее показание', LastDate: 'дата последнего показания', Pages: 'страниц' },
      header: '{{meter}}: {{part}}',
      headerCode: '{{meter}} ({{code}}): {{part}}',
      column: {
        serialNumber: 'Серийный номер', inventoryNumber: 'Инвентарный номер', ip: 'IP-адрес', modelCode: 'Модель', hostname: 'Имя хоста',
        location: 'Расположение', deviceType: 'Тип принтера', colorType: 'Цветность', paperFormat: 'Формат бумаги',
        periodFrom: 'Период с', periodTo: 'Период по', dataQuality: 'Качество данных',
      },
      quality: { SPLIT_MISMATCH: 'ч/б + цвет ≠ всего', COUNTER_BACKWARDS: 'счётчик уменьшился', CORRECTED: 'есть поправка' },
    },
    meterCorrections: {
      badDate: 'Введите дату в виде ГГГГ-ММ-ДД',
      dateRange: 'Поправка начинается с дня от 1 января 2022 до 31 декабря 2099 года',
      offsetRange: 'Поправка — целое число страниц от −1 000 000 000 000 до 1 000 000 000 000',
      offsetZero: 'Поправка в 0 страниц ничего не меняет',
      alreadyWithdrawn: 'Эта поправка уже отозвана',
    },
  },
} as const;
