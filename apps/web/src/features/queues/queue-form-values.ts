import { QUEUE_TYPE_DEFS, queueInputSchema, sameQueueDestination, type Queue, type QueueInput, type QueueType } from '@pagewatch/contracts/queues';
import { schemaFieldErrors } from '../../components/form/schema-field-errors.ts';

/** The queue form's values: text inputs hold strings; the agent select holds its id as a string. */
export type QueueFormValues = {
  type: QueueType;
  agentId: string | null;
  host: string;
  port: number | string;
  url: string;
  username: string;
  password: string;
  token: string;
  clearPassword: boolean;
  clearToken: boolean;
};

export const emptyQueue = (agentId: string | null): QueueFormValues => ({
  type: 'IPP', agentId, host: '', port: QUEUE_TYPE_DEFS.IPP.defaultPort, url: '/printers/', username: '', password: '', token: '', clearPassword: false, clearToken: false,
});

/** Secrets never come back from the server: their inputs start empty ("keep the stored one"). */
export function valuesOf(q: Queue): QueueFormValues {
  return {
    type: q.type, agentId: String(q.agent.id), host: q.host, port: q.port, url: q.url ?? '', username: q.username ?? '',
    password: '', token: '', clearPassword: false, clearToken: false,
  };
}

/** The input as the form holds it, before the schema has accepted it: no agent chosen is null. */
type QueueDraft = Omit<QueueInput, 'agent'> & { agent: { id: number } | null };

function draftOf(v: QueueFormValues): QueueDraft {
  return {
    type: v.type, agent: v.agentId ? { id: Number(v.agentId) } : null, host: v.host.trim(),
    port: typeof v.port === 'number' ? v.port : Number(v.port), url: v.url.trim() || null, username: v.username || null,
    password: v.password || null, token: v.token || null, clearPassword: v.clearPassword, clearToken: v.clearToken,
  };
}

/** The input to send: the form's values as the contract's schema accepts them (the form is validated first). */
export const inputOf = (v: QueueFormValues): QueueInput => queueInputSchema.parse(draftOf(v));

/** Form field of a schema or server field ("agent" is the agentId select). */
export const formFieldOf = (field: string) => (field === 'agent' ? 'agentId' : field.split('.')[0]);

/**
 * The stored secrets a new destination needs again (the server refuses it otherwise): a changed
 * agent, host, port or path must not take the stored password or token along.
 */
export function secretsAgain(v: QueueFormValues, q: Queue | null): Record<string, string> {
  if (!q) return {};
  const input = draftOf(v);
  const after = { type: input.type, agentId: input.agent?.id ?? null, host: input.host, port: input.port, url: input.url ?? null };
  if (sameQueueDestination({ type: q.type, agentId: q.agent.id, host: q.host, port: q.port, url: q.url }, after)) return {};
  const fields = QUEUE_TYPE_DEFS[v.type].fields;
  const errors: Record<string, string> = {};
  if (fields.includes('password') && q.passwordSet && !v.password && !v.clearPassword) errors.password = 'queues.passwordAgain';
  if (fields.includes('token') && q.tokenSet && !v.token && !v.clearToken) errors.token = 'queues.tokenAgain';
  return errors;
}

/** The contracts' schema as the form's validation, and the secrets a move needs: field → i18n key. */
export function validateQueue(v: QueueFormValues, queue: Queue | null = null): Record<string, string> {
  return schemaFieldErrors(queueInputSchema, draftOf(v), {
    fieldOf: formFieldOf,
    keyOf: (issue, field) => (issue.message.includes('.') ? issue.message : field === 'agentId' ? 'general.mandatory' : 'general.badValue'),
    known: secretsAgain(v, queue),
  });
}
