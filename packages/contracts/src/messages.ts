import { meterOfField, meterTitles } from './meter-names.ts';

/** A file's header: the meter, its code where it has one, the figure; the same in every language. */
const METER_HEADERS = { header: '{{meter}}: {{part}}', headerCode: '{{meter}} ({{code}}): {{part}}' } as const;

/**
 * The meters' texts of the meter-read report (issue 41): its columns' titles ("Total (101):
 * first read", `meters.title.<field>`, made from these by meterTitles) head the grid and the
 * files alike, its data-quality flags in words.
 */
const METERS_EN = {
  ...METER_HEADERS,
  name: {
    total: 'Total', totalLargeTwice: 'Total, large as two', mono: 'Black', color: 'Colour', a3: 'Large', a4: 'Small',
    a3Bw: 'Black large', a4Bw: 'Black small', a3Color: 'Large colour', a4Color: 'Colour small',
    copies: 'Copies', prints: 'Prints', scans: 'Scans', fax: 'Fax', duplex: 'Duplex',
  },
  part: { First: 'first read', FirstDate: 'first read date', Last: 'last read', LastDate: 'last read date', Pages: 'pages' },
  /** The report's own columns besides the device's and the meters' (`columnTitleKey`). */
  column: { periodFrom: 'Period from', periodTo: 'Period to', billedTotal: 'Billed on', otherTotal: 'Printer-MIB total now', dataQuality: 'Data quality' },
  /** Which total the device is billed on (BILLED_TOTALS, issue 57). */
  billed: { VENDOR: 'the maker’s own total', PRINTER_MIB: 'Printer-MIB total (prtMarkerLifeCount)' },
  /** The data-quality flags (METER_QUALITY_FLAGS): the plausibility check's kinds, and a correction. */
  quality: { JUMP: 'a jump beyond the rated speed', BACKWARDS: 'a meter went backwards', SPLIT: 'black + colour ≠ total', CORRECTED: 'corrected' },
} as const;
const METERS_RU = {
  ...METER_HEADERS,
  name: {
    total: 'Всего', totalLargeTwice: 'Всего, крупный формат за два', mono: 'Ч/б', color: 'Цвет', a3: 'Крупный формат', a4: 'Малый формат',
    a3Bw: 'Ч/б крупный формат', a4Bw: 'Ч/б малый формат', a3Color: 'Цвет крупный формат', a4Color: 'Цвет малый формат',
    copies: 'Копирование', prints: 'Печать', scans: 'Сканирование', fax: 'Факс', duplex: 'Дуплекс',
  },
  part: { First: 'первое показание', FirstDate: 'дата первого показания', Last: 'последнее показание', LastDate: 'дата последнего показания', Pages: 'страниц' },
  column: { periodFrom: 'Период с', periodTo: 'Период по', billedTotal: 'Счёт по', otherTotal: 'Итог по Printer-MIB сейчас', dataQuality: 'Качество данных' },
  billed: { VENDOR: 'собственный итог производителя', PRINTER_MIB: 'итог по Printer-MIB (prtMarkerLifeCount)' },
  quality: { JUMP: 'скачок больше возможного при номинальной скорости', BACKWARDS: 'счётчик уменьшился', SPLIT: 'ч/б + цвет ≠ всего', CORRECTED: 'есть поправка' },
} as const;

