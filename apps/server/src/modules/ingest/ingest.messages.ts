import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'ingest.impossibleReading': 'The reading holds impossible values; it was not stored',
    'ingest.badReadAt': 'not a date, or before 2000, or in the future',
    'ingest.tooManyReadings': 'A batch holds at most {{max}} readings; nothing of it was stored',
  },
  ru: {
    'ingest.impossibleReading': 'В показании невозможные значения; оно не сохранено',
    'ingest.badReadAt': 'не дата, раньше 2000 года или в будущем',
    'ingest.tooManyReadings': 'В пакете не больше {{max}} показаний; ничего из него не сохранено',
  },
});
