/** A value from settings as a short JSON text, for a message that quotes it. */
import { escapedString } from './jsonText';

/** A container `jsonPreview` is writing: its items (array) or keys (object), and how many are written. */
interface OpenValue {
  readonly items?: readonly unknown[];
  readonly object?: Record<string, unknown>;
  readonly keys?: readonly string[];
  written: number;
}

/**
 * A value (from settings) as JSON of at most `max` characters, ending `…` when cut: for a message that quotes it.
 * Written iteratively and only as far as `max`, so a deeply nested value costs no stack and a long one no more than
 * its keys.
 */
export function jsonPreview(value: unknown, max: number): string {
  let out = '';
  const open: OpenValue[] = [];
  let pending: { value: unknown } | undefined = { value };
  while (out.length <= max) {
    if (pending !== undefined) {
      const v = pending.value;
      pending = undefined;
      if (Array.isArray(v)) {
        out += '[';
        open.push({ items: v, written: 0 });
      } else if (typeof v === 'object' && v !== null) {
        out += '{';
        open.push({ object: v as Record<string, unknown>, keys: Object.keys(v), written: 0 });
      } else {
        out += primitive(v, max);
      }
      continue;
    }
    const frame = open[open.length - 1];
    if (frame === undefined) break;
    const count = frame.items?.length ?? frame.keys?.length ?? 0;
    if (frame.written === count) {
      out += frame.items ? ']' : '}';
      open.pop();
      continue;
    }
    if (frame.written > 0) out += ',';
    const key = frame.keys?.[frame.written];
    if (key !== undefined) out += `${primitive(key, max)}:`;
    pending = { value: key !== undefined ? frame.object?.[key] : frame.items?.[frame.written] };
    frame.written++;
  }
  return out.length > max ? `${out.slice(0, Math.max(0, max - 1))}…` : out;
}

/** A string, number, boolean or null as JSON (a string cut to `max` first); `null` for what JSON cannot hold. */
function primitive(value: unknown, max: number): string {
  if (typeof value === 'string') return escapedString(JSON.stringify(value.slice(0, max + 1)));
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  return 'null';
}
