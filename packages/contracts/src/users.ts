import { z } from 'zod';
import { codedRefSchema, idRef, text } from './fields.ts';
import { COMPONENTS, OPERATIONS } from './grants.ts';
import { DEFAULT_LOCATION_CODE } from './location-codes.ts';
import { defineList } from './list.ts';

export const grantSchema = z.object({
  component: z.enum(COMPONENTS),
  operation: z.enum(OPERATIONS),
});

/**
 * Validation messages are i18n keys (`general.badLogin`); the server and the console both
 * translate them, so one schema serves the form and the API.
 */
export const LOGIN_PATTERN = /^[\p{L}\p{N}@_-]+$/u;
const EMAIL_LOGIN = z.email();
/** A login: the pattern, or (cloud mode, where the login is the e-mail) an e-mail address. */
export const isLogin = (v: string) => LOGIN_PATTERN.test(v) || EMAIL_LOGIN.safeParse(v).success;
/** Latin letters, digits and the printable ASCII symbols. */
export const PASSWORD_PATTERN = /^[A-Za-z0-9!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]+$/;

export const locationRefSchema = codedRefSchema;
export type LocationRef = z.infer<typeof locationRefSchema>;

export const roleSchema = codedRefSchema.extend({ acls: z.array(grantSchema).optional() });
export type Role = z.infer<typeof roleSchema>;

export const userSchema = z.object({
  id: z.number().int(),
  login: z.string(),
  email: z.string(),
  activeFlag: z.boolean(),
  isSystem: z.boolean(),
  systemNotificationRecipient: z.boolean(),
  lastName: z.string(),
  firstName: z.string().nullable(),
  middleName: z.string().nullable(),
  locations: z.array(locationRefSchema),
  grants: z.array(roleSchema),
});
export type User = z.infer<typeof userSchema>;

export const meSchema = userSchema.extend({ resolvedGrants: z.array(grantSchema) });

/** The location every instance has; its ADMIN or DEVELOPER owns the instance (spec section 6). */
export { DEFAULT_LOCATION_CODE };
export const DEFAULT_ADMIN_ROLES: readonly string[] = ['ADMIN', 'DEVELOPER'];
/** The default administrator: ADMIN or DEVELOPER at the DEFAULT location (settings, licenses). */
export const isDefaultAdmin = (u: Pick<User, 'grants' | 'locations'>) =>
  u.locations.some((l) => l.code === DEFAULT_LOCATION_CODE) && u.grants.some((r) => DEFAULT_ADMIN_ROLES.includes(r.code));
export type Me = z.infer<typeof meSchema>;

const name = text(128).trim();
export const userFields = {
  login: z
    .string()
    .trim()
    .min(1, 'general.mandatory')
    .min(3, 'general.badLogin')
    .max(128, 'general.badLogin')
    .refine(isLogin, 'general.badLogin'),
  email: text(256).trim().min(1, 'general.mandatory').email('general.badEmail'),
  password: z
    .string()
    .min(8, 'general.passwordLength')
    .max(20, 'general.passwordLength')
    .regex(PASSWORD_PATTERN, 'general.badPassword'),
  lastName: name.min(1, 'general.mandatory'),
  firstName: name.nullish(),
  middleName: name.nullish(),
};

const passwordMatches = (v: { passwordHash?: string; passwordConfirmation?: string }) =>
  v.passwordConfirmation === undefined || v.passwordConfirmation === (v.passwordHash ?? '');

/**
 * What the console sends to create or change a user. The password travels as passwordHash
 * (absent on a change keeps the old one). The console never sends the confirmation; another
 * client may, and then it must match.
 */
export const userInputSchema = z
  .object({
    login: userFields.login,
    email: userFields.email,
    passwordHash: userFields.password.optional(),
    passwordConfirmation: text(20).optional(),
    activeFlag: z.boolean().default(true),
    systemNotificationRecipient: z.boolean().default(false),
    lastName: userFields.lastName,
    firstName: userFields.firstName,
    middleName: userFields.middleName,
    locations: z.array(idRef).min(1, 'user.locationsRequired').max(1000),
    grants: z.array(idRef).min(1, 'user.rolesRequired').max(100),
  })
  .refine(passwordMatches, { message: 'general.passwordMismatch', path: ['passwordConfirmation'] });
export type UserInput = z.infer<typeof userInputSchema>;

/** The user form's values: locations as the multi-select's string ids, roles as ids. */
export type UserFormValues = {
  login: string;
  email: string;
  password: string;
  passwordConfirmation: string;
  activeFlag: boolean;
  systemNotificationRecipient: boolean;
  lastName: string;
  firstName: string;
  middleName: string;
  locationIds: string[];
  roleIds: number[];
};

/**
 * The form's rules (spec section 5): the password and its confirmation are required, 8 to 20,
 * on create; on a change an empty password keeps the old one. "No role" is not a field error:
 * the form shows a warning dialog instead, so roles are not checked here.
 */
export function userFormSchema(isNew: boolean) {
  const password = isNew
    ? z.string().min(1, 'general.mandatory').pipe(userFields.password)
    : z.string().superRefine((v, ctx) => {
        if (!v) return;
        for (const issue of userFields.password.safeParse(v).error?.issues ?? []) ctx.addIssue({ code: 'custom', message: issue.message });
      });
  const confirmation = isNew
    ? z.string().min(1, 'general.mandatory').min(8, 'general.passwordLength').max(20, 'general.passwordLength')
    : z.string().max(20, 'general.passwordLength');
  return z
    .object({
      login: userFields.login,
      email: userFields.email,
      password,
      passwordConfirmation: confirmation,
      lastName: userFields.lastName,
      firstName: z.string().max(128, 'general.maxLength'),
      middleName: z.string().max(128, 'general.maxLength'),
      locationIds: z.array(z.string()).min(1, 'user.locationsRequired'),
    })
    .refine((v) => v.password === v.passwordConfirmation, { message: 'general.passwordMismatch', path: ['passwordConfirmation'] });
}

/** The request body for a form's values: no confirmation, no empty password on a change. */
export function userInputFromForm(v: UserFormValues): UserInput {
  return {
    login: v.login.trim(),
    email: v.email.trim(),
    ...(v.password ? { passwordHash: v.password } : {}),
    activeFlag: v.activeFlag,
    systemNotificationRecipient: v.systemNotificationRecipient,
    lastName: v.lastName.trim(),
    firstName: v.firstName.trim() || null,
    middleName: v.middleName.trim() || null,
    locations: v.locationIds.map((id) => ({ id: Number(id) })),
    grants: v.roleIds.map((id) => ({ id })),
  };
}

export const userListRowSchema = userSchema.pick({ id: true, login: true, email: true, lastName: true, firstName: true, middleName: true, activeFlag: true });
export type UserListRow = z.infer<typeof userListRowSchema>;

/** The users grid (spec section 2, Users). `id` is listed but hidden until chosen. */
export const usersList = defineList(userListRowSchema, {
  endpoint: '/users',
  defaultSort: [{ field: 'lastName', dir: 'ASC' }],
  columns: ['login', 'email', 'lastName', 'firstName', 'middleName', 'activeFlag'],
  hidden: ['id'],
});
