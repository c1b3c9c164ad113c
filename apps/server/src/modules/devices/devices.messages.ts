import { addMessages } from '../../i18n/messages.ts';

// Keys shared with the console's devices.json where a field error reads the same.
addMessages({
  en: {
    'devices.inventoryTooLong': 'The inventory number has at most 100 characters',
    'devices.commentTooLong': 'The comment has at most 4000 characters',
    'devices.noneChosen': 'Choose at least one device',
    'devices.locationOutOfScope': 'This location is outside your locations',
    'devices.activityChanged': 'Maintenance {{state}} for {{count}} device(s)',
    'devices.walkRequested': 'The agent will take a fresh walk of the device on its next contact',
    'devices.noWalks': 'There are no unknown devices with a walk',
    'devices.stateOn': 'enabled',
    'devices.stateOff': 'disabled',
    'devices.mergeSelf': 'A device cannot be merged with itself',
    'devices.notSameSaved': 'Noted: these are two devices, and they will not be offered for merging again',
    'devices.merged': 'The devices are merged: {{days}} day(s) of history moved',
  },
  ru: {
    'devices.inventoryTooLong': 'Инвентарный номер — не больше 100 символов',
    'devices.commentTooLong': 'Комментарий — не больше 4000 символов',
    'devices.noneChosen': 'Выберите хотя бы одно устройство',
    'devices.locationOutOfScope': 'Это расположение вне ваших расположений',
    'devices.activityChanged': 'Обслуживание {{state}} для устройств: {{count}}',
    'devices.walkRequested': 'Агент снимет свежий walk устройства при следующем обращении',
    'devices.noWalks': 'Нет неизвестных устройств с walk-файлом',
    'devices.stateOn': 'включено',
    'devices.stateOff': 'выключено',
    'devices.mergeSelf': 'Устройство нельзя объединить с самим собой',
    'devices.notSameSaved': 'Принято: это два разных устройства, объединить их больше не предложим',
    'devices.merged': 'Устройства объединены: перенесено дней истории: {{days}}',
  },
});