/**
 * The texts that the contracts' schemas and registries give (field errors as `general.*`, the
 * report types and their filter's errors as `reports.*`, the names of report and counters
 * columns as `reports.column.*` and `devices.*`): the
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
      /** A report column's title where the devices screens have no term for it (`columnTitleKey`). */
      column: {
        daysCount: 'Days',
        daysSeen: 'Days read',
        daysAvailable: 'Days working',
        availability: 'Availability',
        lastSeen: 'Last read',
        bwStart: 'B/W at start',
        bwEnd: 'B/W at end',
        bwDiff: 'B/W pages',
        colorStart: 'Colour at start',
        colorEnd: 'Colour at end',
        colorDiff: 'Colour pages',
        totalStart: 'Total at start',
        totalEnd: 'Total at end',
        totalDiff: 'Total pages',
        a3Diff: 'A3 pages',
        a4Diff: 'A4 pages',
        copyDiff: 'Copies',
        scanDiff: 'Scans',
        reason: 'Counter reset',
        replacementDate: 'Replaced',
        installDate: 'Installed',
        orderCount: 'To order',
        orderReference: 'Order reference',
        earliestRunOut: 'First runs out',
      },
    },
    /** The devices screens' terms that name report and counters file columns too (`columnTitleKey`). */
    devices: {
      modelCode: 'Model',
      serialNumber: 'Serial number',
      inventoryNumber: 'Inventory number',
      ip: 'IP',
      hostName: 'Host',
      snmpLocation: 'SNMP location',
      location: 'Location',
      deviceType: 'Type',
      colorType: 'Colour type',
      paperFormat: 'Paper format',
      statusCode: 'Status',
      partCode: 'Supply type',
      partModelCode: 'Part model code',
      partSerialNumber: 'Part serial number',
      level: 'Level',
      refreshDate: 'Refreshed',
      totalCount: 'Total pages',
      monoCount: 'Black-and-white',
      colorCount: 'Colour pages',
      a3Count: 'A3',
      a3BwCount: 'A3 black-and-white',
      a3ColorCount: 'A3 colour',
      a4Count: 'A4',
      a4BwCount: 'A4 black-and-white',
      a4ColorCount: 'A4 colour',
      copyCount: 'Copies',
      scanCount: 'Scans',
    },
    // A device's status as the console shows it and as e-mails to the user say it.
    notification: {
      status: { OK: 'OK', WARNING: 'Warning', ERROR: 'Error', NOT_AVAILABLE: 'Not available', UNKNOWN: 'Unknown' },
    },
    meters: { ...METERS_EN, title: meterTitles(METERS_EN) },
    meterCorrections: {
      badDate: 'Enter a date as YYYY-MM-DD',
      dateRange: 'A correction starts on a day from 1 January 2022 to 31 December 2099',
      offsetRange: 'The offset is a whole number of pages from −1,000,000,000,000 to 1,000,000,000,000',
      offsetZero: 'An offset of 0 pages changes nothing',
      alreadyWithdrawn: 'This correction has already been withdrawn',
      nothingToCarry: 'The device has no meter read before that day to carry over',
    },
    supplyOrders: {
      state: { ORDERED: 'Ordered', SHIPPED: 'Shipped', INSTALLED: 'Installed', CANCELLED: 'Cancelled' },
      badDays: 'A whole number of days from 0 to 365',
      alreadyOpen: 'These supplies already have an open order',
      notOpen: 'The order is no longer open',
      badTransition: 'An order can be shipped only once it is ordered',
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
      column: {
        daysCount: 'Дней',
        daysSeen: 'Дней опрошено',
        daysAvailable: 'Дней в работе',
        availability: 'Доступность',
        lastSeen: 'Последний опрос',
        bwStart: 'Ч/б на начало',
        bwEnd: 'Ч/б на конец',
        bwDiff: 'Ч/б страниц',
        colorStart: 'Цветные на начало',
        colorEnd: 'Цветные на конец',
        colorDiff: 'Цветных страниц',
        totalStart: 'Всего на начало',
        totalEnd: 'Всего на конец',
        totalDiff: 'Всего страниц',
        a3Diff: 'Страниц A3',
        a4Diff: 'Страниц A4',
        copyDiff: 'Копии',
        scanDiff: 'Сканы',
        reason: 'Сброс счётчика',
        replacementDate: 'Заменён',
        installDate: 'Установлен',
        orderCount: 'Заказать',
        orderReference: 'Номер заказа',
        earliestRunOut: 'Первым закончится',
      },
    },
    devices: {
      modelCode: 'Модель',
      serialNumber: 'Серийный номер',
      inventoryNumber: 'Инвентарный номер',
      ip: 'IP',
      hostName: 'Хост',
      snmpLocation: 'SNMP-расположение',
      location: 'Расположение',
      deviceType: 'Тип',
      colorType: 'Цветность',
      paperFormat: 'Формат бумаги',
      statusCode: 'Статус',
      partCode: 'Тип расходника',
      partModelCode: 'Модель расходника',
      partSerialNumber: 'Серийный номер расходника',
      level: 'Уровень',
      refreshDate: 'Обновлено',
      totalCount: 'Всего страниц',
      monoCount: 'Чёрно-белые',
      colorCount: 'Цветные',
      a3Count: 'A3',
      a3BwCount: 'A3 чёрно-белые',
      a3ColorCount: 'A3 цветные',
      a4Count: 'A4',
      a4BwCount: 'A4 чёрно-белые',
      a4ColorCount: 'A4 цветные',
      copyCount: 'Копии',
      scanCount: 'Сканы',
    },
    notification: {
      status: { OK: 'Норма', WARNING: 'Предупреждение', ERROR: 'Ошибка', NOT_AVAILABLE: 'Недоступно', UNKNOWN: 'Неизвестно' },
    },
    meters: { ...METERS_RU, title: meterTitles(METERS_RU) },
    meterCorrections: {
      badDate: 'Введите дату в виде ГГГГ-ММ-ДД',
      dateRange: 'Поправка начинается с дня от 1 января 2022 до 31 декабря 2099 года',
      offsetRange: 'Поправка — целое число страниц от −1 000 000 000 000 до 1 000 000 000 000',
      offsetZero: 'Поправка в 0 страниц ничего не меняет',
      alreadyWithdrawn: 'Эта поправка уже отозвана',
      nothingToCarry: 'У устройства нет показаний до этого дня, которые можно перенести',
    },
    supplyOrders: {
      state: { ORDERED: 'Заказан', SHIPPED: 'Отгружен', INSTALLED: 'Установлен', CANCELLED: 'Отменён' },
      badDays: 'Целое число дней от 0 до 365',
      alreadyOpen: 'На эти расходные материалы уже есть открытый заказ',
      notOpen: 'Заказ уже закрыт',
      badTransition: 'Отгрузить можно только заказанное',
    },
  },
} as const;

