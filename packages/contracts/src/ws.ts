import { z } from 'zod';

/** Commands the console sends over the WebSocket. */
export const wsCommandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('subscribe-dic-events') }),
  z.object({ command: z.literal('unsubscribe-dic-events') }),
  z.object({ command: z.literal('subscribe-log-events'), id: z.coerce.number().int() }),
  z.object({ command: z.literal('unsubscribe-log-events'), id: z.coerce.number().int() }),
  /** Device events (status, IP, supplies…) of the devices in the caller's locations. */
  z.object({ command: z.literal('subscribe-device-events') }),
  z.object({ command: z.literal('unsubscribe-device-events') }),
]);
export type WsCommand = z.infer<typeof wsCommandSchema>;

/** Messages the server sends. `response` acknowledges a command. */
export type WsMessage =
  | { type: 'response'; command: string; ok: boolean; message?: string }
  /** `locationId`: the owner of a customer's dictionary (none for a system one). */
  | { type: 'DICTIONARY_CHANGED'; dictionary: string; locationId?: number }
  | { type: 'EVENT_LOG_CHANGED'; id: number }
  | { type: 'EVENT_LOG_FINISHED'; id: number }
  | { type: 'DEVICE_EVENT'; deviceId: number; locationId: number; event: string };
