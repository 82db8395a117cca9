import { apiFetch, type RequestOptions } from './client';

/**
 * Downloads a file the API serves as an attachment (register workbook, report package, Word
 * report): fetched through the API client (CSRF header, workspace header, refresh on 401, the
 * API's error message on failure), saved under the name of its Content-Disposition.
 * Resolves with the file name and size once the browser has been handed the file.
 */
export async function downloadApiFile(
  path: string,
  opts: Pick<RequestOptions, 'workspace' | 'query'> = {},
  fallbackName = 'download',
): Promise<{ filename: string; bytes: number }> {
  const res = await apiFetch('GET', path, { ...opts, headers: { Accept: '*/*' } });
  const cd = res.headers.get('content-disposition') ?? '';
  const name = /filename\*=UTF-8''([^;]+)/i.exec(cd)?.[1] ?? /filename="?([^";]+)"?/i.exec(cd)?.[1];
  const filename = name ? decodeURIComponent(name) : fallbackName;
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return { filename, bytes: blob.size };
}
