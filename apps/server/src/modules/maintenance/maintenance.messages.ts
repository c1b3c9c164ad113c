import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'service.noFile': 'Attach a .txt file with one serial number a line',
    'service.notTxt': 'Only .txt files are accepted',
    'service.notUtf8': 'The file is not UTF-8 text',
    'service.emptyFile': 'The file is empty',
    'service.tooLarge': 'The file is larger than 1 MB',
    'service.tooManySerials': 'The file holds more than {{max}} serial numbers',
    'service.result': 'Maintenance {{state}} for {{changed}} of {{found}} device(s) found.',
    'service.notFound': 'Not found ({{count}}): {{serials}}.',
    'service.invalidLines': 'Lines that are not serial numbers ({{count}}): {{lines}}.',
    'service.reset': 'Maintenance stopped for {{changed}} device(s).',
    'service.stateOn': 'enabled',
    'service.stateOff': 'disabled',
  },
  ru: {
    'service.noFile': 'Приложите файл .txt: один серийный номер в строке',
    'service.notTxt': 'Принимаются только файлы .txt',
    'service.notUtf8': 'Файл не является текстом в UTF-8',
    'service.emptyFile': 'Файл пуст',
    'service.tooLarge': 'Файл больше 1 МБ',
    'service.tooManySerials': 'В файле больше {{max}} серийных номеров',
    'service.result': 'Обслуживание {{state}}: изменено {{changed}} из {{found}} найденных устройств.',
    'service.notFound': 'Не найдены ({{count}}): {{serials}}.',
    'service.invalidLines': 'Строки, не являющиеся серийными номерами ({{count}}): {{lines}}.',
    'service.reset': 'Обслуживание остановлено для устройств: {{changed}}.',
    'service.stateOn': 'включено',
    'service.stateOff': 'выключено',
  },
});
