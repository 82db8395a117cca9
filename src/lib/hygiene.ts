/**
 * Text the service refuses anywhere in a request (docs/api-conventions.md): U+0000 (NUL),
 * which PostgreSQL cannot store in text, and unpaired UTF-16 surrogates, which cannot be
 * encoded as UTF-8 and would be stored as U+FFFD. One check for every route: body
 * fields and their keys, path parameters, query parameters, the workspace header,
 * multipart field values and file names.
 */
export const BAD_STRING = 'must not contain NUL (U+0000) or unpaired surrogate characters';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The problem with one string, or null when it is clean. */
export function badStringProblem(s: string): string | null {
  return s.includes('\u0000') || LONE_SURROGATE.test(s) ? BAD_STRING : null;
}

/**
 * The path (`documents.0.title`) of the first string, or object key, in `value` that
 * holds a NUL or an unpaired surrogate; null when there is none. Walks iteratively, so
 * deep nesting cannot exhaust the stack.
 */
export function findBadString(value: unknown, root = ''): string | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (badStringProblem(v)) return path || 'body';
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], path ? `${path}.${i}` : String(i)]);
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, x] of Object.entries(v)) {
        const p = path ? `${path}.${k}` : k;
        if (badStringProblem(k)) return `${path ? `${path}.` : ''}${JSON.stringify(k).slice(1, -1)} (a key)`;
        stack.push([x, p]);
      }
    }
  }
  return null;
}
