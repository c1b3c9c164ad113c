/**
 * A number in the reader's locale, as `toLocaleString()` writes it, from one formatter: V8
 * builds a new one on every `toLocaleString()` call, which a grid of counters pays per cell
 * (13 ms of the devices grid's first page in Chromium's profile).
 */
const NUMBER = new Intl.NumberFormat();
export const formatNumber = (v: number): string => NUMBER.format(v);
