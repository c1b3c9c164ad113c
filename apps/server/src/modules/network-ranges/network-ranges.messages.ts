import { addMessages } from '../../i18n/messages.ts';

// The same keys as the console's networks.json: zod messages in contracts are i18n keys.
addMessages({
  en: {
    'networks.badIp': 'Enter an IPv4 address such as 192.168.1.10',
    'networks.badMask': 'Enter a network mask such as 255.255.255.0 or /24',
    'networks.fromAfterTo': 'The end of the range must not come before its start',
    'networks.tooLarge': 'A range holds at most 65536 addresses (a /16)',
    'networks.badPort': 'The port is a number from 1 to 65535',
    'networks.badPacketRate': 'Packets a second: a whole number from 10 to 100000',
    'networks.keyLength': 'An SNMP v3 key has at least 8 characters',
    'networks.locationRequired': 'Choose a location or an agent',
    'networks.agentOutOfScope': 'This agent is outside your locations',
    'networks.communityAgain': 'The range\'s addresses, port or agent changed: enter the community again',
    'networks.authKeyAgain': 'The range\'s addresses, port or agent changed: enter the authentication key again',
    'networks.privKeyAgain': 'The range\'s addresses, port or agent changed: enter the privacy key again',
    'networks.agentFull': 'An agent scans at most {{max}} ranges',
  },
  ru: {
    'networks.badIp': 'Введите IPv4-адрес, например 192.168.1.10',
    'networks.badMask': 'Введите маску сети, например 255.255.255.0 или /24',
    'networks.fromAfterTo': 'Конец диапазона не может быть раньше начала',
    'networks.tooLarge': 'В диапазоне не больше 65536 адресов (/16)',
    'networks.badPort': 'Порт — число от 1 до 65535',
    'networks.badPacketRate': 'Пакетов в секунду: целое число от 10 до 100000',
    'networks.keyLength': 'Ключ SNMP v3 — не меньше 8 символов',
    'networks.locationRequired': 'Выберите расположение или агента',
    'networks.agentOutOfScope': 'Этот агент вне ваших расположений',
    'networks.communityAgain': 'Адреса, порт или агент диапазона изменены: введите community заново',
    'networks.authKeyAgain': 'Адреса, порт или агент диапазона изменены: введите ключ аутентификации заново',
    'networks.privKeyAgain': 'Адреса, порт или агент диапазона изменены: введите ключ шифрования заново',
    'networks.agentFull': 'Агент сканирует не больше {{max}} диапазонов',
  },
});
