import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'models.uploadDisabled': 'Models pack upload is off: set PAGEWATCH_MODELS_SECRET on the server',
    'models.badSecret': 'The secret key is wrong',
    'models.invalid': 'The models pack is not valid: {{problems}}',
    'models.notNewer': 'Version {{version}} is not newer than the active version {{current}}',
    'models.noFile': 'Choose a models pack file',
    'models.uploaded': 'Models pack version {{version}} is active',
  },
  ru: {
    'models.uploadDisabled': 'Загрузка пакета моделей выключена: задайте PAGEWATCH_MODELS_SECRET на сервере',
    'models.badSecret': 'Неверный секретный ключ',
    'models.invalid': 'Пакет моделей неверен: {{problems}}',
    'models.notNewer': 'Версия {{version}} не новее активной версии {{current}}',
    'models.noFile': 'Выберите файл пакета моделей',
    'models.uploaded': 'Активна версия пакета моделей {{version}}',
  },
});
