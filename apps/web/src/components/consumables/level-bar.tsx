import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LEVEL_BANDS, LEVEL_STATE_DISPLAY, levelBand, levelBarWidth } from '@pagewatch/contracts/devices';
import type { LevelState } from '@pagewatch/contracts/reading';
import classes from './level-bar.module.css';

/**
 * A consumable's level as a bar in its band's colour (spec section 4; bands in contracts). A
 * level that is not a number shows its state ("unknown", "some remaining") instead. Plain
 * elements with their hint (`HintLayer`): grids show four of them on every row.
 */
export function LevelBar({ level, state, compact = false }: { level: number | null; state?: LevelState | null; compact?: boolean }) {
  const { t } = useTranslation();
  const band = levelBand(level);
  if (band === null || level === null) {
    const look = LEVEL_STATE_DISPLAY[state && state in LEVEL_STATE_DISPLAY ? state : 'UNKNOWN'];
    return (
      <Text size="xs" c={look.color === 'gray' ? 'dimmed' : look.color} data-level-state={state ?? 'UNKNOWN'} className={classes.levelState}>
        {t(look.labelKey)}
      </Text>
    );
  }
  const { color, labelKey } = LEVEL_BANDS[band];
  const width = levelBarWidth(level);
  const label = t(labelKey);
  return (
    <div className={classes.level} data-band={band} data-level={level} data-hint={`${label}: ${level}%`}>
      <div className={compact ? `${classes.track} ${classes.trackCompact}` : classes.track} role="meter" aria-valuenow={level} aria-valuemin={0} aria-valuemax={100} aria-label={label}>
        <div className={classes.fill} style={{ width: `${width}%`, background: `var(--mantine-color-${color}-6)` }} data-width={width} />
      </div>
      <span className={classes.levelText}>{level}%</span>
    </div>
  );
}

/** A supply's colour as a round swatch (black, cyan, magenta, yellow; grey for anything else). */
const SWATCH: Record<string, string> = { black: '#222', cyan: '#00a3e0', magenta: '#d6007e', yellow: '#ffd400' };
export function ColorSwatch({ colorant }: { colorant: string | null }) {
  const { t } = useTranslation();
  const key = colorant?.toLowerCase() ?? '';
  const known = key in SWATCH;
  const name = known ? t(`devices.colorant.${key}`) : (colorant ?? t('devices.colorant.none'));
  return <span className={classes.swatch} style={{ background: SWATCH[key] ?? 'var(--mantine-color-gray-4)' }} data-colorant={key || 'none'} data-hint={name} role="img" aria-label={name} />;
}
