/**
 * JSON.parse of UTF-8 bytes at native speed, for a worker (it blocks, so never on the extension host's thread), and
 * the check that the value nests no deeper than a bound, made without recursion. A byte order mark is skipped.
 */
import { JsonTooDeepError } from './jsonBytes';

/** The value the bytes hold; SyntaxError for bad JSON, JsonTooDeepError past `maxDepth` levels of lists and objects. */
export function parseJsonWithin(bytes: Uint8Array, maxDepth: number): unknown {
  const text = new TextDecoder().decode(bytes);
  const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const pending: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  while (pending.length > 0) {
    const { node, depth } = pending.pop() as { node: unknown; depth: number };
    if (node === null || typeof node !== 'object') continue;
    if (depth >= maxDepth) throw new JsonTooDeepError(maxDepth);
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (child !== null && typeof child === 'object') pending.push({ node: child, depth: depth + 1 });
  }
  return value;
}
