import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Block } from '../../domain/blocks.js';
import { TextLimitError, type ParsedDocument } from '../types.js';
import { parseDate } from './html.js';

const cellText = (c: ExcelJS.Cell): string => {
  try {
    return (c.text ?? '').replace(/\s+/g, ' ').trim();
  } catch {
    return String(c.value ?? '').trim();
  }
};

const tag = (xml: string, name: string) => {
  const m = new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`).exec(xml);
  return m?.[1]?.trim() || undefined;
};

/**
 * XLSX with exceljs's streaming reader: each worksheet is a section (and a "page",
 * numbered from 1); each row is a block. When the first non-empty row is all text it is
 * read as the header row and later rows read `Header: value; ...`. Text beyond `maxChars`
 * stops the reading (TextLimitError) before the remaining rows are turned into text.
 *
 * Streaming, not the workbook model: rows are read one at a time and dropped, so memory
 * holds the shared strings and the blocks, not an object per cell of every sheet (a
 * workbook of 150,000 shared strings took 190 MB and 0.4 s of one thread through the
 * model: docs/reliability.md). Styles are read so that dates and formatted numbers keep
 * their text. Title and date come from the core properties (`docProps/core.xml`).
 */
export async function parseXlsx(buf: Buffer, opts: { maxChars?: number; coreXml?: Buffer } = {}): Promise<ParsedDocument> {
  let read: { blocks: Block[]; sheets: number };
  try {
    read = await readSheets(streamedSheets(buf), opts.maxChars);
  } catch (err) {
    // exceljs's streaming reader can meet a worksheet before `xl/workbook.xml` and fail on its own model
    // ("Cannot read properties of undefined (reading 'sheets')", exceljs issue #3064): a race seen under load. The
    // workbook is then read again through the workbook model, which reads the whole archive first.
    if (!(err instanceof TypeError && /reading 'sheets'/.test(err.message))) throw err;
    read = await readSheets(loadedSheets(buf), opts.maxChars);
  }
  const { blocks, sheets: sheetNo } = read;
  const core = opts.coreXml?.toString('utf8') ?? '';
  return {
    format: 'xlsx',
    title: tag(core, 'dc:title'),
    date: parseDate(tag(core, 'dcterms:modified')) ?? parseDate(tag(core, 'dcterms:created')),
    pageCount: Math.max(1, sheetNo),
    blocks,
  };
}

type Sheet = { name: string; rows: AsyncIterable<ExcelJS.Row> | Iterable<ExcelJS.Row> };

/** The worksheets as exceljs's streaming reader gives them, one row at a time. */
async function* streamedSheets(buf: Buffer): AsyncGenerator<Sheet> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([buf]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let n = 0;
  for await (const ws of reader) {
    n += 1;
    yield { name: (ws as unknown as { name?: string }).name ?? `Sheet${n}`, rows: ws as unknown as AsyncIterable<ExcelJS.Row> };
  }
}

/** The worksheets through the workbook model (the whole archive read first): the fallback of the streaming reader. */
async function* loadedSheets(buf: Buffer): AsyncGenerator<Sheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  for (const ws of wb.worksheets) {
    const rows: ExcelJS.Row[] = [];
    ws.eachRow((row) => rows.push(row));
    yield { name: ws.name, rows };
  }
}

/** Each worksheet a section and a page, each row a block (`Header: value; …` under a header row of text). */
async function readSheets(sheets: AsyncIterable<Sheet>, maxChars?: number): Promise<{ blocks: Block[]; sheets: number }> {
  const blocks: Block[] = [];
  let sheetNo = 0;
  let chars = 0;
  for await (const ws of sheets) {
    sheetNo += 1;
    const page = sheetNo;
    const name = ws.name;
    let header: string[] | null = null;
    let first = true;
    for await (const row of ws.rows) {
      const cells: string[] = [];
      const width = Math.max(row.cellCount, header?.length ?? 0);
      for (let c = 1; c <= width; c++) cells.push(cellText(row.getCell(c)));
      if (cells.every((c) => !c)) continue;
      if (first) {
        first = false;
        const filled = cells.filter(Boolean);
        const allText =
          row.values &&
          Array.isArray(row.values) &&
          (row.values as unknown[])
            .slice(1)
            .every((v) => v === null || v === undefined || typeof v === 'string' || (typeof v === 'object' && v !== null && 'richText' in v));
        if (filled.length >= 2 && allText) {
          header = cells;
          continue;
        }
      }
      const text = header
        ? cells
            .map((v, i) => (v ? (header![i] ? `${header![i]}: ${v}` : v) : ''))
            .filter(Boolean)
            .join('; ')
        : cells.filter(Boolean).join(' | ');
      if (text) {
        blocks.push({ text, headings: [name], page });
        chars += text.length;
        if (maxChars !== undefined && chars > maxChars) throw new TextLimitError(maxChars);
      }
    }
  }
  return { blocks, sheets: sheetNo };
}
