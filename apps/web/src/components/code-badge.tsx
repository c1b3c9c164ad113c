import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** How the contracts define a coded value's looks (a log level, a queue's or an agent's status). */
export type CodeDef = { labelKey: string; color: string };

/**
 * A coded value as a small badge, its colour and label from the one definition in the contracts;
 * a code the definition lacks shows as it is. The code stands in `data-<attr>`, which tests select by.
 */
export function CodeBadge<C extends string>({ defs, code, attr }: { defs: Record<C, CodeDef>; code: C; attr: 'level' | 'status' | 'reason' }) {
  const { t } = useTranslation();
  const def: CodeDef | undefined = defs[code];
  if (!def) return <>{code}</>;
  return (
    <Badge color={def.color} variant="light" size="sm" radius="sm" {...{ [`data-${attr}`]: code }}>
      {t(def.labelKey)}
    </Badge>
  );
}
