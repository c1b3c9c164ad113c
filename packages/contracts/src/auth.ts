import { z } from 'zod';
import { text } from './fields.ts';
import { meSchema } from './users.ts';
import { userFields } from './users.ts';

export const loginQuerySchema = z.object({ remember: z.enum(['true', 'false']).optional() });

export const loginResponseSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  user: meSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const forgotPasswordSchema = z.object({
  login: text(256).trim().min(1, 'general.mandatory'),
});

export const restorePasswordSchema = z
  .object({
    password: userFields.password,
    passwordConfirmation: text(20).min(1, 'general.mandatory'),
  })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: 'general.passwordMismatch',
    path: ['passwordConfirmation'],
  });

export const demoRequestSchema = z.object({
  email: userFields.email,
  fullName: text(256).trim().min(1, 'general.mandatory'),
  phone: text(32)
    .trim()
    .min(1, 'general.mandatory')
    .regex(/^\+?[0-9 ()-]{5,32}$/, 'general.badPhone'),
  company: text(256).trim().min(1, 'general.mandatory'),
  comment: text(2000).trim().optional().default(''),
});
export type DemoRequest = z.infer<typeof demoRequestSchema>;

export const messageResponseSchema = z.object({ message: z.string() });
