import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'reports.type.DEVICE_AVAILABILITY': 'Device availability',
    'reports.type.DEVICE_COUNTERS': 'Device counters',
    'reports.type.PART_REPLACEMENTS': 'Consumable replacements',
    'reports.type.INSTALLED_CONSUMABLES': 'Installed consumables',
    'reports.badDate': 'Enter a date as YYYY-MM-DD',
    'reports.fromAfterTo': 'The end of the period must not come before its start',
    'reports.dateRange': 'Reports hold days from 1 January 2022 on',
    'reports.badColumns': 'The report has no columns {{columns}}',
  },
  ru: {
    'reports.type.DEVICE_AVAILABILITY': 'Доступность устройств',
    'reports.type.DEVICE_COUNTERS': 'Счётчики устройств',
    'reports.type.PART_REPLACEMENTS': 'Замены расходных материалов',
    'reports.type.INSTALLED_CONSUMABLES': 'Установленные расходные материалы',
    'reports.badDate': 'Введите дату в виде ГГГГ-ММ-ДД',
    'reports.fromAfterTo': 'Конец периода не может быть раньше начала',
    'reports.dateRange': 'В отчётах есть дни начиная с 1 января 2022 года',
    'reports.badColumns': 'В отчёте нет столбцов {{columns}}',
  },
});
