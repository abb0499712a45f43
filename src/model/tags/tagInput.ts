/**
 * The tag a user types, `type:value`: parsing and the validation messages shown inline while typing. The server
 * accepts a type and a value of 2 to 50 characters each (counted as JavaScript counts them); a value may hold any
 * character, colons included, so the input is split at its FIRST colon. Surrounding spaces are not part of the tag.
 */
import { editDistance } from '../../base/editDistance';
import * as l10n from '@vscode/l10n';
import type { UnleashClient } from '../../api/client';
import type { Call } from '../../api/http';
import { inertText } from '../text/markdown';
import { compare } from '../../base/compare';

const TAG_PART_MIN = 2;
const TAG_PART_MAX = 50;

export interface TagRef {
  type: string;
  value: string;
}

type TagParse = { ok: true; tag: TagRef; text: string } | { ok: false; message: string };

function tagFormatHint(): string {
  return l10n.t('Write the tag as type:value, e.g. team:payments.');
}

/** `type:value`, as the answers and "Copy" show it. */
export function formatTag(tag: TagRef): string {
  return `${tag.type}:${tag.value}`;
}

function lengthProblem(what: 'type' | 'value', part: string): string | undefined {
  const length = part.length;
  if (length >= TAG_PART_MIN && length <= TAG_PART_MAX) return undefined;
  return what === 'type'
    ? l10n.t('Tag type must be {0} to {1} characters (it has {2}).', TAG_PART_MIN, TAG_PART_MAX, length)
    : l10n.t('Tag value must be {0} to {1} characters (it has {2}).', TAG_PART_MIN, TAG_PART_MAX, length);
}

/**
 * `type:value` for a notification: VS Code turns `[text](target)` in a message into a link that runs or opens on a
 * click, so `](` is broken up; control characters become spaces and bidirectional overrides are dropped. Tag values
 * come from the server as well as from the user.
 */
export function tagForMessage(tag: TagRef): string {
  return inertText(formatTag(tag));
}

/** Why `type` cannot be a tag type, or undefined when it can. */
export function validateTagType(type: string): string | undefined {
  return lengthProblem('type', type.trim());
}

/** Why `value` cannot be a tag value, or undefined when it can. */
export function validateTagValue(value: string): string | undefined {
  return lengthProblem('value', value.trim());
}

/** Parses `type:value`, split at the first colon; each part is trimmed and must be 2 to 50 characters. */
export function parseTag(input: string): TagParse {
  const colon = input.indexOf(':');
  if (input.trim() === '' || colon < 0) return { ok: false, message: tagFormatHint() };
  const type = input.slice(0, colon).trim();
  const value = input.slice(colon + 1).trim();
  const problem = validateTagType(type) ?? validateTagValue(value);
  if (problem) return { ok: false, message: problem };
  const tag = { type, value };
  return { ok: true, tag, text: formatTag(tag) };
}

/** For an input box's `validateInput`: the message to show under the input, or undefined when it is fine. */
export function validateTagInput(input: string): string | undefined {
  const parsed = parseTag(input);
  return parsed.ok ? undefined : parsed.message;
}

/**
 * A tag given as a command argument: `'type:value'` or `{ type, value }`. Anything else is refused with the
 * format hint, before any request is made.
 */
export function tagFromArgument(argument: unknown): TagParse {
  if (typeof argument === 'string') return parseTag(argument);
  if (argument && typeof argument === 'object') {
    const { type, value } = argument as { type?: unknown; value?: unknown };
    if (typeof type === 'string' && typeof value === 'string') {
      const problem = validateTagType(type) ?? validateTagValue(value);
      if (problem) return { ok: false, message: problem };
      const tag = { type: type.trim(), value: value.trim() };
      return { ok: true, tag, text: formatTag(tag) };
    }
  }
  return { ok: false, message: tagFormatHint() };
}

type TagCheck = { ok: true; tag: TagRef; text: string; exists: boolean } | { ok: false; message: string };

/**
 * Does the tag given as `'type:value'` or `{ type, value }` exist on the server? Invalid input answers the validation
 * message without any request; a 404 answers `exists: false`; any other failure throws the client's typed error.
 */
export async function checkTagExists(client: Pick<UnleashClient, 'getTag'>, argument: unknown, call: Call = {}): Promise<TagCheck> {
  const parsed = tagFromArgument(argument);
  if (!parsed.ok) return parsed;
  const found = await client.getTag(parsed.tag.type, parsed.tag.value, call);
  return { ...parsed, exists: found !== undefined };
}

/**
 * The known tag closest to `wanted` (same type, value at most 2 edits away, ignoring case), for "did you mean…"
 * after a miss; undefined when none is that close.
 */
export function closestTag(wanted: TagRef, known: Iterable<TagRef>): TagRef | undefined {
  let best: { tag: TagRef; distance: number } | undefined;
  const target = wanted.value.toLowerCase();
  for (const tag of known) {
    if (tag.type !== wanted.type || tag.value === wanted.value) continue;
    const distance = editDistance(target, tag.value.toLowerCase(), 2);
    if (distance <= 2 && (!best || distance < best.distance)) best = { tag, distance };
  }
  return best?.tag;
}

/**
 * Distinct tags in a list of flags (as the catalog holds them), sorted by type then value. A tag list several flags
 * share (offline mode gives every flag of a name the same one) is read once.
 */
export function distinctTags(flags: Iterable<{ tags?: readonly TagRef[] | null }>): TagRef[] {
  const seen = new Map<string, TagRef>();
  const lists = new Set<readonly TagRef[]>();
  for (const flag of flags) {
    if (!flag.tags || lists.has(flag.tags)) continue;
    lists.add(flag.tags);
    for (const tag of flag.tags) seen.set(`${tag.type}\u0000${tag.value}`, { type: tag.type, value: tag.value });
  }
  return [...seen.values()].sort((a, b) => compare(a.type, b.type) || compare(a.value, b.value));
}
