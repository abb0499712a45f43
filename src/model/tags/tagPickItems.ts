/**
 * The rows of the tag picker ("Check Tag…", "Export Environment…" by tag) for what the user has typed, and the row
 * Enter takes: the typed tag once the input holds `type:value` (a listed tag only when the user moves to it), or the
 * one row saying why the input is no tag yet. Labels come from the server: `clean()`ed and their `$(` escaped.
 */
import * as l10n from '@vscode/l10n';
import { pickText } from '../text/markdown';
import { formatTag, parseTag, tagText, validateTagType, type TagRef } from './tagInput';
import { MAX_DETAIL } from '../text/plainText';

export type TagPickRow =
  | { pick: 'type'; type: string; label: string; description?: string; alwaysShow?: boolean }
  | { pick: 'tag'; tag: TagRef; label: string; description?: string; alwaysShow?: boolean }
  | { pick: 'invalid'; label: string; description?: string; alwaysShow: true }
  | { pick: 'separator'; label: string };

interface TagPickInput {
  /** The server's tag types (sorted by the caller), or those of the known tags. */
  types: ReadonlyArray<{ name: string; description?: string }>;
  /** Tags the Flags view knows. */
  knownTags: readonly TagRef[];
  /** Which list comes first. */
  prefer: 'types' | 'tags';
  /** The verb of the typed-tag row: "Check", "Export". */
  valueAction: string;
}

interface TagPickState {
  rows: TagPickRow[];
  /** The row Enter takes until the user moves (undefined: the first row the editor shows). */
  active?: TagPickRow;
}

function typeRow(type: { name: string; description?: string }): TagPickRow {
  const description = type.description ? pickText(type.description, MAX_DETAIL) : undefined;
  return { pick: 'type', type: type.name, label: `$(symbol-key) ${pickText(type.name)}`, ...(description ? { description } : {}) };
}

function tagRow(tag: TagRef): TagPickRow {
  return { pick: 'tag', tag, label: `$(tag) ${pickText(tagText(tag))}` };
}

export function tagPickState(value: string, input: TagPickInput): TagPickState {
  const tagRows = input.knownTags.map(tagRow);
  if (value.includes(':')) {
    const parsed = parseTag(value);
    const typed: TagPickRow = parsed.ok
      ? { pick: 'tag', tag: parsed.tag, label: `$(tag) ${pickText(tagText(parsed.tag))}`, description: l10n.t('{0} this tag', input.valueAction), alwaysShow: true }
      : { pick: 'invalid', label: `$(error) ${parsed.message}`, alwaysShow: true };
    // While the typed text is not a tag, only why: a listed tag the filter would rank first could take Enter.
    if (!parsed.ok) return { rows: [typed], active: typed };
    const others = tagRows.filter((row) => row.pick === 'tag' && formatTag(row.tag) !== parsed.text);
    return { rows: [typed, ...others], active: typed };
  }
  const separator = (label: string): TagPickRow => ({ pick: 'separator', label });
  const section = (label: string, rows: TagPickRow[]): TagPickRow[] => (rows.length ? [separator(label), ...rows] : []);
  const typeSection = section(l10n.t('Tag types'), input.types.map(typeRow));
  const tagSection = section(l10n.t('Tags on flags in the Flags view'), tagRows);
  const base = input.prefer === 'types' ? [...typeSection, ...tagSection] : [...tagSection, ...typeSection];
  // A type the lists do not hold: offered only when nothing listed matches, so Enter never picks it over a match.
  const trimmed = value.trim();
  const needle = trimmed.toLowerCase();
  const listed = [...input.types.map((type) => type.name), ...input.knownTags.map(formatTag)];
  if (!trimmed || listed.some((label) => label.toLowerCase().includes(needle))) return { rows: base };
  const problem = validateTagType(trimmed);
  const custom: TagPickRow = problem
    ? { pick: 'invalid', label: `$(error) ${problem}`, description: l10n.t('or type the whole tag as type:value'), alwaysShow: true }
    : { pick: 'type', type: trimmed, label: `$(edit) ${pickText(trimmed)}`, description: l10n.t('Use as the tag type, then give the value'), alwaysShow: true };
  return { rows: [custom, ...base], active: custom };
}
