/**
 * One environment's configuration of some flags as text for VS Code's diff editor (Compare Environments), in the words
 * and layout of the flag details document, made the same way: in time slices, within DOCUMENT_BUDGET (flagDocument.ts).
 * Strategy ids are left out, so the same strategy in two environments reads the same and only real differences show.
 */
import * as l10n from '@vscode/l10n';
import type { Feature, Segment } from '../../api/schemas';
import { strategyPieces, variantPieces } from './documentPieces';
import { documentSlices, documentText } from './flagDocument';
import { isValidFlagName } from '../code/flagNameRule';
import { invalidNameMark } from '../text/flagText';
import { MAX_LABEL, truncate, visibleText } from '../text/plainText';

const INDENT = '  ';

/** A flag to show: its details, or why they could not be read (said the same on both sides). */
export type ComparedFlag = { feature: Feature } | { name: string; problem: string };

function nameText(name: string): string {
  return isValidFlagName(name) ? name : `${visibleText(truncate(name, MAX_LABEL))} ${invalidNameMark()}`;
}

/** The text of `environment` for each flag, in the order given, with a blank line between flags. */
export function environmentText(
  flags: readonly ComparedFlag[],
  environment: string,
  segments: ReadonlyMap<string, readonly Segment[]>,
): Promise<string> {
  return documentText(environmentPieces(flags, environment, segments), documentSlices());
}

function* environmentPieces(flags: readonly ComparedFlag[], environment: string, segments: ReadonlyMap<string, readonly Segment[]>): Generator<string> {
  let first = true;
  for (const flag of flags) {
    if (!first) yield '\n';
    first = false;
    if ('problem' in flag) {
      yield `${nameText(flag.name)}\n${INDENT}${l10n.t('could not be read: {0}', visibleText(flag.problem))}\n`;
      continue;
    }
    const { feature } = flag;
    yield `${nameText(feature.name)}\n`;
    const env = feature.environments?.find((candidate) => candidate.name === environment);
    if (!env) {
      yield `${INDENT}${l10n.t('not in this environment')}\n`;
      continue;
    }
    yield `${INDENT}${env.enabled ? l10n.t('enabled') : l10n.t('disabled')}\n`;
    const strategies = env.strategies ?? [];
    if (strategies.length === 0) yield `${INDENT}${l10n.t('No strategies')}\n`;
    for (const [index, strategy] of strategies.entries()) yield* strategyPieces(strategy, index, { segments });
    if (env.variants && env.variants.length > 0) {
      yield `${INDENT}${l10n.t('Variants')}\n`;
      for (const variant of env.variants) yield* variantPieces(variant, INDENT.repeat(2));
    }
  }
}
