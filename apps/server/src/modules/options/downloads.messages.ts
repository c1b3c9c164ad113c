import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: { 'downloads.adminOnly': 'The downloads are for administrators' },
  ru: { 'downloads.adminOnly': 'Загрузки доступны администраторам' },
});
