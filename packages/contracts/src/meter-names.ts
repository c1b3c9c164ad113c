// Loaded by the console's start (through the shared messages' meter titles): no zod here (issue 22).

/**
 * The meters of a meter read (issue 41), as dealers bill them: each with the customary numeric
 * code where there is one (101 total, 102 total counting large pages twice, 112/113 black large
 * and small, 122/123 colour large and small). `stored` meters are counters the daily history
 * keeps (and a correction may offset); the others are worked out from them per day: 102 is
 * total + large, prints are total − copies − fax.
 */
export const METERS = {
  total: { code: 101, stored: true },
  totalLargeTwice: { code: 102, stored: false },
  mono: { code: null, stored: true },
  color: { code: null, stored: true },
  a3: { code: null, stored: true },
  a4: { code: null, stored: true },
  a3Bw: { code: 112, stored: true },
  a4Bw: { code: 113, stored: true },
  a3Color: { code: 122, stored: true },
  a4Color: { code: 123, stored: true },
  copies: { code: null, stored: true },
  prints: { code: null, stored: false },
  scans: { code: null, stored: true },
  fax: { code: null, stored: true },
  duplex: { code: null, stored: true },
} as const satisfies Record<string, { code: number | null; stored: boolean }>;
export type Meter = keyof typeof METERS;
export const METER_NAMES = Object.keys(METERS) as Meter[];

/** The meters a correction may offset: those the history stores (the derived ones follow from them). */
export const CORRECTABLE_METERS = METER_NAMES.filter((m) => METERS[m].stored) as [Meter, ...Meter[]];

/** The figures of each meter in a meter-read row: first and last read (with their days) and the pages between. */
export const METER_PARTS = ['First', 'FirstDate', 'Last', 'LastDate', 'Pages'] as const;
export type MeterPart = (typeof METER_PARTS)[number];
type CodeOf<M extends Meter> = (typeof METERS)[M]['code'] extends number ? `${(typeof METERS)[M]['code']}` : '';
export type MeterField = { [M in Meter]: `${M}${CodeOf<M>}${MeterPart}` }[Meter];
/**
 * A meter-read field, its attachment name: the meter, its numeric code where it has one, the
 * part (`total101First`, `a3Bw112Pages`, `monoLast`), so that the JSON, the `columns` a file
 * asks for and a file's `headers=codes` name each billed meter by its code too.
 */
export const meterField = (m: Meter, part: MeterPart): MeterField => `${m}${METERS[m].code ?? ''}${part}` as MeterField;
const FIELDS = new Map(METER_NAMES.flatMap((meter) => METER_PARTS.map((part) => [meterField(meter, part) as string, { meter, part }] as const)));
/** The meter and part of a meter-read field (`a3Bw112FirstDate` → a3Bw, FirstDate), or null for the others. */
export const meterOfField = (field: string): { meter: Meter; part: MeterPart } | null => FIELDS.get(field) ?? null;

/** The texts of the meters (messages.ts `meters`), in one language. */
export type MeterTexts = { name: Record<Meter, string>; part: Record<MeterPart, string>; header: string; headerCode: string };

/** A meter column's title, the same in the file's header and the grid's: "Total (101): first read". */
export function meterTitle(texts: MeterTexts, field: string): string | null {
  const of = meterOfField(field);
  if (!of) return null;
  const code = METERS[of.meter].code;
  return (code === null ? texts.header : texts.headerCode)
    .replace('{{meter}}', texts.name[of.meter])
    .replace('{{code}}', String(code))
    .replace('{{part}}', texts.part[of.part]);
}

/** Every meter column's title in one language (messages.ts holds them as `meters.title.<field>`, for the console and the server alike). */
export const meterTitles = (texts: MeterTexts): Record<MeterField, string> =>
  Object.fromEntries(METER_NAMES.flatMap((m) => METER_PARTS.map((p) => [meterField(m, p), meterTitle(texts, meterField(m, p))]))) as Record<MeterField, string>;
