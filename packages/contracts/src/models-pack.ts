import { z } from 'zod';
import { INT_MAX } from './fields.ts';

/**
 * The models pack: vendor profiles as data. The server holds the active pack, gives it to the
 * agents and accepts a new one at POST /api/versions/upload after `parseModelsPack` says yes.
 * Everything vendor-specific lives here, so a new printer family is a pack update, not a
 * release of the agent.
 */

const OID_RE = /^\d+(\.\d+)+$/;
const oid = z.string().regex(OID_RE, 'must be a numeric OID without a leading dot');

/** A regular expression given as a string; checked to compile. Matching is case-insensitive. */
const regex = z.string().min(1).refine((source) => {
  try {
    new RegExp(source, 'i');
    return true;
  } catch {
    return false;
  }
}, 'must be a valid regular expression');

export const COUNTER_FIELDS = [
  'total', 'powerOn', 'mono', 'color', 'a3', 'a3Bw', 'a3Color', 'a4', 'a4Bw', 'a4Color', 'copies', 'scans', 'fax', 'duplex',
] as const;
export const counterFieldSchema = z.enum(COUNTER_FIELDS);
export type CounterField = z.infer<typeof counterFieldSchema>;
/** One counter can feed several fields, e.g. a black copy counter feeds mono and copies. */
const counterFieldsSchema = z.union([counterFieldSchema, z.array(counterFieldSchema).min(1)]);

/**
 * Where one text value comes from: an OID, or a field already read (sysDescr, sysName, the
 * first printer's hrDeviceDescr). `ieee1284` picks a key (MDL, MODEL…) out of an IEEE-1284
 * device ID; `pattern` keeps its first capture group; `strip` removes what it matches.
 */
export const textSourceSchema = z
  .object({
    oid: oid.optional(),
    from: z.enum(['sysDescr', 'sysName', 'hrDeviceDescr']).optional(),
    ieee1284: z.array(z.string().min(1)).optional(),
    pattern: regex.optional(),
    strip: regex.optional(),
  })
  .strict()
  .refine((s) => (s.oid === undefined) !== (s.from === undefined), {
    message: 'give exactly one of oid or from',
  });
export type TextSource = z.infer<typeof textSourceSchema>;

/** A vendor counter read from one scalar OID. */
export const scalarCounterSchema = z
  .object({
    oid,
    /** Normalised field(s) it feeds; counters feeding one field are summed. */
    field: counterFieldsSchema.optional(),
    /** Name shown with the vendor counters. */
    name: z.string().min(1),
    /** For counters sent as text ("1920 INCHES, 4876 CENTIMETERS"): first group is the number. */
    pattern: regex.optional(),
    /**
     * Read only where no other counter of the profile feeds its field (Konica's scan total, for
     * models without the per-function table): a summary never added to the rows it sums.
     */
    fallback: z.boolean().optional(),
  })
  .strict();

/**
 * A vendor counter sent as one octet string of typed records (Brother's brInfoCounter): each
 * record is a one-byte code, header bytes up to a one-byte length at `lengthAt` (Brother: code,
 * 0x01, length), then that many bytes of a big-endian value. `codes` (two hex digits) name the
 * records and give the fields they feed; a record of an unknown code is skipped.
 */
export const recordCounterSchema = z
  .object({
    oid,
    name: z.string().min(1),
    lengthAt: z.number().int().min(1).max(4).default(2),
    codes: z.record(
      z.string().regex(/^[0-9a-f]{2}$/, 'a code is two lower-case hex digits'),
      z.object({ name: z.string().min(1), field: counterFieldsSchema.optional() }).strict(),
    ),
    /**
     * A record without this code is a monochrome device's (Brother's counter record has a colour
     * pages entry on colour models alone): its colour type where nothing else tells.
     */
    colorCode: z.string().regex(/^[0-9a-f]{2}$/, 'a code is two lower-case hex digits').optional(),
  })
  .strict();

