import { REPORT_CODES, REPORTS, reportById, reportColumns, reportColumnTypes, reportFilterSchema, type ReportCode, type ReportFilter, type ReportFormat, type ReportType, type FileHeaders, type AvailabilityDay, type PagesByMonth } from '@pagewatch/contracts/reports';
import type { Db } from '../../db/client.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import { AppError } from '../../lib/app-error.ts';
import type { PassThrough } from 'node:stream';
import { csvStream } from '../../lib/csv.ts';
import type { ExportGate } from '../../lib/export-gate.ts';
import type { RowFeed } from '../../lib/row-pages.ts';
import { xlsxStream } from '../../lib/xlsx.ts';
import { FILE_STYLES, fileColumns, type FileColumn } from '../../lib/file-format.ts';
import { reportFileRow } from './report-files.ts';
import { issueFields } from '../../lib/error-body.ts';
import type { Caller } from '../../lib/caller.ts';
import { descendantIds } from '../locations/index.ts';
import type { ListQuery } from '@pagewatch/contracts/list';
import { runListJson } from '../../lib/list-run.ts';
import { availabilityByDay, installedCondition, isBuilt, reportFeed, reportJson, type BuiltReport } from './reports.repository.ts';
import { pagesByLocationMonth } from './counter-reports.repository.ts';
import type { ReportQuery } from './report-query.repository.ts';
import { installedConsumablesListSql } from './reports.list.ts';

const DAY = 86_400_000;
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A report's chosen columns with their types (typed cells, dates and numbers as the language writes them) and headers in `lang`. */
export function reportFileColumns(code: ReportCode, columns: string[], lang: Lang, headers: FileHeaders = 'titles'): FileColumn[] {
  const types = new Map(reportColumnTypes(code).map((c) => [c.key, c]));
  return fileColumns(columns.map((key) => ({ key, type: types.get(key)?.type ?? 'string', day: types.get(key)?.day ?? false })), lang, headers);
}

/** The reports (grant MNU_REPORTS): their types, their rows for a filter, their files. */
export class ReportsService {
  private readonly db: Db;
  private readonly kind: 'pglite' | 'postgres';
  private readonly gate: ExportGate;
  constructor(db: Db, kind: 'pglite' | 'postgres', gate: ExportGate) {
    this.db = db;
    this.kind = kind;
    this.gate = gate;
  }

  /** The report types that are built, named in the caller's language. */
  types(lang: Lang): ReportType[] {
    return REPORT_CODES.filter(isBuilt).map((code) => ({
      id: REPORTS[code].id, code, name: translate(lang, `reports.type.${code}`), period: REPORTS[code].period, formats: [...REPORTS[code].formats], columns: reportColumns(code),
    }));
  }

  /** The locations a filter reads: those asked for (each the caller's) with those below them, else the caller's. */
  private async area(caller: Caller, locations: number[]): Promise<ReadonlySet<number> | null> {
    if (!locations.length) return caller.allLocations ? null : caller.scope;
    if (locations.some((l) => !caller.scope.has(l))) throw new AppError('OUT_OF_SCOPE');
    return new Set(await descendantIds(this.db, locations));
  }

  private async query(caller: Caller, code: ReportCode, input: unknown): Promise<{ filter: ReportFilter; q: ReportQuery }> {
    const parsed = reportFilterSchema.safeParse(input);
    // The download's filter is JSON of its own, not checked by the route: its problems are the caller's.
    if (!parsed.success) throw new AppError('VALIDATION', { fields: issueFields(parsed.error.issues) });
    const filter = parsed.data;
    const period = REPORTS[code].period;
    if (period && (!filter.from || !filter.to)) {
      throw new AppError('VALIDATION', { fields: [!filter.from ? 'from' : 'to'].map((field) => ({ field, key: 'general.mandatory' })) });
    }
    return {
      filter,
      q: {
        area: await this.area(caller, filter.location),
        printerType: filter.printerType,
        colorType: filter.colorType,
        paperFormat: filter.paperFormat,
        // Days from and to, both included, in UTC.
        ...(period ? { from: new Date(`${filter.from}T00:00:00Z`), to: new Date(Date.parse(`${filter.to}T00:00:00Z`) + DAY) } : {}),
      },
    };
  }

