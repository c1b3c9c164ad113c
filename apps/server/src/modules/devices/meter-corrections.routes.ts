import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import { meterCorrectionInputSchema, meterCorrectionSchema, meterCorrectionWithdrawSchema, meterResetInputSchema } from '@pagewatch/contracts/meter-reads';
import { routeTable } from '../../plugins/route-table.ts';
import type { MeterCorrectionsService } from './meter-corrections.service.ts';

const correctionParams = idParams.extend({ correctionId: idParams.shape.id });
const corrections = z.array(meterCorrectionSchema);

/**
 * A device's meter corrections (issue 41): read with the device, entered and withdrawn with
 * BTN_EDIT_DEVICE.EXECUTE; each answer is the device's whole list, withdrawn ones included.
 */
export async function meterCorrectionsRoutes(root: FastifyInstance, meterCorrections: MeterCorrectionsService) {
  const r = routeTable(root, ['devices']);
  const svc = meterCorrections;
  const edit = 'BTN_EDIT_DEVICE.EXECUTE';

  r.get('/api/devices/:id/meter-corrections', 'MNU_DEVICES.READ', { summary: 'The meter corrections of a device, withdrawn ones too', params: idParams, reply: corrections },
    (req, caller) => svc.list(caller, req.params.id));
  r.post('/api/devices/:id/meter-corrections', edit, {
    summary: 'Enters a meter correction: from a day on the meter reads the offset more (less when negative) in reports and exports',
    params: idParams,
    body: meterCorrectionInputSchema,
    reply: corrections,
  }, (req, caller) => svc.add(caller, req.params.id, req.body));
  const reset = 'Enters a counter reset (a board swap) as one act: from a day on, every meter reads its last value before that day more';
  r.post('/api/devices/:id/meter-corrections/reset', edit, { summary: reset, params: idParams, body: meterResetInputSchema, reply: corrections },
    (req, caller) => svc.reset(caller, req.params.id, req.body));
  r.post('/api/devices/:id/meter-corrections/:correctionId/withdraw', edit, {
    summary: 'Withdraws a meter correction, a whole counter reset with one of its corrections (they stay listed, with who withdrew them, when and why)',
    params: correctionParams,
    body: meterCorrectionWithdrawSchema,
    reply: corrections,
  }, (req, caller) => svc.withdraw(caller, req.params.id, req.params.correctionId, req.body.reason));
}
