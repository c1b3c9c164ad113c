import { addMessages } from '../../i18n/messages.ts';

// The states and field errors (supplyOrders.*) are the contracts' shared messages.
addMessages({
  en: {
    'supplyOrders.fileName': 'Supplies to order',
    // Fixed text and the first order's id: a subject carries no text a caller typed (issue 52).
    'supplyOrders.mail.subject': 'Order of supplies no. {{id}}',
    'supplyOrders.mail.intro': 'Please deliver the following supplies to {{location}}. The attached file lists each device they are for.',
    'supplyOrders.mail.reference': 'Our reference: {{reference}}',
    'supplyOrders.mail.count': 'Quantity',
    'supplyOrders.digest.intro': 'Supplies to order for {{location}}: forecast to run out within {{days}} days, or already low.',
    'supplyOrders.digest.file': 'supplies-to-order',
    'log.supplyOrder.ordered': '{{actor}} ordered {{part}} of {{device}} (order #{{id}}, reference {{reference}})',
    'log.supplyOrder.shipped': '{{actor}} marked order #{{id}} ({{part}} of {{device}}) shipped',
    'log.supplyOrder.cancelled': '{{actor}} cancelled order #{{id}} ({{part}} of {{device}})',
    'log.supplyOrder.installed': 'Order #{{id}} ({{part}} of {{device}}) installed: the device reported the supply replaced',
    'log.supplyOrder.mailed': 'Order of {{count}} supplies by {{actor}} sent to the supplier {{to}}',
    'log.supplyOrder.mailHeld': 'Order of {{count}} supplies by {{actor}} to the supplier {{to}} held back until {{at}}: a location sends {{burst}} supplier mails at once, then one every {{minutes}} minutes',
    'log.supplyOrder.mailHeldInstance': 'Order of {{count}} supplies by {{actor}} to the supplier {{to}} held back until {{at}}: Pagewatch sends {{burst}} supplier mails at once, then one every {{minutes}} minutes',
    'log.supplyOrder.settings': '{{actor}} set ordering of {{location}}: lead time {{lead}} days, margin {{margin}} days, supplier {{email}}',
  },
  ru: {
    'supplyOrders.fileName': 'Расходные материалы к заказу',
    'supplyOrders.mail.subject': 'Заказ расходных материалов №{{id}}',
    'supplyOrders.mail.intro': 'Просим поставить в {{location}} следующие расходные материалы. В приложенном файле — устройства, для которых они нужны.',
    'supplyOrders.mail.reference': 'Наш номер заказа: {{reference}}',
    'supplyOrders.mail.count': 'Количество',
    'supplyOrders.digest.intro': 'Что заказать для {{location}}: закончится в ближайшие {{days}} дн. по прогнозу или уже на исходе.',
    'supplyOrders.digest.file': 'zakaz-raskhodnikov',
    'log.supplyOrder.ordered': '{{actor}} заказал {{part}} для {{device}} (заказ №{{id}}, номер {{reference}})',
    'log.supplyOrder.shipped': '{{actor}} отметил заказ №{{id}} ({{part}} для {{device}}) отгруженным',
    'log.supplyOrder.cancelled': '{{actor}} отменил заказ №{{id}} ({{part}} для {{device}})',
    'log.supplyOrder.installed': 'Заказ №{{id}} ({{part}} для {{device}}) установлен: устройство сообщило о замене',
    'log.supplyOrder.mailed': 'Заказ {{actor}} ({{count}} шт.) отправлен поставщику {{to}}',
    'log.supplyOrder.mailHeld': 'Заказ {{actor}} ({{count}} шт.) поставщику {{to}} отложен до {{at}}: расположение отправляет поставщикам {{burst}} писем сразу, затем по одному раз в {{minutes}} мин.',
    'log.supplyOrder.mailHeldInstance': 'Заказ {{actor}} ({{count}} шт.) поставщику {{to}} отложен до {{at}}: Pagewatch отправляет поставщикам {{burst}} писем сразу, затем по одному раз в {{minutes}} мин.',
    'log.supplyOrder.settings': '{{actor}} задал заказ для {{location}}: срок поставки {{lead}} дн., запас {{margin}} дн., поставщик {{email}}',
  },
});
