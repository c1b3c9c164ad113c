import { addMessages } from '../../i18n/messages.ts';

// The field errors, periods, states and sources (billing.*) are the contracts' shared messages.
addMessages({
  en: {
    'billing.webhook.subject': 'Billing run closed: {{name}}, {{from}} to {{to}}',
    'billing.webhook.text': 'The billing run of {{name}} for {{from}} to {{to}} is closed: {{devices}} devices, {{total}} {{currency}} in all.',
    'log.billing.contractCreated': '{{actor}} made contract {{name}} (#{{id}})',
    'log.billing.contractChanged': '{{actor}} changed contract {{name}} (#{{id}})',
    'log.billing.contractDeleted': '{{actor}} deleted contract {{name}} (#{{id}})',
    'log.billing.deviceAdded': '{{actor}} added device {{serial}} to contract {{name}} from {{day}}',
    'log.billing.deviceChanged': '{{actor}} changed device {{serial}} of contract {{name}} (left on {{day}})',
    'log.billing.deviceRemoved': '{{actor}} removed device {{serial}} from contract {{name}}',
    'log.billing.runMade': '{{actor}} made the billing run of {{name}} for {{from}} to {{to}}',
    'log.billing.runClosed': '{{actor}} closed the billing run of {{name}} for {{from}} to {{to}}: {{total}}',
  },
  ru: {
    'billing.webhook.subject': 'Расчёт закрыт: {{name}}, с {{from}} по {{to}}',
    'billing.webhook.text': 'Расчёт по договору {{name}} за период с {{from}} по {{to}} закрыт: устройств {{devices}}, всего {{total}} {{currency}}.',
    'log.billing.contractCreated': '{{actor}} создал договор {{name}} (№{{id}})',
    'log.billing.contractChanged': '{{actor}} изменил договор {{name}} (№{{id}})',
    'log.billing.contractDeleted': '{{actor}} удалил договор {{name}} (№{{id}})',
    'log.billing.deviceAdded': '{{actor}} добавил устройство {{serial}} в договор {{name}} с {{day}}',
    'log.billing.deviceChanged': '{{actor}} изменил устройство {{serial}} договора {{name}} (выбыло {{day}})',
    'log.billing.deviceRemoved': '{{actor}} убрал устройство {{serial}} из договора {{name}}',
    'log.billing.runMade': '{{actor}} выполнил расчёт по договору {{name}} за период с {{from}} по {{to}}',
    'log.billing.runClosed': '{{actor}} закрыл расчёт по договору {{name}} за период с {{from}} по {{to}}: {{total}}',
  },
});
