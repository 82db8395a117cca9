import mammoth from 'mammoth';
import type { ParsedDocument } from '../types.js';
import { htmlToBlocks, parseDate } from './html.js';

const tag = (xml: string, name: string) => {
  const m = new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`).exec(xml);
  return m?.[1]?.trim() || undefined;
};

/**
 * DOCX with mammoth: the document becomes semantic HTML (Heading 1-6 styles as h1-h6,
 * lists, tables) and the HTML walker turns it into blocks. Title and date come from
 * the core properties (`docProps/core.xml`) when present.
 */
export async function parseDocx(buf: Buffer, coreXml?: Buffer): Promise<ParsedDocument> {
  const { value: html } = await mammoth.convertToHtml({ buffer: buf });
  const { blocks, firstHeading } = htmlToBlocks(html);
  const core = coreXml?.toString('utf8') ?? '';
  return {
    format: 'docx',
    title: tag(core, 'dc:title') ?? firstHeading,
    date: parseDate(tag(core, 'dcterms:modified')) ?? parseDate(tag(core, 'dcterms:created')),
    pageCount: 1,
    blocks,
  };
}
