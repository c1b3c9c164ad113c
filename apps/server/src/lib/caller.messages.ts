import { addMessages } from '../i18n/messages.ts';

addMessages({
  en: {
    'auth.defaultAdminOnly': 'Only an administrator of the DEFAULT location may change instance settings',
  },
  ru: {
    'auth.defaultAdminOnly': 'Настройки экземпляра может менять только администратор расположения DEFAULT',
  },
});
