import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'settings.cloudDefaultOnly': 'In cloud mode the settings are open to users of the default location only',
    'settings.unknown': 'There is no such setting',
    'settings.badHost': 'Enter an IP address or a host name',
    'settings.badPort': 'A port is a whole number from 1 to 65535',
    'settings.badStartTls': 'Choose OPTIONAL, DISABLED or REQUIRED',
    'settings.badPeriodicity': 'Choose 5, 10, 15, 20, 30 or 60 minutes',
    'settings.badStorageDays': 'A whole number of days from 0 to 3650',
    'settings.badFlag': 'Yes or no',
    'settings.passwordAgain': 'The SMTP server (host or port) changed: enter the password again',
    'settings.testEmailSent': 'A test e-mail was sent to {{to}}',
    'settings.testEmailSubject': 'Pagewatch: test e-mail',
    'settings.testEmailText': 'This is a test e-mail from Pagewatch, sent by {{actor}} to check the SMTP settings.',
  },
  ru: {
    'settings.cloudDefaultOnly': 'В облачном режиме настройки доступны только пользователям расположения по умолчанию',
    'settings.unknown': 'Такой настройки нет',
    'settings.badHost': 'Введите IP-адрес или имя хоста',
    'settings.badPort': 'Порт — целое число от 1 до 65535',
    'settings.badStartTls': 'Выберите OPTIONAL, DISABLED или REQUIRED',
    'settings.badPeriodicity': 'Выберите 5, 10, 15, 20, 30 или 60 минут',
    'settings.badStorageDays': 'Целое число дней от 0 до 3650',
    'settings.badFlag': 'Да или нет',
    'settings.passwordAgain': 'Сервер SMTP (хост или порт) изменён: введите пароль заново',
    'settings.testEmailSent': 'Проверочное письмо отправлено на {{to}}',
    'settings.testEmailSubject': 'Pagewatch: проверочное письмо',
    'settings.testEmailText': 'Это проверочное письмо Pagewatch: его отправил {{actor}}, чтобы проверить настройки SMTP.',
  },
});
