// The page's one way to the server: JSON reads and changes on its own origin (the browser adds the
// session cookie and, on a change, the Origin the server checks), and the event stream that says
// when to read again. The page never sees the login secret nor the cookie.
import { useEffect, useState } from 'preact/hooks';

export const API = '/__dashboard/api';

/** A read or a change the server refused: its status and its message. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(`${API}${path}`, { ...init, credentials: 'same-origin', cache: 'no-store' });
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) throw new Refusal(response.status, body.error ?? `HTTP ${response.status}`);
  return body as T;
}

export const read = <T>(path: string): Promise<T> => call<T>(path);

/** A change: a POST (or DELETE) with a JSON body. */
export const change = <T>(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> =>
  call<T>(path, body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: Refusal | undefined;
}

/** `path` read now, and again at every `version` (a change the event stream announced); a late answer never overwrites a newer one. */
export function useData<T>(path: string, version: number): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: undefined, error: undefined });
  useEffect(() => {
    let current = true;
    read<T>(path).then(
      (data) => current && setState({ data, error: undefined }),
      (error: unknown) => current && setState((before) => ({ data: before.data, error: error instanceof Refusal ? error : new Refusal(0, String(error)) })),
    );
    return () => {
      current = false;
    };
  }, [path, version]);
  return state;
}

/** Forgets this browser's login (the cookie, which the page cannot read, is cleared by the server). */
export async function signOut(): Promise<void> {
  await fetch('/__dashboard/logout', { method: 'POST', credentials: 'same-origin' });
}

export type Connection = 'connecting' | 'live' | 'reconnecting';

/** Counts the changes the server pushes (Server-Sent Events; no polling), and says whether the stream is up. */
export function useLive(): { version: number; connection: Connection } {
  const [version, setVersion] = useState(0);
  const [connection, setConnection] = useState<Connection>('connecting');
  useEffect(() => {
    const source = new EventSource(`${API}/events`);
    source.onopen = () => {
      setConnection('live');
      setVersion((n) => n + 1); // what happened while the stream was down
    };
    source.onerror = () => setConnection('reconnecting');
    source.addEventListener('change', () => setVersion((n) => n + 1));
    return () => source.close();
  }, []);
  return { version, connection };
}
