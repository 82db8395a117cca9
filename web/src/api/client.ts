/**
 * The one way the dashboard talks to the service (docs/dashboard.md, "API client").
 *
 * - Same-origin requests under /api/v1; the session is the HttpOnly `accessToken` /
 *   `refreshToken` cookies (nothing in localStorage).
 * - Every request carries `X-Requested-With`, which the service requires on
 *   cookie-authenticated writes (CSRF, docs/auth.md).
 * - A 401 triggers one `POST /auth/refresh` (shared by concurrent requests) and one retry;
 *   when the refresh fails the session is over and listeners of `onSessionExpired` hear it.
 * - Every error becomes an `ApiError` carrying the envelope's message, code and details.
 * - Every POST (a submit) carries a new `Idempotency-Key`, the same on its retries: after a
 *   401 refresh, and once after a 503 (the database away for a moment), so a retried submit
 *   is never carried out twice (docs/api-conventions.md, "Retries").
 */

export const API = '/api/v1';
export const CSRF_HEADER = 'X-Requested-With';
export const CSRF_VALUE = 'dora-dashboard';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** A key for one submit (the service keeps its first response for 24 hours). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}

/** How long a submit waits before its one retry after a 503 (at most; the service says 2 s). */
const RETRY_503_MAX_MS = 3000;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: string[];
  readonly requestId: string | null;
  constructor(status: number, message: string, code = 'ERROR', details: string[] = [], requestId: string | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.requestId = requestId;
  }
}

export const NETWORK_ERROR_MESSAGE = 'The service could not be reached. Check your connection and try again.';

export interface RequestOptions {
  /** JSON body (objects) or a ready body (FormData, Blob). */
  body?: unknown;
  /** Vendor workspace (id or slug) for workspace-scoped routes: sent as `X-Workspace-Id`. */
  workspace?: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Do not try to refresh the session on 401 (the auth endpoints themselves). */
  noRefresh?: boolean;
}

type Listener = () => void;
const expiredListeners = new Set<Listener>();
/** Called when the session cannot be renewed (refresh refused): the app shows the sign-in page. */
export function onSessionExpired(fn: Listener): () => void {
  expiredListeners.add(fn);
  return () => expiredListeners.delete(fn);
}

let refreshing: Promise<boolean> | null = null;
/** One refresh at a time; concurrent 401s wait for the same one. Resolves whether it worked. */
export function refreshSession(): Promise<boolean> {
  refreshing ??= fetch(`${API}/auth/refresh`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { [CSRF_HEADER]: CSRF_VALUE, Accept: 'application/json' },
  })
    .then((r) => r.ok)
    .catch(() => false)
    .finally(() => {
      // Let the next expiry start a new refresh.
      setTimeout(() => (refreshing = null), 0);
    });
  return refreshing;
}

export function url(path: string, query?: RequestOptions['query']): string {
  const u = path.startsWith('/api/') ? path : `${API}${path}`;
  if (!query) return u;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${u}?${s}` : u;
}

export function headersFor(opts: Pick<RequestOptions, 'workspace' | 'headers'> = {}): Record<string, string> {
  const h: Record<string, string> = { [CSRF_HEADER]: CSRF_VALUE, ...opts.headers };
  if (opts.workspace) h['X-Workspace-Id'] = opts.workspace;
  return h;
}

/** Turns a failed response into an ApiError with the service's own message. */
export async function errorOf(res: Response): Promise<ApiError> {
  const requestId = res.headers.get('x-request-id');
  let body: { message?: unknown; error?: { code?: unknown; details?: unknown } } | null = null;
  try {
    body = await res.json();
  } catch {
    // not JSON (a proxy's error page): fall back to the status line
  }
  const message = typeof body?.message === 'string' && body.message ? body.message : `Request failed: ${res.status} ${res.statusText || ''}`.trim();
  const code = typeof body?.error?.code === 'string' ? body.error.code : res.status === 401 ? 'UNAUTHORIZED' : 'ERROR';
  const details = Array.isArray(body?.error?.details) ? body!.error!.details.filter((d): d is string => typeof d === 'string') : [];
  return new ApiError(res.status, message, code, details, requestId);
}

/**
 * A fetch against the API with the CSRF header, the workspace header and refresh-on-401.
 * Returns the raw Response when it is OK (streams, downloads); throws ApiError otherwise.
 */
export async function apiFetch(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
  const headers = headersFor(opts);
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData || opts.body instanceof Blob || typeof opts.body === 'string') {
    body = opts.body;
  } else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  if (!headers.Accept) headers.Accept = 'application/json';
  if (method === 'POST' && !headers[IDEMPOTENCY_HEADER]) headers[IDEMPOTENCY_HEADER] = newIdempotencyKey();
  const send = () => fetch(url(path, opts.query), { method, headers, body, credentials: 'same-origin', signal: opts.signal });
  let res: Response;
  try {
    res = await send();
    if (res.status === 401 && !opts.noRefresh) {
      if (await refreshSession()) {
        res = await send();
      }
      if (res.status === 401) expiredListeners.forEach((fn) => fn());
    }
    if (res.status === 503 && method === 'POST') {
      // The database was away for a moment: the same submit once more, with the same key.
      const wait = Math.min(RETRY_503_MAX_MS, 1000 * (Number(res.headers.get('retry-after')) || 2));
      await new Promise((r) => setTimeout(r, wait));
      if (!opts.signal?.aborted) res = await send();
    }
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE, 'NETWORK_ERROR');
  }
  if (!res.ok) throw await errorOf(res);
  return res;
}

/** A JSON request; resolves with the envelope's `data` (and `message`). */
export async function api<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await apiFetch(method, path, opts);
  if (res.status === 204) return undefined as T;
  const env = (await res.json()) as { status: string; message?: string; data?: T };
  return (env.data ?? ({} as T)) as T;
}

/** Same as `api`, with the envelope's message too (shown after actions such as "Password changed"). */
export async function apiWithMessage<T>(method: string, path: string, opts: RequestOptions = {}): Promise<{ data: T; message: string }> {
  const res = await apiFetch(method, path, opts);
  const env = (await res.json()) as { message?: string; data?: T };
  return { data: (env.data ?? {}) as T, message: env.message ?? '' };
}

export const get = <T>(path: string, opts?: RequestOptions) => api<T>('GET', path, opts);
export const post = <T>(path: string, body?: unknown, opts?: RequestOptions) => api<T>('POST', path, { ...opts, body });
export const patch = <T>(path: string, body?: unknown, opts?: RequestOptions) => api<T>('PATCH', path, { ...opts, body });
export const del = <T>(path: string, opts?: RequestOptions) => api<T>('DELETE', path, opts);

/** A readable message for any error (ApiError or not), never empty. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error && err.message) return err.message;
  return 'Something went wrong. Please try again.';
}
