import { useQuery } from '@tanstack/react-query';
import { formatBytes } from '../ui/format';
import { get } from './client';
import type { ApiData } from './types';

/** What the service accepts (GET /data-sources/limits, docs/data-sources.md "Upload limits"). */
export type UploadLimits = ApiData<'getUploadLimits'>['limits'];

export function useUploadLimits() {
  return useQuery({
    queryKey: ['upload-limits'],
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => (await get<ApiData<'getUploadLimits'>>('/data-sources/limits')).limits,
  });
}

export const FORMATS_IN_WORDS = 'PDF, Word (.docx), Excel (.xlsx), HTML, Markdown, text or JSON';

/** The `accept` attribute of a file input: the listed extensions and any text. */
export function acceptOf(limits: UploadLimits | undefined): string {
  if (!limits) return '.pdf,.docx,.xlsx,.html,.htm,.md,.markdown,.txt,.json,text/*';
  return [...limits.formats.flatMap((f) => f.extensions), ...(limits.textByContent ? ['text/*'] : [])].join(',');
}

/** Whether the first bytes of a file read as text (UTF-8 or UTF-16 with a BOM, no NUL): the service's rule for other extensions. */
async function looksLikeText(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return true;
  if (head.includes(0)) return false;
  try {
    // `stream`: a character cut by the 4 KB boundary is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why a file would be refused, before a byte is sent (null when it may go): larger than the
 * service's limit, or neither of a parsed format's extension nor text. The service checks
 * everything again (content, encryption, archive limits); without the limits, nothing is checked here.
 */
export async function uploadProblem(file: File, limits: UploadLimits | undefined): Promise<string | null> {
  if (!limits) return null;
  if (file.size > limits.maxFileBytes) {
    return `${file.name} is ${formatBytes(file.size)}: files up to ${formatBytes(limits.maxFileBytes)} are accepted. It was not sent.`;
  }
  const dot = file.name.lastIndexOf('.');
  const ext = dot > 0 ? file.name.slice(dot).toLowerCase() : '';
  if (limits.formats.some((f) => f.extensions.includes(ext))) return null;
  if (limits.textByContent && (await looksLikeText(file))) return null;
  return `${file.name}: this type of file is not supported. Upload ${FORMATS_IN_WORDS}. It was not sent.`;
}