/**
 * Supply levels sent as one octet string of typed records, laid out as `recordCounters` are
 * (Brother's maintenance record brInfoMaintenance: code, 0x01, length, value). Each code names
 * the supply it gives the level of, by its type and colorant: the Printer-MIB row of that type
 * and colorant takes the record's level (the device's own figure, as its web page shows it);
 * without such a row, the record's supply is added at index 1000 + the code. `scale` divides
 * the value into a percentage (Brother's remaining life is in hundredths of a per cent).
 */
export const recordSupplySchema = z
  .object({
    oid,
    name: z.string().min(1),
    /** Read only on the models this matches (Brother's inkjets send the same codes for their inks). */
    model: regex.optional(),
    lengthAt: z.number().int().min(1).max(4).default(2),
    codes: z.record(
      z.string().regex(/^[0-9a-f]{2}$/, 'a code is two lower-case hex digits'),
      z
        .object({
          name: z.string().min(1).max(100),
          /** IANA-PRINTER-MIB supply type name (toner, inkCartridge, opc, transferUnit, fuser…). */
          type: z.string().min(1).max(50),
          colorant: z.string().min(1).max(50).optional(),
          scale: z.number().int().min(1).max(10_000).default(1),
        })
        .strict(),
    ),
  })
  .strict();

/**
 * A vendor counter table. Without type columns, `rows` keys are the row index after the value
 * column (e.g. "5.4.61"); with `typeColumn`, they are the row's type (Ricoh's counter types, a
 * number, or a text such as a paper size's name); with `typeColumns`, the row's values in those
 * columns joined by dots (Samsung's job type, colour and paper size: "1.3.2"). A `*` in a key
 * stands for any one value ("*" alone: every row); a row feeds the fields of every key it
 * matches, each once. `nameColumn` gives each row its device-side name.
 */
export const counterTableSchema = z
  .object({
    valueColumn: oid,
    nameColumn: oid.optional(),
    typeColumn: oid.optional(),
    typeColumns: z.array(oid).min(1).max(4).optional(),
    rows: z.record(z.string().max(100), counterFieldsSchema).default({}),
    /**
     * Paper sizes by the name the device gives them (Kyocera numbers its sizes per device): the
     * row index's arc `part` (1 = first) is a size whose name is at `<column>.<arc>`, and the
     * row's key carries that name instead of the number ("1.A3"; names match case-insensitively).
     */
    sizeNames: z.object({ column: oid, part: z.number().int().min(1).max(8) }).strict().optional(),
  })
  .strict()
  .refine((t) => !(t.typeColumn && t.typeColumns), { message: 'give typeColumn or typeColumns, not both' });

export const levelCodeSchema = z
  .object({
    level: z.number().int(),
    percent: z.number().int().min(0).max(100).nullable(),
    state: z.enum(['UNRESTRICTED', 'UNKNOWN', 'SOME_REMAINING', 'LOW', 'EMPTY']).nullable(),
  })
  .strict();

export const supplyQuirksSchema = z
  .object({
    /** Raw levels that are vendor codes, not amounts (Brother 1/2/3, Ricoh -100). */
    levelCodes: z.array(levelCodeSchema).default([]),
    /** Models (regex on the model) that report real levels and skip the codes. */
    levelCodesExceptModel: regex.optional(),
    /** Private per-supply columns tried when the Printer-MIB level is missing or 0. */
    fallbackLevelColumn: oid.optional(),
    fallbackDescriptionColumn: oid.optional(),
  })
  .strict();

export const profileMatchSchema = z
  .object({
    /** Private enterprise numbers (1.3.6.1.4.1.<n>) of the maker's sysObjectIDs. */
    enterprises: z.array(z.number().int().nonnegative()).default([]),
    sysObjectIdPrefixes: z.array(oid).default([]),
    sysDescrPatterns: z.array(regex).default([]),
    /** When it matches, the device is known not to be a printer (e.g. a scan server). */
    notPrinterPattern: regex.optional(),
  })
  .strict();

