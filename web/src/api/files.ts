import { apiFetch } from './client';

/**
 * Opens a file of the API in a new tab (the original of a data source): the request needs the
 * `X-Workspace-Id` header, which a plain link cannot send, so the bytes are fetched and shown
 * from a blob URL. Text formats are shown as text; PDFs in the browser's viewer; other types
 * are downloaded with their file name. The tab is opened synchronously (popup blockers).
 */
export async function openApiFile(path: string, workspace: string, filename?: string): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const res = await apiFetch('GET', path, { workspace, headers: { Accept: '*/*' } });
    const type = (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim();
    const name = filename ?? /filename\*=UTF-8''([^;]+)/.exec(res.headers.get('content-disposition') ?? '')?.[1];
    const bytes = await res.blob();
    const viewable = type === 'application/pdf' || type.startsWith('text/') || type === 'application/json';
    const blob = new Blob([bytes], { type: type === 'application/pdf' ? type : viewable ? 'text/plain;charset=utf-8' : type });
    const href = URL.createObjectURL(blob);
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
    if (viewable && tab) {
      tab.location.href = href;
      return;
    }
    tab?.close();
    const a = document.createElement('a');
    a.href = href;
    a.download = name ? decodeURIComponent(name) : 'document';
    document.body.appendChild(a);
    a.click();
    a.remove();
  } catch (err) {
    tab?.close();
    throw err;
  }
}
