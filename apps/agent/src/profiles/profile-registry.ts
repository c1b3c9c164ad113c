import type { ModelsPack, TextSource, VendorProfile } from '@pagewatch/contracts/models-pack';

type ScalarCounter = NonNullable<VendorProfile['counters']>[number];
type CounterTable = NonNullable<VendorProfile['counterTables']>[number];
type RecordCounter = NonNullable<VendorProfile['recordCounters']>[number];
type RecordSupply = NonNullable<VendorProfile['recordSupplies']>[number];
type LevelCode = NonNullable<VendorProfile['supplyQuirks']>['levelCodes'][number];

/** A profile with its inheritance applied and its patterns compiled: what the readers use. */
export type ResolvedProfile = {
  id: string;
  /** Null for the generic profile: no vendor was recognised. */
  vendor: string | null;
  model: TextSource[];
  serialNumber: TextSource[];
  firmware: TextSource[];
  hostName: TextSource[];
  counters: ScalarCounter[];
  counterTables: CounterTable[];
  recordCounters: RecordCounter[];
  recordSupplies: RecordSupply[];
  levelCodes: LevelCode[];
  levelCodesExceptModel: RegExp | null;
  fallbackLevelColumn: string | null;
  fallbackDescriptionColumn: string | null;
  partNumberPattern: RegExp | null;
  mfpPattern: RegExp | null;
  a3Pattern: RegExp | null;
  colorModelPattern: RegExp | null;
  monoModelPattern: RegExp | null;
  speedPattern: RegExp | null;
  a3CountedTwice: boolean;
  notPrinterPattern: RegExp | null;
};

export type ProfileMatch = { profile: ResolvedProfile; score: number; matched: boolean };

/** The id of the profile every other one falls back to, and the one used when none matches. */
export const GENERIC_PROFILE_ID = 'generic';

const ENTERPRISES = '1.3.6.1.4.1.';

/** Scores: the text is the strongest signal (OEMs reuse the maker's sysObjectID). */
const SCORE_DESCR = 100;
const SCORE_PREFIX = 50;
const SCORE_ENTERPRISE = 10;

/** The enterprise number of an OID under 1.3.6.1.4.1 (NaN for any other). */
const enterpriseOf = (oid: string): number => (oid.startsWith(ENTERPRISES) ? Number(oid.slice(ENTERPRISES.length).split('.')[0]) : NaN);

const re = (source: string | undefined): RegExp | null => (source ? new RegExp(source, 'i') : null);

/**
 * Vendor profiles of one models pack. Matching and inheritance are data-driven: a new vendor is
 * a pack entry, never a code branch.
 */
export class ProfileRegistry {
  readonly version: number;
  private readonly raw = new Map<string, VendorProfile>();
  private readonly resolved = new Map<string, ResolvedProfile>();
  private readonly matchers: Array<{ id: string; descr: RegExp[]; prefixes: string[]; enterprises: Set<number>; prefixEnterprises: Set<number> }>;

  constructor(pack: ModelsPack) {
    this.version = pack.version;
    for (const p of pack.profiles) this.raw.set(p.id, p);
    this.matchers = pack.profiles
      .filter((p) => p.id !== GENERIC_PROFILE_ID)
      .map((p) => ({
        id: p.id,
        descr: p.match.sysDescrPatterns.map((s) => new RegExp(s, 'i')),
        prefixes: p.match.sysObjectIdPrefixes,
        enterprises: new Set(p.match.enterprises),
        prefixEnterprises: new Set(p.match.sysObjectIdPrefixes.map(enterpriseOf).filter((n) => !Number.isNaN(n))),
      }));
  }

  get ids(): string[] {
    return [...this.raw.keys()];
  }

  profile(id: string): ResolvedProfile {
    const cached = this.resolved.get(id);
    if (cached) return cached;
    const made = this.resolve(id);
    this.resolved.set(id, made);
    return made;
  }

