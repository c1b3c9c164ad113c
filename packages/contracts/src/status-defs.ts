// No zod here: the console's start reads the statuses (license-status.ts, device-events.ts).

/** A status's one definition (house style 5): the message key of its label and its Mantine colour. */
export type StatusDef = { labelKey: string; color: string };

/**
 * The definitions of a set of statuses from each code's colour: a code's label is
 * `<prefix>.<code>` in the messages, so a status is one line and its key cannot drift from it.
 */
export const statusDefs = <K extends string>(prefix: string, colors: Record<K, string>): Record<K, StatusDef> =>
  Object.fromEntries(Object.entries<string>(colors).map(([code, color]) => [code, { labelKey: `${prefix}.${code}`, color }])) as Record<K, StatusDef>;
