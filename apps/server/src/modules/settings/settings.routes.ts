import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { settingSchema, settingsUpdateSchema, testEmailSchema } from '@pagewatch/contracts/settings';
import { messageResponseSchema } from '@pagewatch/contracts/auth';
import { translate } from '../../i18n/messages.ts';
import { routeTable } from '../../plugins/route-table.ts';
import type { SettingsService } from './settings.service.ts';

export async function settingsRoutes(root: FastifyInstance, settings: SettingsService) {
  // Session only (issue 52): SMTP decides where every mail goes, password resets included.
  const r = routeTable(root, ['settings'], { sessionOnly: true });
  const settingList = z.array(settingSchema);

  r.get('/api/settings/', 'MNU_SETTINGS.READ', { summary: 'Instance settings (write-only values say only whether they are set)', reply: settingList },
    (_req, caller) => settings.list(caller));
  r.put('/api/settings', 'MNU_SETTINGS.EDIT', { summary: 'Change settings', body: settingsUpdateSchema, reply: settingList }, (req, caller) =>
    Array.isArray(req.body) ? settings.update(caller, req.body) : settings.update(caller, req.body.changes, req.body.currentPassword));
  r.post('/api/settings/test-email', 'MNU_SETTINGS.EDIT', { summary: 'Send a test e-mail with the saved SMTP settings', body: testEmailSchema, reply: messageResponseSchema },
    async (req, caller) => {
      await settings.sendTestEmail(caller, req.body, req.lang);
      return { message: translate(req.lang, 'settings.testEmailSent', { to: req.body.to }) };
    });
}
