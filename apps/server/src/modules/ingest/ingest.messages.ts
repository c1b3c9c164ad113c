import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'ingest.impossible': 'The batch holds impossible values; nothing of it was stored',
    'ingest.badReadAt': 'not a date, or before 2000, or in the future',
    'ingest.badCounter': 'counter value is beyond any device',
    'ingest.badLevel': 'supply level is out of range',
    'ingest.tooManyReadings': 'A batch holds at most {{max}} readings; nothing of it was stored',
  },
  ru: {
    'ingest.impossible': 'В пакете невозможные значения; ничего из него не сохранено',
    'ingest.badReadAt': 'не дата, раньше 2000 года или в будущем',
    'ingest.badCounter': 'значение счётчика больше возможного для устройства',
    'ingest.badLevel': 'уровень расходного материала вне допустимого диапазона',
    'ingest.tooManyReadings': 'В пакете не больше {{max}} показаний; ничего из него не сохранено',
  },
});
