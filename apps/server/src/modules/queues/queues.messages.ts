import { addMessages } from '../../i18n/messages.ts';

// The same keys as the console's queues.json: zod messages in contracts are i18n keys.
addMessages({
  en: {
    'queues.badHost': 'Enter a host name or an IPv4 address, without a scheme or a port',
    'queues.badPort': 'The port is a number from 1 to 65535',
    'queues.badUrl': 'Enter the printer\'s path on the print server, starting with /, such as /printers/office',
    'queues.agentOutOfScope': 'This agent is outside your locations',
    'queues.cloudDefaultOnly': 'In cloud mode the print queues are open to users of the default location only',
    'queues.impossibleJob': 'The job has impossible values',
    'queues.tooManyJobs': 'A batch holds at most {{max}} jobs; nothing of it was stored',
    'queues.badJobTime': 'A time before 2000, in the future, or a completion before the creation',
    'log.queue.created': '{{actor}} created print queue #{{id}}',
    'log.queue.updated': '{{actor}} changed print queue #{{id}}',
    'log.queue.deleted': '{{actor}} deleted print queue #{{id}}',
    'log.queue.reset': '{{actor}} reset the state of print queue #{{id}}: its jobs are read again',
    'log.queue.readFailed': 'Print queue #{{id}} ({{host}}) could not be read: {{error}}',
    'log.queue.readAgain': 'Print queue #{{id}} ({{host}}) is read again',
    'log.queue.jobsRejected': 'Print queue #{{id}}: {{count}} jobs with impossible values were refused',
  },
  ru: {
    'queues.badHost': 'Введите имя хоста или IPv4-адрес, без схемы и порта',
    'queues.badPort': 'Порт — число от 1 до 65535',
    'queues.badUrl': 'Введите путь принтера на сервере печати, начиная с /, например /printers/office',
    'queues.agentOutOfScope': 'Этот агент вне ваших расположений',
    'queues.cloudDefaultOnly': 'В облачном режиме очереди печати доступны только пользователям расположения по умолчанию',
    'queues.impossibleJob': 'У задания невозможные значения',
    'queues.tooManyJobs': 'В пакете не больше {{max}} заданий; ничего из него не сохранено',
    'queues.badJobTime': 'Время раньше 2000 года, в будущем или завершение раньше создания',
    'log.queue.created': '{{actor}} создал очередь печати №{{id}}',
    'log.queue.updated': '{{actor}} изменил очередь печати №{{id}}',
    'log.queue.deleted': '{{actor}} удалил очередь печати №{{id}}',
    'log.queue.reset': '{{actor}} сбросил состояние очереди печати №{{id}}: её задания будут прочитаны заново',
    'log.queue.readFailed': 'Очередь печати №{{id}} ({{host}}) не прочитана: {{error}}',
    'log.queue.readAgain': 'Очередь печати №{{id}} ({{host}}) снова читается',
    'log.queue.jobsRejected': 'Очередь печати №{{id}}: отклонено заданий с невозможными значениями: {{count}}',
  },
});
