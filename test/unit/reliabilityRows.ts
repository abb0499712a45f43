/**
 * What a row of docs/reliability.md may publish, and the measurements its Requests and Time columns come from.
 *
 * - **Requests** is counted by a `RequestMeter` while the row runs: what reached the server is read from the fault
 *   servers' records (test/support/faultServer.ts), and every attempt the client made, including the ones that never
 *   reached a server (a refused connection, a TLS failure, a proxy that failed), from undici's diagnostics channel
 *   `undici:request:create`. Retries are the client's `retry` events that were followed by another attempt. A row
 *   declares nothing but the marker `'none'` (no request by design, which the meter must confirm) or how to show the
 *   count (a note in words, one count per named server or per endpoint); a hand-written figure is a type error and
 *   `tableCells` rejects it at run time.
 * - **Time** is a bound asserted on a measured elapsed time (`within`, `atLeast`): only those helpers make a `Time`.
 */
import assert from 'node:assert/strict';
import dc from 'node:diagnostics_channel';
import type { HttpEvent } from '../../src/api/httpOptions';
import type { FaultRequest, FaultServer } from '../support/faultServer';

// ---------------------------------------------------------------------------------------------------------------
// Time: a bound asserted on a measured time
// ---------------------------------------------------------------------------------------------------------------

declare const timeBrand: unique symbol;
/** A Time cell; made only by `within` and `atLeast`, after the measured time passed the assertion. */
export type Time = { readonly text: string; readonly [timeBrand]: true };
const issuedTimes = new WeakSet<object>();

function time(text: string): Time {
  const made = Object.freeze({ text }) as Time;
  issuedTimes.add(made);
  return made;
}

const seconds = (ms: number) => `${ms / 1000} s`;

/** Asserts `ms` (measured) stayed under `bound` and says so: `< 2 s (timeout 0.5 s)`. */
export function within(ms: number, bound: number, note?: string): Time {
  assert.ok(ms < bound, `took ${Math.round(ms)} ms, more than ${bound} ms`);
  return time(`< ${seconds(bound)}${note ? ` (${note})` : ''}`);
}

/** Asserts `ms` (measured) reached `bound` and says so: `≥ 1 s (Retry-After)`. */
export function atLeast(ms: number, bound: number, note?: string): Time {
  assert.ok(ms >= bound, `took ${Math.round(ms)} ms, less than ${bound} ms`);
  return time(`≥ ${seconds(bound)}${note ? ` (${note})` : ''}`);
}

/** Runs `fn` and measures how long it took. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------------------------
// Requests: the meter
// ---------------------------------------------------------------------------------------------------------------

/** What a meter counted while a row ran. */
export interface Measurement {
  /** Requests the client started (each attempt of a retried GET counts), whether or not they reached a server. */
  attempts: number;
  /** Of the attempts, how many went through a proxy tunnel (undici's CONNECT to the proxy). */
  viaProxy: number;
  /** Requests the watched fault servers recorded. */
  reached: number;
  /** Attempts that repeated an earlier one: a `retry` event of the client followed by a new attempt. */
  retried: number;
  /** What each watched server recorded, in the order they were watched. */
  servers: Array<{ name?: string; requests: FaultRequest[] }>;
}

export interface RequestMeter {
  /** Counts what `server` records from now on; a named server gets its own count when a row shows them per server. */
  watch(server: FaultServer, name?: string): void;
  /** The client's events (pass them from `ClientOptions.onEvent`): a `retry` counts once the next attempt starts. */
  onEvent(event: HttpEvent): void;
  /** What was counted so far. */
  read(): Measurement;
  /** Stops listening and returns what was counted. */
  stop(): Measurement;
}

const CREATE = 'undici:request:create';

interface CreateMessage {
  request: { method?: string };
}

