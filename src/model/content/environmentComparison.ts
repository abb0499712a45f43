/**
 * One environment's configuration of some flags as text for VS Code's diff editor (Compare Environments), in the words
 * and layout of the flag details document. Strategy ids are left out, so the same strategy in two environments reads
 * the same and only real differences show.
 */
import * as l10n from '@vscode/l10n';
import type { Feature, Segment } from '../../api/schemas';
import { pushAll } from '../../base/arrays';
import { strategyLines, variantLines } from './flagDocument';
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
export function environmentText(flags: readonly ComparedFlag[], environment: string, segments: ReadonlyMap<string, readonly Segment[]>): string {
  const lines: string[] = [];
  for (const flag of flags) {
    if (lines.length > 0) lines.push('');
    if ('problem' in flag) {
      lines.push(nameText(flag.name), `${INDENT}${l10n.t('could not be read: {0}', visibleText(flag.problem))}`);
      continue;
    }
    const { feature } = flag;
    lines.push(nameText(feature.name));
    const env = feature.environments?.find((candidate) => candidate.name === environment);
    if (!env) {
      lines.push(`${INDENT}${l10n.t('not in this environment')}`);
      continue;
    }
    lines.push(`${INDENT}${env.enabled ? l10n.t('enabled') : l10n.t('disabled')}`);
    const strategies = env.strategies ?? [];
    if (strategies.length === 0) lines.push(`${INDENT}${l10n.t('No strategies')}`);
    strategies.forEach((strategy, index) => pushAll(lines, strategyLines(strategy, index, { segments })));
    if (env.variants && env.variants.length > 0) {
      lines.push(`${INDENT}${l10n.t('Variants')}`);
      for (const variant of env.variants) pushAll(lines, variantLines(variant, INDENT.repeat(2)));
    }
  }
  return `${lines.join('\n')}\n`;
}
