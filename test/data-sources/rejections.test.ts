import t from 'tap';
import yazl from 'yazl';
import { queryRows, sql } from '../../src/db/client.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { fixture, upload } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/** A .docx-looking zip whose `word/document.xml` expands to `size` bytes of zeros. */
function zipBomb(size: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'), '[Content_Types].xml');
    zip.addBuffer(Buffer.alloc(size), 'word/document.xml', { compress: true });
    zip.end();
    const parts: Buffer[] = [];
    zip.outputStream.on('data', (b: Buffer) => parts.push(b));
    zip.outputStream.on('end', () => resolve(Buffer.concat(parts)));
    zip.outputStream.on('error', reject);
  });
}

t.test('unusable files get a clear 4xx and nothing is stored', async (t) => {
  const base = testConfig();
  const ctx = await buildTestApp({ ingest: { ...base.ingest, maxFileBytes: 64 * 1024, maxFiles: 3, maxDecompressedBytes: 1024 * 1024 } });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const a = await createOrgAndWorkspace(app, owner, 'Vendor A');
  const bomb = await zipBomb(8 * 1024 * 1024);
  t.ok(bomb.length < 64 * 1024, `the bomb itself is small (${bomb.length} bytes)`);

  const cases: { name: string; files: Parameters<typeof upload>[2]; status: number; code: string; message: RegExp }[] = [
    {
      name: 'encrypted PDF',
      files: [{ filename: 'secret.pdf', content: fixture('encrypted.pdf') }],
      status: 422,
      code: 'ENCRYPTED_FILE',
      message: /secret\.pdf is encrypted or password-protected/,
    },
    {
      name: 'encrypted DOCX',
      files: [{ filename: 'secret.docx', content: fixture('encrypted.docx') }],
      status: 422,
      code: 'ENCRYPTED_FILE',
      message: /secret\.docx is encrypted/,
    },
    {
      name: 'encrypted XLSX',
      files: [{ filename: 'secret.xlsx', content: fixture('encrypted.xlsx') }],
      status: 422,
      code: 'ENCRYPTED_FILE',
      message: /secret\.xlsx is encrypted/,
    },
    {
      name: 'truncated PDF',
      files: [{ filename: 'broken.pdf', content: fixture('corrupt.pdf') }],
      status: 422,
      code: 'CORRUPT_FILE',
      message: /broken\.pdf could not be read/,
    },
    {
      name: 'truncated DOCX',
      files: [{ filename: 'broken.docx', content: fixture('corrupt.docx') }],
      status: 422,
      code: 'CORRUPT_FILE',
      message: /broken\.docx could not be read/,
    },
    {
      name: 'invalid JSON',
      files: [{ filename: 'data.json', content: '{"a": [1, 2', contentType: 'application/json' }],
      status: 422,
      code: 'CORRUPT_FILE',
      message: /invalid JSON/,
    },
    {
      name: 'zip bomb',
      files: [{ filename: 'bomb.docx', content: bomb }],
      status: 422,
      code: 'ARCHIVE_LIMIT_EXCEEDED',
      message: /bomb\.docx was rejected: it expands beyond the limit of 1 MB/,
    },
    {
      name: 'image',
      files: [{ filename: 'logo.png', content: fixture('image.png'), contentType: 'image/png' }],
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /logo\.png \(detected image\/png\)/,
    },
    {
      name: 'image disguised as PDF',
      files: [{ filename: 'scan.pdf', content: fixture('image.png'), contentType: 'application/pdf' }],
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /scan\.pdf/,
    },
    {
      name: 'text claiming to be a PDF',
      files: [{ filename: 'notes.pdf', content: 'just some text', contentType: 'application/pdf' }],
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /not a valid PDF/,
    },
    {
      name: 'binary garbage',
      files: [{ filename: 'blob.bin', content: Buffer.from([0, 159, 146, 150, 0, 1, 2, 255, 254]) }],
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /binary content of unknown type/,
    },
    {
      name: 'empty text',
      files: [{ filename: 'empty.txt', content: '   \n\n ', contentType: 'text/plain' }],
      status: 422,
      code: 'EMPTY_DOCUMENT',
      message: /empty\.txt contains no extractable text/,
    },
    {
      name: 'too large',
      files: [{ filename: 'big.txt', content: 'word '.repeat(20_000), contentType: 'text/plain' }],
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: /big\.txt exceeds the upload limit of 64 KB/,
    },
    {
      name: 'too many files',
      files: [1, 2, 3, 4].map((i) => ({ filename: `n${i}.txt`, content: `note ${i}` })),
      status: 400,
      code: 'VALIDATION_ERROR',
      message: /at most 3 files/,
    },
    { name: 'no file', files: [], status: 400, code: 'VALIDATION_ERROR', message: /at least one file/ },
    // One bad file rejects the whole upload: the good one is not kept either.
    {
      name: 'good + encrypted',
      files: [
        { filename: 'sample.md', content: fixture('sample.md') },
        { filename: 'secret.pdf', content: fixture('encrypted.pdf') },
      ],
      status: 422,
      code: 'ENCRYPTED_FILE',
      message: /secret\.pdf/,
    },
  ];
  for (const c of cases) {
    const res = await upload(app, a.headers, c.files, { name: c.name });
    t.equal(res.statusCode, c.status, `${c.name}: status`);
    const body = res.json();
    t.equal(body.status, 'error', `${c.name}: envelope`);
    t.equal(body.error?.code, c.code, `${c.name}: code`);
    t.match(body.message, c.message, `${c.name}: message`);
  }

  const list = await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: a.headers });
  t.equal(list.json().data.pagination.total, 0, 'no data source was created');
  for (const table of ['data_sources', 'data_source_files', 'documents']) {
    const [{ n }] = await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
    t.equal(n, 0, `nothing stored in ${table}`);
  }
  const [{ n }] = await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from chunks where workspace_id is not null`);
  t.equal(n, 0, 'no chunk stored');
});
