/**
 * The hover for a name an SDK call reads that the flag listing lacks: unknown (a typo, shown where it is written),
 * still being looked up among archived flags, or archived.
 */
import * as l10n from '@vscode/l10n';
import type { FeatureSummary } from '../../api/schemas';
import { flagName } from '../text/flagText';
import { escapeMarkdown, markdownCode, plainMarkdown } from '../text/markdown';
import { parseIsoUtc, utcDate } from '../text/plainText';

/**
 * The hover for a name that an SDK call reads but the source does not know: `No flag named \`x\` on <server>`
 * (`in <files>` for the offline mode), so that typos show up where they are written.
 */
export function unknownFlagMarkdown(
  name: string,
  sourceLabel: string,
  sdkCall?: string,
  sourceKind: 'server' | 'files' = 'server',
): string {
  const where = plainMarkdown(sourceLabel, 120);
  const code = markdownCode(name, 200);
  const head =
    sourceKind === 'files'
      ? l10n.t('No flag named {0} in {1}', code, where === '' ? l10n.t('the server') : where)
      : l10n.t('No flag named {0} on {1}', code, where === '' ? l10n.t('the server') : where);
  const check = l10n.t('Check the spelling; the flag may also be archived or in a project this workspace does not read.');
  return `${head}\n\n${readsThisName(sdkCall)}${check}`;
}

/**
 * The hover for a name that an SDK call reads, the listing lacks, and whose lookup among archived flags has not
 * answered yet: neither unknown nor archived is known, so it says that it is being checked.
 */
export function lookupPendingMarkdown(name: string, sourceLabel: string, sdkCall?: string): string {
  const where = plainMarkdown(sourceLabel, 120);
  const head = l10n.t('{0} is not among the flags listed from {1}.', markdownCode(name, 200), where === '' ? l10n.t('the server') : where);
  return `${head}\n\n${readsThisName(sdkCall)}${l10n.t('Checking whether it is an archived flag… hover again in a moment.')}`;
}

/**
 * The hover for a name that an SDK call reads and that belongs to an archived flag (the server's listing leaves those
 * out): says so, with its project and when it was archived, and what that means for the call.
 */
export function archivedFlagMarkdown(flag: FeatureSummary, sdkCall: string | undefined, sourceLabel: string): string {
  const where = plainMarkdown(sourceLabel, 120);
  const facts = [l10n.t('**{0}** is archived', escapeMarkdown(flagName(flag.name, 200)))];
  const project = plainMarkdown(flag.project ?? '', 60);
  if (project !== '') facts.push(l10n.t('project {0}', project));
  const at = flag.archivedAt ? parseIsoUtc(flag.archivedAt) : undefined;
  if (at !== undefined) facts.push(l10n.t('archived {0}', utcDate(at)));
  const lines = [facts.join(' · '), `${readsThisName(sdkCall)}${archivedMeaning()}`];
  if (where !== '') lines.push(l10n.t('_Source: {0}_', where));
  return lines.join('\n\n');
}

/** What being archived means for code, wherever an archived flag is shown. */
export function archivedMeaning(): string {
  return l10n.t('SDKs no longer receive archived flags, so code reading it gets its default value. Revive the flag in Unleash, or remove the code.');
}

/** `` `isEnabled` reads a flag by this name. `` (with its trailing space), or '' without a call. */
function readsThisName(sdkCall: string | undefined): string {
  return sdkCall === undefined || sdkCall.trim() === '' ? '' : `${l10n.t('{0} reads a flag by this name.', markdownCode(sdkCall, 60))} `;
}