/** Report and counters columns named as the devices screens name a device's field (one term for one thing). */
const DEVICE_TERMS: Record<string, string> = {
  modelCode: 'devices.modelCode',
  serialNumber: 'devices.serialNumber',
  inventoryNumber: 'devices.inventoryNumber',
  ip: 'devices.ip',
  hostname: 'devices.hostName',
  snmpLocation: 'devices.snmpLocation',
  location: 'devices.location',
  deviceType: 'devices.deviceType',
  colorType: 'devices.colorType',
  paperFormat: 'devices.paperFormat',
  status: 'devices.statusCode',
  partType: 'devices.partCode',
  partModelCode: 'devices.partModelCode',
  partSerialNumber: 'devices.partSerialNumber',
  level: 'devices.level',
  refreshDate: 'devices.refreshDate',
  printedPageCount: 'devices.totalCount',
  printedBwPageCount: 'devices.monoCount',
  printedColorPageCount: 'devices.colorCount',
  printedPageA3Count: 'devices.a3Count',
  printedPageA3BwCount: 'devices.a3BwCount',
  printedPageA3ColorCount: 'devices.a3ColorCount',
  printedPageA4Count: 'devices.a4Count',
  printedPageA4BwCount: 'devices.a4BwCount',
  printedPageA4ColorCount: 'devices.a4ColorCount',
  copyPageCount: 'devices.copyCount',
  scanPageCount: 'devices.scanCount',
};

/** The meter-read report's own columns (issue 41); its meters' titles carry their codes (`meters.title.<field>`). */
const METER_READ_TERMS: Record<string, string> = {
  periodFrom: 'meters.column.periodFrom', periodTo: 'meters.column.periodTo', billedTotal: 'meters.column.billedTotal', otherTotal: 'meters.column.otherTotal',
  dataQuality: 'meters.column.dataQuality',
};

/**
 * The message key of a column's title, from its attachment name (spec section 3): the report
 * grids' headers, the column chooser and the files' header rows (issue 43) say the same.
 */
export const columnTitleKey = (field: string): string =>
  DEVICE_TERMS[field] ?? METER_READ_TERMS[field] ?? (meterOfField(field) ? `meters.title.${field}` : `reports.column.${field}`);