export function startMeter(): RequestMeter {
  let created = 0;
  let tunnels = 0;
  let retried = 0;
  let pendingRetries = 0;
  const watched: Array<{ server: FaultServer; name?: string; before: Set<FaultRequest> }> = [];
  const onCreate = (message: unknown) => {
    // undici makes a CONNECT of its own to open a proxy tunnel, beside the request that goes through it.
    if ((message as CreateMessage).request.method === 'CONNECT') {
      tunnels += 1;
      return;
    }
    created += 1;
    if (pendingRetries > 0) {
      pendingRetries -= 1;
      retried += 1;
    }
  };
  dc.subscribe(CREATE, onCreate);
  let stopped = false;

  const read = (): Measurement => {
    const servers = watched.map(({ server, name, before }) => ({ name, requests: server.requests.filter((request) => !before.has(request)) }));
    const reached = servers.reduce((sum, s) => sum + s.requests.length, 0);
    return { attempts: created, viaProxy: tunnels, reached, retried, servers };
  };

  return {
    watch(server, name) {
      if (watched.some((entry) => entry.server === server)) return;
      watched.push({ server, name, before: new Set(server.requests) });
    },
    onEvent(event) {
      if (event.kind === 'retry') pendingRetries += 1;
    },
    read,
    stop() {
      if (!stopped) dc.unsubscribe(CREATE, onCreate);
      stopped = true;
      return read();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// A row's outcome, and the cells it publishes
// ---------------------------------------------------------------------------------------------------------------

/**
 * How the measured Requests are shown: with a note in words (no figures: those come from the meter), one count per
 * named server, or one count per endpoint. `'none'`: the case sends no request by design, which the meter confirms.
 */
export type RequestsShown = 'none' | { note?: string; per?: 'server' | 'endpoint' };

/** One row of docs/reliability.md, as a case returns it. */
export interface Outcome {
  /** What happened, in a few words: "TimeoutError", "succeeds", "file unchanged, no temporary file". */
  result: string;
  /** The message the user reads ("—" when the operation succeeds). */
  message?: string;
  /** The buttons offered. */
  steps?: string;
  /** Left out, the meter's count is shown as it is; see RequestsShown. Never a figure. */
  requests?: RequestsShown;
  /** A bound asserted on the measured time (`within`, `atLeast`). */
  time?: Time;
}

/** The cells of a row, as the table prints them. */
export interface Cells {
  result: string;
  message?: string;
  steps?: string;
  requests: string;
  time?: string;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The Requests cell for a measurement: `1 (not retried)`, `3 (retried 2×)`, `0 of 3 attempts (retried 2×)`. */
function requestsText(m: Measurement, shown: Exclude<RequestsShown, 'none'> = {}): string {
  const proxy = m.viaProxy === 0 ? undefined : m.viaProxy >= m.attempts ? 'through the proxy' : `${m.viaProxy} through the proxy`;
  const retries = m.retried > 0 ? `retried ${m.retried}×` : 'not retried';
  const how = [proxy, retries].filter(Boolean).join(', ');
  const note = shown.note ? `; ${shown.note}` : '';
  let count: string;
  if (shown.per === 'server') {
    const named = m.servers.filter((s) => s.name !== undefined);
    assert.ok(named.length > 0, 'per server: no named server was watched');
    count = named.map((s) => `${s.requests.length} to ${s.name}`).join(', ');
  } else {
    count = m.reached === m.attempts ? String(m.reached) : `${m.reached} of ${plural(m.attempts, 'attempt')}`;
  }
  let text = `${count} (${how}${note})`;
  if (shown.per === 'endpoint') {
    const byPath = new Map<string, number>();
    for (const request of m.servers.flatMap((s) => s.requests)) byPath.set(request.path, (byPath.get(request.path) ?? 0) + 1);
    // By path, not by arrival: requests sent together arrive in any order, and the table must not change between runs.
    const paths = [...byPath].sort(([a], [b]) => a.localeCompare(b));
    text += `: ${paths.map(([path, count]) => `${count} × \`${path}\``).join(', ')}`;
  }
  return text;
}

/** Why `requests` is not something a row may declare, or undefined when it is. */
function refusedRequests(requests: unknown): string | undefined {
  if (requests === undefined || requests === 'none') return undefined;
  if (typeof requests !== 'object' || requests === null || Array.isArray(requests)) {
    return `a hand-written Requests value (${JSON.stringify(requests)}): leave it out and the meter counts, or declare 'none'`;
  }
  const { note, per, ...rest } = requests as { note?: unknown; per?: unknown };
  if (Object.keys(rest).length > 0) return `unknown Requests fields: ${Object.keys(rest).join(', ')}`;
  if (note !== undefined && (typeof note !== 'string' || /\d/.test(note))) {
    return `a Requests note with a figure in it (${JSON.stringify(note)}): figures come from the meter`;
  }
  if (per !== undefined && per !== 'server' && per !== 'endpoint') return `Requests per ${JSON.stringify(per)}: only 'server' or 'endpoint'`;
  return undefined;
}

/**
 * The cells a row publishes: its words as given, Requests from the meter and Time from a checked bound. Throws
 * when the row hand-writes a count or a time, when a row that sends nothing by design sent something, and when a
 * server recorded more requests than the client started (the meter missed one).
 */
export function tableCells(outcome: Outcome, measured: Measurement): Cells {
  const refused = refusedRequests((outcome as { requests?: unknown }).requests);
  if (refused) throw new Error(refused);
  const givenTime = (outcome as { time?: unknown }).time;
  if (givenTime !== undefined && (typeof givenTime !== 'object' || givenTime === null || !issuedTimes.has(givenTime))) {
    throw new Error(`a hand-written Time value (${JSON.stringify(givenTime)}): use within() or atLeast() on a measured time`);
  }
  if (measured.reached > measured.attempts) {
    throw new Error(`the servers recorded ${measured.reached} requests but the meter saw ${measured.attempts} attempts: a request went uncounted`);
  }
  let requests: string;
  if (outcome.requests === 'none') {
    if (measured.attempts + measured.viaProxy + measured.reached > 0) {
      throw new Error(`declared 'none' (no request by design), but the meter saw ${measured.attempts} attempts and ${measured.reached} requests at the server`);
    }
    requests = 'none';
  } else {
    requests = requestsText(measured, outcome.requests);
  }
  return { result: outcome.result, message: outcome.message, steps: outcome.steps, requests, time: outcome.time?.text };
}
