import type { ApiError as ApiErrorBody } from '@cohort/shared/errors';

/** The server answered with an error status; `message` (and `field` for 400s) come from its JSON body. */
export class ApiError extends Error {
  readonly status: number;
  readonly field: string | undefined;
  /** False when the answer had no `{message}` body (a proxy's error page): `message` is then the status text. */
  readonly hasServerMessage: boolean;

  constructor(status: number, message: string, field?: string, hasServerMessage = true) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.field = field;
    this.hasServerMessage = hasServerMessage;
  }
}

/** The request never got an answer (offline, server down, aborted). The spec words these differently. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('Network request failed', { cause });
    this.name = 'NetworkError';
  }
}

// A hand-written check instead of the shared zod schema keeps zod out of the landing page's bundle.
function isErrorBody(data: unknown): data is ApiErrorBody {
  if (typeof data !== 'object' || data === null) return false;
  const { message, field } = data as Record<string, unknown>;
  return typeof message === 'string' && (field === undefined || typeof field === 'string');
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function request<T>(
  method: Method,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
  keepalive = false,
): Promise<T> {
  const hasBody = method !== 'GET';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      // The session cookie is the identity (same origin); the server requires JSON on state changes,
      // and Fastify refuses an empty JSON body, so bodiless writes send `{}`.
      credentials: 'same-origin',
      headers: hasBody
        ? { accept: 'application/json', 'content-type': 'application/json' }
        : { accept: 'application/json' },
      body: hasBody ? JSON.stringify(body ?? {}) : undefined,
      signal,
      keepalive,
    });
  } catch (cause) {
    throw new NetworkError(cause);
  }

  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }

  if (!response.ok) {
    if (isErrorBody(data)) throw new ApiError(response.status, data.message, data.field);
    throw new ApiError(
      response.status,
      response.statusText || `Request failed with status ${response.status}`,
      undefined,
      false,
    );
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => request<T>('GET', path, undefined, signal),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body),
  /** `keepalive` lets a small write outlive the page (a read mark sent as the tab closes or reloads). */
  put: <T>(path: string, body?: unknown, opts?: { keepalive?: boolean }) =>
    request<T>('PUT', path, body, undefined, opts?.keepalive),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, body),
};
