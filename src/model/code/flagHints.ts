/**
 * Inlay hints: a flag's state after each name code reads it by (the first argument of an SDK call, and an identifier
 * a name transform maps to a flag), in the environments chosen, short (`● prod ○ dev`) with the same state in words
 * for the tooltip and screen readers. Unknown and archived names get none (the diagnostics speak for them). Reads
 * only the catalog: a hint never asks the server anything.
 */
import type { FeatureSummary } from '../../api/schemas';
import type { Catalog } from '../store/catalog';
import { findClosingQuote, isApostrophe, isIdentCode } from './codeLine';
import { MAX_FLAG_NAME_LENGTH } from './flagMatch';
import type { FlagNameIndex } from './flagNameIndex';
import type { NameTransform } from './nameTransforms';
import { MAX_ANALYSED_LINE } from './flagReferences';
import { flagStatus } from '../store/flagStatus';
import { applyTransform } from './nameTransforms';
import { sdkCallLiterals } from './sdkCalls';
import { hiddenEnvironments } from '../store/environmentChoice';
import { joinValues } from '../text/intl';
import { shortEnvironmentName } from '../text/environmentText';
import { describeEnvironmentState, DISABLED_MARK, ENABLED_MARK } from '../text/flagText';
import { clean } from '../text/plainText';

interface HintOptions {
  sdkCalls?: string[];
  transforms?: NameTransform[];
  /** `unleash.environments`: the environments to show, in order (empty or not given: all, in the catalog's order). */
  environments?: readonly string[];
}

export interface FlagHint {
  /** Where the hint goes: 0-based line, and the column just after the name's text (after its closing quote). */
  line: number;
  character: number;
  flag: FeatureSummary;
  /** `● prod ○ dev`. */
  label: string;
  /** The same in words: `production enabled, development disabled`. */
  words: string;
}

/** Environments shown in a hint when more are chosen: the rest are named in its tooltip. */
const MAX_HINT_ENVIRONMENTS = 4;
/** Lines whose hints are remembered (by their text): scrolling and edits elsewhere re-ask for the same lines. */
const MAX_REMEMBERED_LINES = 20_000;

type LineHint = Omit<FlagHint, 'line'>;

/** Builds the hints of lines: one instance per catalog and options, since it keeps the name index and labels. */
export class FlagHints {
  private readonly index: FlagNameIndex;
  private readonly environments: readonly string[];
  private readonly labels = new Map<FeatureSummary, Pick<FlagHint, 'label' | 'words'>>();
  private readonly byText = new Map<string, readonly LineHint[]>();

  constructor(
    readonly catalog: Catalog,
    readonly options: HintOptions = {},
  ) {
    this.index = catalog.nameIndex;
    this.environments = options.environments?.length ? options.environments : catalog.environments();
  }

  /** The hints of one line (lines longer than the analysed limit have none). */
  line(text: string, line: number): FlagHint[] {
    let hints = this.byText.get(text);
    if (!hints) {
      hints = this.scan(text);
      if (this.byText.size >= MAX_REMEMBERED_LINES) this.byText.clear();
      this.byText.set(text, hints);
    }
    return hints.map((hint) => ({ line, ...hint }));
  }

  private scan(text: string): LineHint[] {
    if (text.length > MAX_ANALYSED_LINE) return [];
    const hints: LineHint[] = [];
    for (const literal of sdkCallLiterals(text, { sdkCalls: this.options.sdkCalls })) {
      if (literal.dynamic || literal.text.length > MAX_FLAG_NAME_LENGTH) continue;
      const name = this.index.resolve(literal.text, this.options.transforms ?? []);
      this.add(hints, name, literal.end + 1);
    }
    if (this.options.transforms?.length) {
      for (const token of identifiersOutsideStrings(text)) this.add(hints, this.transformed(token.text), token.end);
    }
    return hints.sort((a, b) => a.character - b.character);
  }

  private add(hints: LineHint[], name: string | undefined, character: number): void {
    if (name === undefined) return;
    const flags = this.catalog.byName(name);
    // A name in several projects: the hint is for the one code most likely reads, the first; the tooltip says more.
    const flag = flags.find((candidate) => !flagStatus(candidate).archived);
    if (!flag) return;
    hints.push({ character, flag, ...this.labelOf(flag) });
  }

  private transformed(identifier: string): string | undefined {
    if (identifier.length > MAX_FLAG_NAME_LENGTH) return undefined;
    for (const transform of this.options.transforms ?? []) {
      const mapped = applyTransform(identifier, transform);
      if (mapped !== undefined && mapped !== identifier && this.index.has(mapped)) return mapped;
    }
    return undefined;
  }

  private labelOf(flag: FeatureSummary): Pick<FlagHint, 'label' | 'words'> {
    const known = this.labels.get(flag);
    if (known) return known;
    const states = new Map((flag.environments ?? []).map((env) => [env.name, env.enabled]));
    const shown = this.environments.filter((name) => states.has(name));
    const parts = shown.slice(0, MAX_HINT_ENVIRONMENTS).map((name) => `${states.get(name) ? ENABLED_MARK : DISABLED_MARK} ${shortEnvironmentName(name)}`);
    const more = shown.length - MAX_HINT_ENVIRONMENTS;
    const label = more > 0 ? `${parts.join(' ')} +${more}` : parts.join(' ');
    const hidden = states.size - shown.length;
    const stateWords = joinValues(shown.map((name) => `${clean(name, 40)} ${describeEnvironmentState(states.get(name) === true)}`));
    const words = hidden > 0 && this.options.environments?.length ? `${stateWords}; ${hiddenEnvironments(hidden)}` : stateWords;
    const entry = { label, words };
    this.labels.set(flag, entry);
    return entry;
  }
}

/** Identifier tokens of a line that are not inside a string literal, with the column after each. */
function identifiersOutsideStrings(line: string): Array<{ text: string; end: number }> {
  const tokens: Array<{ text: string; end: number }> = [];
  let i = 0;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    if ((c === 39 && !isApostrophe(line, i)) || c === 34 || c === 96) {
      const close = findClosingQuote(line, i + 1, c);
      if (close < 0) break;
      i = close + 1;
    } else if (isIdentCode(c) && !(c >= 48 && c <= 57)) {
      let end = i + 1;
      while (end < line.length && isIdentCode(line.charCodeAt(end))) end++;
      if (i === 0 || !isIdentCode(line.charCodeAt(i - 1))) tokens.push({ text: line.slice(i, end), end });
      i = end;
    } else i++;
  }
  return tokens;
}
