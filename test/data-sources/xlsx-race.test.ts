import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import t from 'tap';

/**
 * exceljs's streaming reader can meet a worksheet before `xl/workbook.xml` and fail on its own model
 * ("Cannot read properties of undefined (reading 'sheets')", exceljs issue #3064): a race seen once in CI under
 * load, on test/fixtures/documents/sample.xlsx. The parser then reads the workbook through the workbook model.
 */
t.test('a workbook the streaming reader fails on (the exceljs race) is read through the workbook model', async (t) => {
  const buf = readFileSync(new URL('../fixtures/documents/sample.xlsx', import.meta.url));
  const { parseXlsx } = await import('../../src/ingest/parsers/xlsx.js');
  const expected = await parseXlsx(buf);
  t.ok(expected.blocks.length > 0, 'the fixture has rows');

  class RacingReader {
    async *[Symbol.asyncIterator]() {
      yield* [];
      throw new TypeError("Cannot read properties of undefined (reading 'sheets')");
    }
  }
  const racing = { ...ExcelJS, default: { ...ExcelJS, stream: { xlsx: { WorkbookReader: RacingReader } } } };
  const { parseXlsx: parseWithRace } = await t.mockImport<typeof import('../../src/ingest/parsers/xlsx.js')>('../../src/ingest/parsers/xlsx.js', {
    exceljs: racing.default,
  });
  const read = await parseWithRace(buf);
  t.same(read.blocks, expected.blocks, 'the same blocks as the streaming reader gives');
  t.equal(read.pageCount, expected.pageCount);

  class BrokenReader {
    async *[Symbol.asyncIterator]() {
      yield* [];
      throw new Error('invalid signature: 0x0');
    }
  }
  const { parseXlsx: parseBroken } = await t.mockImport<typeof import('../../src/ingest/parsers/xlsx.js')>('../../src/ingest/parsers/xlsx.js', {
    exceljs: { ...ExcelJS, stream: { xlsx: { WorkbookReader: BrokenReader } } },
  });
  await t.rejects(parseBroken(buf), /invalid signature/, 'any other error is the file’s');
});
