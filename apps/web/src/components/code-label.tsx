import { useTranslation } from 'react-i18next';
import { codeLabel, type CodeSet } from '../lib/code-labels.ts';

/** A device's code (a supply type, a printer status) in the reader's language, where a grid cell wants an element. */
export function CodeLabel({ set, code }: { set: CodeSet; code: string | null | undefined }) {
  const { t } = useTranslation();
  return <>{codeLabel(t, set, code)}</>;
}
