import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** How the contracts define a coded value's looks (a log level, a queue's or an agent's status). */
export type CodeDef = { labelKey: string; color: string };

/**
 * A badge never cut to "НЕ ОПРО…": in a table that sizes its columns by their content, a badge's
 * max-width of 100% lets the column shrink below its label (issue 56).
 */
export const WHOLE = { maw: 'none' } as const;

/**
 * A coded value as a small badge, its colour and label from the one definition in the contracts;
 * a code the definition lacks shows as it is. The code stands in `data-<attr>`, which tests select by.
 * `whole`: in a table whose columns take their content's width, never cut.
 */
export function CodeBadge<C extends string>({ defs, code, attr, whole }: { defs: Record<C, CodeDef>; code: C; attr: 'level' | 'status' | 'reason'; whole?: boolean }) {
  const { t } = useTranslation();
  const def: CodeDef | undefined = defs[code];
  if (!def) return <>{code}</>;
  return (
    <Badge color={def.color} variant="light" size="sm" radius="sm" {...(whole ? WHOLE : {})} {...{ [`data-${attr}`]: code }}>
      {t(def.labelKey)}
    </Badge>
  );
}
