import { z } from 'zod';
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
  login: z.string().trim().min(1, 'general.mandatory').max(256, 'general.maxLength'),
});

export const restorePasswordSchema = z
  .object({
    password: userFields.password,
    passwordConfirmation: z.string().min(1, 'general.mandatory'),
  })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: 'general.passwordMismatch',
    path: ['passwordConfirmation'],
  });

export const demoRequestSchema = z.object({
  email: userFields.email,
  fullName: z.string().trim().min(1, 'general.mandatory').max(256, 'general.maxLength'),
  phone: z
    .string()
    .trim()
    .min(1, 'general.mandatory')
    .max(32, 'general.maxLength')
    .regex(/^\+?[0-9 ()-]{5,32}$/, 'general.badPhone'),
  company: z.string().trim().min(1, 'general.mandatory').max(256, 'general.maxLength'),
  comment: z.string().trim().max(2000, 'general.maxLength').optional().default(''),
});
export type DemoRequest = z.infer<typeof demoRequestSchema>;

export const messageResponseSchema = z.object({ message: z.string() });
