import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'user.loginTaken': 'This login is already used',
    'user.lastAdmin': 'The last active administrator cannot be deleted, deactivated or lose the ADMIN role',
    'user.selfDelete': 'You cannot delete yourself',
    'user.ownRoles': 'You cannot change your own roles',
    'user.roleNotHeld': 'You cannot assign a role with rights you do not have',
    'user.locationNotHeld': 'You cannot assign a location outside your locations',
    'user.rolesRequired': 'Choose at least one role',
    'user.locationsRequired': 'Choose at least one location',
    'user.passwordRequired': 'A password is required for a new user',
    'user.systemUser': 'A system user cannot be deleted',
    'user.superior': 'This user has rights you do not have; you cannot change or delete them',
    'user.readOnly': 'This user also belongs to locations outside yours; you can only view them',
  },
  ru: {
    'user.loginTaken': 'Этот логин уже занят',
    'user.lastAdmin': 'Последнего активного администратора нельзя удалить, отключить или лишить роли ADMIN',
    'user.selfDelete': 'Нельзя удалить самого себя',
    'user.ownRoles': 'Нельзя менять свои собственные роли',
    'user.roleNotHeld': 'Нельзя назначить роль с правами, которых у вас нет',
    'user.locationNotHeld': 'Нельзя назначить расположение вне ваших расположений',
    'user.rolesRequired': 'Выберите хотя бы одну роль',
    'user.locationsRequired': 'Выберите хотя бы одно расположение',
    'user.passwordRequired': 'Для нового пользователя нужен пароль',
    'user.systemUser': 'Системного пользователя нельзя удалить',
    'user.superior': 'У этого пользователя есть права, которых нет у вас; его нельзя изменить или удалить',
    'user.readOnly': 'Этот пользователь относится и к расположениям вне ваших; его можно только просматривать',
  },
});
