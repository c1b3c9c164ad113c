import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '@pagewatch/contracts/fields';
import { meterCorrectionInputSchema, meterCorrectionSchema, meterCorrectionWithdrawSchema } from '@pagewatch/contracts/meter-reads';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

const correctionParams = idParams.extend({ correctionId: idParams.shape.id });
const corrections = { 200: z.array(meterCorrectionSchema) };

/**
 * A device's meter corrections (issue 41): read with the device, entered and withdrawn with
 * BTN_EDIT_DEVICE.EXECUTE; each answer is the device's whole list, withdrawn ones included.
 */
export async function meterCorrectionsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['devices'];
  const edit = { access: 'BTN_EDIT_DEVICE.EXECUTE' } as const;

  app.get('/api/devices/:id/meter-corrections', {
    config: { access: 'MNU_DEVICES.READ' },
    schema: { tags, summary: 'The meter corrections of a device, withdrawn ones too', params: idParams, response: corrections },
  }, (req) => ctx.meterCorrections.list(callerOf(req), req.params.id));

  app.post('/api/devices/:id/meter-corrections', {
    config: edit,
    schema: { tags, summary: 'Enters a meter correction: from a day on the meter reads the offset more (less when negative) in reports and exports', params: idParams, body: meterCorrectionInputSchema, response: corrections },
  }, (req) => ctx.meterCorrections.add(callerOf(req), req.params.id, req.body));

  app.post('/api/devices/:id/meter-corrections/:correctionId/withdraw', {
    config: edit,
    schema: { tags, summary: 'Withdraws a meter correction (it stays listed, with who withdrew it, when and why)', params: correctionParams, body: meterCorrectionWithdrawSchema, response: corrections },
  }, (req) => ctx.meterCorrections.withdraw(callerOf(req), req.params.id, req.params.correctionId, req.body.reason));
}