  generic(): ResolvedProfile {
    return this.profile(GENERIC_PROFILE_ID);
  }

  /** Best profile for a device, or the generic one (`matched: false`). */
  match(sysObjectID: string | null, sysDescr: string | null): ProfileMatch {
    const oid = (sysObjectID ?? '').replace(/^\./, '');
    const enterprise = enterpriseOf(oid);
    const descr = (sysDescr ?? '').trim();
    let best: { id: string; score: number } | null = null;
    for (const m of this.matchers) {
      let score = 0;
      if (descr && m.descr.some((r) => r.test(descr))) score += SCORE_DESCR;
      const prefix = m.prefixes.filter((p) => oid === p || oid.startsWith(p + '.')).sort((a, b) => b.length - a.length)[0];
      if (prefix) score += SCORE_PREFIX + prefix.split('.').length;
      // Without a sysDescr the enterprise number is all there is: a vendor known by its prefixes
      // alone (HP's 11.2.3.9) is known by its number too. With one, a text of another maker's
      // product (an HP switch) keeps a printer vendor's number from naming it.
      if (m.enterprises.has(enterprise) || (!descr && m.prefixEnterprises.has(enterprise))) score += SCORE_ENTERPRISE;
      if (score > 0 && (!best || score > best.score)) best = { id: m.id, score };
    }
    if (!best) return { profile: this.generic(), score: 0, matched: false };
    return { profile: this.profile(best.id), score: best.score, matched: true };
  }

  /** Own values first, then the parent's, then the generic profile's. */
  private chain(id: string): VendorProfile[] {
    const chain: VendorProfile[] = [];
    let current: string | undefined = id;
    while (current !== undefined && chain.length < 10) {
      const p = this.raw.get(current);
      if (!p) break;
      chain.push(p);
      current = p.extends;
    }
    const generic = this.raw.get(GENERIC_PROFILE_ID);
    if (generic && !chain.includes(generic)) chain.push(generic);
    return chain;
  }

  private resolve(id: string): ResolvedProfile {
    const chain = this.chain(id);
    const own = chain[0];
    const first = <K extends keyof VendorProfile>(key: K): VendorProfile[K] | undefined =>
      chain.find((p) => p[key] !== undefined)?.[key];
    const all = <T>(pick: (p: VendorProfile) => T[] | undefined): T[] => chain.flatMap((p) => pick(p) ?? []);
    const quirks = chain.map((p) => p.supplyQuirks).filter((q) => q !== undefined);
    return {
      id,
      vendor: own && own.id !== GENERIC_PROFILE_ID ? own.vendor : null,
      model: all((p) => p.model),
      serialNumber: all((p) => p.serialNumber),
      firmware: all((p) => p.firmware),
      hostName: all((p) => p.hostName),
      counters: all((p) => p.counters),
      counterTables: all((p) => p.counterTables),
      recordCounters: all((p) => p.recordCounters),
      recordSupplies: all((p) => p.recordSupplies),
      levelCodes: quirks.find((q) => q.levelCodes.length > 0)?.levelCodes ?? [],
      levelCodesExceptModel: re(quirks.find((q) => q.levelCodesExceptModel)?.levelCodesExceptModel),
      fallbackLevelColumn: quirks.find((q) => q.fallbackLevelColumn)?.fallbackLevelColumn ?? null,
      fallbackDescriptionColumn: quirks.find((q) => q.fallbackDescriptionColumn)?.fallbackDescriptionColumn ?? null,
      partNumberPattern: re(first('partNumberPattern')),
      mfpPattern: re(first('mfpPattern')),
      a3Pattern: re(first('a3Pattern')),
      colorModelPattern: re(first('colorModelPattern')),
      monoModelPattern: re(first('monoModelPattern')),
      speedPattern: re(first('speedPattern')),
      a3CountedTwice: first('a3CountedTwice') ?? false,
      notPrinterPattern: re(chain.find((p) => p.match.notPrinterPattern)?.match.notPrinterPattern),
    };
  }
}