  private built(code: string): BuiltReport {
    if (!isBuilt(code)) throw new AppError('NOT_FOUND');
    return code;
  }

  /** A report's rows as one JSON array text (the data calls send it as it is). */
  async json(caller: Caller, code: BuiltReport, input: unknown): Promise<string> {
    const { q } = await this.query(caller, code, input);
    return reportJson(this.db, code, q);
  }

  /**
   * A page of the installed consumables grid (the list protocol: page, sort, filters) under the
   * report's filter: the screen of a fleet's 300,000 supplies reads them a page at a time.
   */
  async installedPage(caller: Caller, input: unknown, list: ListQuery): Promise<string> {
    const { q } = await this.query(caller, 'INSTALLED_CONSUMABLES', input);
    return runListJson(this.db, installedConsumablesListSql, list, caller, installedCondition(q));
  }

  /** A report's chart: availability per day, or pages per location and month. */
  chart(caller: Caller, code: 'DEVICE_AVAILABILITY', input: unknown): Promise<AvailabilityDay[]>;
  chart(caller: Caller, code: 'DEVICE_COUNTERS', input: unknown): Promise<PagesByMonth[]>;
  async chart(caller: Caller, code: 'DEVICE_AVAILABILITY' | 'DEVICE_COUNTERS', input: unknown): Promise<AvailabilityDay[] | PagesByMonth[]> {
    const { q } = await this.query(caller, code, input);
    return code === 'DEVICE_AVAILABILITY' ? availabilityByDay(this.db, q) : pagesByLocationMonth(this.db, q);
  }

  /**
   * A report as a file, written as it is read (CSV or XLSX), its columns those the filter names
   * (in its order) or all. It takes a place in the exports' gate at once (refused with
   * EXPORTS_BUSY when the queue is full) and starts reading when its turn comes; `ahead` says how
   * many were before it (0: it runs now). The place is freed when the file is written or closed.
   * The file is written in the caller's language (headers, separator, dates: issue 43); `headers`
   * 'codes' heads its columns with their attachment names instead, for programs that read it.
   */
  async file(caller: Caller, reportId: number, format: string, input: unknown, lang: Lang, headers: FileHeaders = 'titles'): Promise<{ filename: string; contentType: string; body: PassThrough; ahead: number }> {
    const code = this.built(reportById(reportId) ?? '');
    if (!(REPORTS[code].formats as readonly string[]).includes(format)) throw new AppError('VALIDATION', { fields: [{ field: 'formatCode', key: 'general.badValue' }] });
    const { filter, q } = await this.query(caller, code, input);
    const columns = this.columns(code, filter.columns);
    const name = translate(lang, `reports.type.${code}`);
    const filename = `${name}.${(format as ReportFormat).toLowerCase()}`;
    const ticket = this.gate.enter();
    const shape = reportFileRow(code, lang, headers);
    const rows = reportFeed(this.db, this.kind, code, q);
    let gone!: () => void;
    const closed = new Promise<'closed'>((resolve) => (gone = () => resolve('closed')));
    const feed: RowFeed = async (emit) => {
      if ((await Promise.race([ticket.ready, closed])) === 'closed') throw new Error('the download was closed while it waited');
      await rows((page) => emit(page.map(shape)));
    };
    const cols = reportFileColumns(code, columns, lang, headers);
    const body = format === 'XLSX' ? xlsxStream(name, cols, feed, FILE_STYLES[lang]) : csvStream(cols, feed, FILE_STYLES[lang]);
    body.once('close', () => {
      ticket.release();
      gone();
    });
    return { filename, contentType: format === 'XLSX' ? XLSX_TYPE : 'text/csv; charset=utf-8', body, ahead: ticket.ahead };
  }

  private columns(code: ReportCode, asked: string[] | undefined): string[] {
    const all = reportColumns(code);
    if (!asked?.length) return all;
    const unknown = asked.filter((c) => !all.includes(c));
    if (unknown.length) throw new AppError('VALIDATION', { fields: [{ field: 'columns', key: 'reports.badColumns', params: { columns: unknown.join(', ').slice(0, 200) } }] });
    return asked;
  }
}