export const vendorProfileSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case kebab-case id'),
    vendor: z.string().min(1),
    /** Another profile whose OIDs, counters and quirks this one inherits (OEM brands). */
    extends: z.string().optional(),
    /** Source of the data, e.g. the MIB that defines the OIDs. */
    source: z.string().optional(),
    match: profileMatchSchema.default({ enterprises: [], sysObjectIdPrefixes: [], sysDescrPatterns: [] }),
    model: z.array(textSourceSchema).optional(),
    serialNumber: z.array(textSourceSchema).optional(),
    firmware: z.array(textSourceSchema).optional(),
    hostName: z.array(textSourceSchema).optional(),
    counters: z.array(scalarCounterSchema).optional(),
    counterTables: z.array(counterTableSchema).optional(),
    recordCounters: z.array(recordCounterSchema).optional(),
    recordSupplies: z.array(recordSupplySchema).optional(),
    supplyQuirks: supplyQuirksSchema.optional(),
    /** Part numbers in supply descriptions; first capture group is the part number. */
    partNumberPattern: regex.optional(),
    /** Model names (regex on model or sysDescr) of multifunction devices. */
    mfpPattern: regex.optional(),
    /**
     * Colour and monochrome models by their names (Brother's lasers say colour with a C:
     * HL-L8260CDW, HL-L2350DW): the colour type where the Printer-MIB does not tell.
     */
    colorModelPattern: regex.optional(),
    monoModelPattern: regex.optional(),
    /** Model names of A3 devices, when the trays do not tell. */
    a3Pattern: regex.optional(),
    /**
     * Model names that carry the rated speed, in pages a minute, as the first group that matches
     * (Kyocera's TASKalfa 6052ci prints 60): the meter plausibility check uses it.
     */
    speedPattern: regex.optional(),
    /**
     * The maker's black-and-white and colour counters count an A3 page as two A4 pages (Konica
     * Minolta): the reading's pages are those counters less the A3 pages once.
     */
    a3CountedTwice: z.boolean().optional(),
  })
  .strict();
export type VendorProfile = z.infer<typeof vendorProfileSchema>;

export const modelsPackSchema = z
  .object({
    schema: z.literal('pagewatch/models-pack@1'),
    /** Increases with every published pack; the server keeps the highest (an integer column: 2^31 is a 422, not a 500). */
    version: z.number().int().positive().max(INT_MAX),
    releasedAt: z.string().optional(),
    profiles: z.array(vendorProfileSchema).min(1),
  })
  .strict()
  .superRefine((pack, ctx) => {
    const ids = new Set<string>();
    for (const [i, p] of pack.profiles.entries()) {
      if (ids.has(p.id)) ctx.addIssue({ code: 'custom', path: ['profiles', i, 'id'], message: `duplicate id ${p.id}` });
      ids.add(p.id);
    }
    for (const [i, p] of pack.profiles.entries()) {
      if (p.extends !== undefined && !ids.has(p.extends)) {
        ctx.addIssue({ code: 'custom', path: ['profiles', i, 'extends'], message: `unknown profile ${p.extends}` });
      }
    }
    // An inheritance cycle would make profile resolution loop.
    const byId = new Map(pack.profiles.map((p) => [p.id, p]));
    for (const [i, p] of pack.profiles.entries()) {
      const seen = new Set<string>([p.id]);
      let parent = p.extends;
      while (parent !== undefined) {
        if (seen.has(parent)) {
          ctx.addIssue({ code: 'custom', path: ['profiles', i, 'extends'], message: `inheritance cycle at ${parent}` });
          break;
        }
        seen.add(parent);
        parent = byId.get(parent)?.extends;
      }
    }
  });
export type ModelsPack = z.infer<typeof modelsPackSchema>;

export type ParseModelsPackResult =
  | { ok: true; pack: ModelsPack }
  | { ok: false; problems: string[] };

/**
 * Checks a pack given as parsed JSON or as JSON text. Returns the pack, or every problem as
 * "path: message" lines, never throws.
 */
export function parseModelsPack(input: unknown): ParseModelsPackResult {
  let json = input;
  if (typeof input === 'string') {
    try {
      json = JSON.parse(input);
    } catch (error) {
      return { ok: false, problems: [`not JSON: ${(error as Error).message}`] };
    }
  }
  const result = modelsPackSchema.safeParse(json);
  if (result.success) return { ok: true, pack: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => {
      const path = issue.path.length > 0 ? issue.path.join('.') : '(pack)';
      return `${path}: ${issue.message}`;
    }),
  };
}
