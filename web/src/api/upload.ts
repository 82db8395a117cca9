import { ApiError, CSRF_HEADER, CSRF_VALUE, IDEMPOTENCY_HEADER, NETWORK_ERROR_MESSAGE, newIdempotencyKey, refreshSession, url } from './client';

/**
 * A multipart upload with progress (fetch reports none): XMLHttpRequest's upload events.
 * Same rules as the API client: CSRF header, `X-Workspace-Id`, one refresh and retry on 401,
 * errors as ApiError with the service's message.
 */
export function uploadWithProgress<T>(opts: {
  path: string;
  workspace: string;
  form: FormData;
  onProgress: (fraction: number) => void;
  signal?: AbortSignal;
}): Promise<T> {
  // One key for this submit, the same on its retry (docs/api-conventions.md, "Retries").
  const key = newIdempotencyKey();
  const once = () =>
    new Promise<{ status: number; body: unknown; requestId: string | null }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', url(opts.path));
      xhr.setRequestHeader(CSRF_HEADER, CSRF_VALUE);
      xhr.setRequestHeader('X-Workspace-Id', opts.workspace);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.setRequestHeader(IDEMPOTENCY_HEADER, key);
      xhr.responseType = 'text';
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) opts.onProgress(e.loaded / e.total);
      };
      xhr.onload = () => {
        let body: unknown = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          // not JSON
        }
        resolve({ status: xhr.status, body, requestId: xhr.getResponseHeader('x-request-id') });
      };
      xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE, 'NETWORK_ERROR'));
      xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
      opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(opts.form);
    });
  return (async () => {
    let r = await once();
    if (r.status === 401 && (await refreshSession())) {
      opts.onProgress(0);
      r = await once();
    }
    const env = r.body as { status?: string; message?: string; data?: T; error?: { code?: string; details?: string[] } } | null;
    if (r.status >= 200 && r.status < 300 && env) return env.data as T;
    throw new ApiError(r.status, env?.message || `Upload failed: ${r.status}`, env?.error?.code ?? 'ERROR', env?.error?.details ?? [], r.requestId);
  })();
}
