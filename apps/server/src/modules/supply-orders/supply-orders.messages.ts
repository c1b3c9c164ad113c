import { addMessages } from '../../i18n/messages.ts';

// The states and field errors (supplyOrders.*) are the contracts' shared messages.
addMessages({
  en: {
    'supplyOrders.fileName': 'Supplies to order',
    'log.supplyOrder.ordered': '{{actor}} ordered {{part}} of {{device}} (order #{{id}}, reference {{reference}})',
    'log.supplyOrder.shipped': '{{actor}} marked order #{{id}} ({{part}} of {{device}}) shipped',
    'log.supplyOrder.cancelled': '{{actor}} cancelled order #{{id}} ({{part}} of {{device}})',
    'log.supplyOrder.installed': 'Order #{{id}} ({{part}} of {{device}}) installed: the device reported the supply replaced',
    'log.supplyOrder.settings': '{{actor}} set ordering of {{location}}: lead time {{lead}} days, margin {{margin}} days, supplier {{email}}',
  },
  ru: {
    'supplyOrders.fileName': 'Расходные материалы к заказу',
    'log.supplyOrder.ordered': '{{actor}} заказал {{part}} для {{device}} (заказ №{{id}}, номер {{reference}})',
    'log.supplyOrder.shipped': '{{actor}} отметил заказ №{{id}} ({{part}} для {{device}}) отгруженным',
    'log.supplyOrder.cancelled': '{{actor}} отменил заказ №{{id}} ({{part}} для {{device}})',
    'log.supplyOrder.installed': 'Заказ №{{id}} ({{part}} для {{device}}) установлен: устройство сообщило о замене',
    'log.supplyOrder.settings': '{{actor}} задал заказ для {{location}}: срок поставки {{lead}} дн., запас {{margin}} дн., поставщик {{email}}',
  },
});
