import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: { 'downloads.cloudAdminOnly': 'The downloads are for administrators in cloud mode' },
  ru: { 'downloads.cloudAdminOnly': 'Загрузки доступны администраторам в облачном режиме' },
});
