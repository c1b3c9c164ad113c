import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'log.device.webOpened': '{{actor}} opened the web page of {{device}} (session {{session}}, port {{port}})',
    'log.device.webClosed': '{{actor}} closed web page session {{session}} of {{device}}',
    'log.device.webRequest': '{{actor}} web page of {{device}} (session {{session}}): {{method}} {{path}}',
    'deviceWeb.noAgent': 'No agent reads this device: its web page cannot be reached',
    'deviceWeb.badPort': 'The port must be 80, 443 or 8080',
    'deviceWeb.ended': 'This session of the device\'s web page has ended. Open the page again from the device card.',
    'deviceWeb.badMethod': 'This request method is not carried to the device',
    'deviceWeb.tooLong': 'The address is too long',
    'deviceWeb.unreachable': 'The device\'s web page did not answer through its agent',
    'deviceWeb.redirectRefused': 'The device redirected to another address, which is not followed',
    'deviceWeb.otherBrowser': 'This session of the device\'s web page belongs to the browser that opened it. Open the page from the device card here.',
    'deviceWeb.ticketUsed': 'This link of the device\'s web page was used already or is too old. Open the page again from the device card.',
    'deviceWeb.notHere': 'Nothing is served at this address',
  },
  ru: {
    'log.device.webOpened': '{{actor}} открыл веб-страницу {{device}} (сеанс {{session}}, порт {{port}})',
    'log.device.webClosed': '{{actor}} закрыл сеанс веб-страницы {{session}} устройства {{device}}',
    'log.device.webRequest': '{{actor}} веб-страница {{device}} (сеанс {{session}}): {{method}} {{path}}',
    'deviceWeb.noAgent': 'Это устройство не опрашивает ни один агент: его веб-страница недоступна',
    'deviceWeb.badPort': 'Порт должен быть 80, 443 или 8080',
    'deviceWeb.ended': 'Сеанс веб-страницы устройства закончен. Откройте страницу снова из карточки устройства.',
    'deviceWeb.badMethod': 'Этот метод запроса не передаётся устройству',
    'deviceWeb.tooLong': 'Слишком длинный адрес',
    'deviceWeb.unreachable': 'Веб-страница устройства не ответила через агента',
    'deviceWeb.redirectRefused': 'Устройство перенаправило на другой адрес; переход не выполняется',
    'deviceWeb.otherBrowser': 'Этот сеанс веб-страницы устройства принадлежит браузеру, в котором его открыли. Откройте страницу из карточки устройства здесь.',
    'deviceWeb.ticketUsed': 'Эта ссылка на веб-страницу устройства уже использована или устарела. Откройте страницу снова из карточки устройства.',
    'deviceWeb.notHere': 'По этому адресу ничего нет',
  },
});
