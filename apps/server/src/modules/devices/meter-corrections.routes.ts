import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import { meterCorrectionInputSchema, meterCorrectionSchema, meterCorrectionWithdrawSchema } from '@pagewatch/contracts/meter-reads';
import { routeTable } from '../../plugins/route-table.ts';
import type { AppContext } from '../../app-context.ts';

const correctionParams = idParams.extend({ correctionId: idParams.shape.id });
const corrections = z.array(meterCorrectionSchema);

/**
 * A device's meter corrections (issue 41): read with the device, entered and withdrawn with
 * BTN_EDIT_DEVICE.EXECUTE; each answer is the device's whole list, withdrawn ones included.
 */
export async function meterCorrectionsRoutes(root: FastifyInstance, ctx: AppContext) {
  const r = routeTable(root, ['devices']);
  const svc = ctx.meterCorrections;
  const edit = 'BTN_EDIT_DEVICE.EXECUTE';

  r.get('/api/devices/:id/meter-corrections', 'MNU_DEVICES.READ', { summary: 'The meter corrections of a device, withdrawn ones too', params: idParams, reply: corrections },
    (req, caller) => svc.list(caller, req.params.id));
  r.post('/api/devices/:id/meter-corrections', edit, {
    summary: 'Enters a meter correction: from a day on the meter reads the offset more (less when negative) in reports and exports',
    params: idParams,
    body: meterCorrectionInputSchema,
    reply: corrections,
  }, (req, caller) => svc.add(caller, req.params.id, req.body));
  r.post('/api/devices/:id/meter-corrections/:correctionId/withdraw', edit, {
    summary: 'Withdraws a meter correction (it stays listed, with who withdrew it, when and why)',
    params: correctionParams,
    body: meterCorrectionWithdrawSchema,
    reply: corrections,
  }, (req, caller) => svc.withdraw(caller, req.params.id, req.params.correctionId, req.body.reason));
}
