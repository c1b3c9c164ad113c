import { z } from 'zod';
import { grantSchema } from './grants.ts';

/**
 * Validation messages are i18n keys (`general.badLogin`); the server and the console both
 * translate them, so one schema serves the form and the API.
 */
export const LOGIN_PATTERN = /^[\p{L}\p{N}@_-]+$/u;
/** Latin letters, digits and the printable ASCII symbols. */
export const PASSWORD_PATTERN = /^[A-Za-z0-9!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]+$/;

export const locationRefSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
});
export type LocationRef = z.infer<typeof locationRefSchema>;

export const roleSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  acls: z.array(grantSchema).optional(),
});
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
export type Me = z.infer<typeof meSchema>;

const name = z.string().trim().max(128, 'general.maxLength');
export const userFields = {
  login: z
    .string()
    .trim()
    .min(1, 'general.mandatory')
    .min(3, 'general.badLogin')
    .max(128, 'general.badLogin')
    .regex(LOGIN_PATTERN, 'general.badLogin'),
  email: z.string().trim().min(1, 'general.mandatory').max(256, 'general.maxLength').email('general.badEmail'),
  password: z
    .string()
    .min(8, 'general.passwordLength')
    .max(20, 'general.passwordLength')
    .regex(PASSWORD_PATTERN, 'general.badPassword'),
  lastName: name.min(1, 'general.mandatory'),
  firstName: name.nullish(),
  middleName: name.nullish(),
};

/** What the console sends to create or change a user. The password travels as passwordHash. */
export const userInputSchema = z.object({
  login: userFields.login,
  email: userFields.email,
  passwordHash: userFields.password.optional(),
  activeFlag: z.boolean().default(true),
  systemNotificationRecipient: z.boolean().default(false),
  lastName: userFields.lastName,
  firstName: userFields.firstName,
  middleName: userFields.middleName,
  locations: z.array(z.object({ id: z.number().int() })).min(1, 'user.locationsRequired'),
  grants: z.array(z.object({ id: z.number().int() })).min(1, 'user.rolesRequired'),
});
export type UserInput = z.infer<typeof userInputSchema>;

export const userListRowSchema = z.object({
  id: z.number().int(),
  login: z.string(),
  email: z.string(),
  lastName: z.string(),
  firstName: z.string().nullable(),
  middleName: z.string().nullable(),
  activeFlag: z.boolean(),
});
export type UserListRow = z.infer<typeof userListRowSchema>;
