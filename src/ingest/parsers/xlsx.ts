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

/**
 * XLSX with exceljs: each worksheet is a section (and a "page", numbered from 1); each
 * row is a block. When the first non-empty row is all text it is read as the header
 * row and later rows read `Header: value; ...`. Text beyond `maxChars` stops the reading
 * (TextLimitError) before the remaining rows are turned into text.
 */
export async function parseXlsx(buf: Buffer, opts: { maxChars?: number } = {}): Promise<ParsedDocument> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const blocks: Block[] = [];
  let sheetNo = 0;
  let chars = 0;
  wb.eachSheet((ws) => {
    sheetNo += 1;
    const page = sheetNo;
    let header: string[] | null = null;
    let first = true;
    ws.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      const width = Math.max(row.cellCount, header?.length ?? 0);
      for (let c = 1; c <= width; c++) cells.push(cellText(row.getCell(c)));
      if (cells.every((c) => !c)) return;
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
          return;
        }
      }
      const text = header
        ? cells
            .map((v, i) => (v ? (header![i] ? `${header![i]}: ${v}` : v) : ''))
            .filter(Boolean)
            .join('; ')
        : cells.filter(Boolean).join(' | ');
      if (text) {
        blocks.push({ text, headings: [ws.name], page });
        chars += text.length;
        if (opts.maxChars !== undefined && chars > opts.maxChars) throw new TextLimitError(opts.maxChars);
      }
    });
  });
  return {
    format: 'xlsx',
    title: wb.title?.trim() || undefined,
    date: parseDate(wb.modified) ?? parseDate(wb.created),
    pageCount: Math.max(1, sheetNo),
    blocks,
  };
}
