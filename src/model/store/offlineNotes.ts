/**
 * What offline mode and the drift check say about the export files they did not read whole: the files left out
 * (which, why and what to do), and the cuts the intake budget made inside the files it read.
 */
import * as l10n from '@vscode/l10n';
import type { IntakeCut } from '../../base/intakeCuts';
import { clean, formatList } from '../text/plainText';
import { pluralForm } from '../text/intl';
import { quotedFlagName } from '../text/flagText';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
import { EXPORT_BUDGET, type ExportBudget, type SkippedFile } from './offlineFiles';

const MIB = 1024 * 1024;

/**
 * What the view says about the files left out: which, why and what to do, in one line of at most about 400
 * characters (the log names each file with its whole reason). Undefined when every file was read.
 */
export function skippedNote(skipped: readonly SkippedFile[], budget: ExportBudget = EXPORT_BUDGET): string | undefined {
  if (skipped.length === 0) return undefined;
  const megabytes = (bytes: number) => Math.floor(bytes / MIB);
  const paths = (why: SkippedFile['why']) => skipped.filter((file) => file.why === why).map((file) => file.path);
  const list = (values: string[], chars: number) => formatList(values, { maxItems: values.length, maxItem: chars, budget: chars });
  const tooMany = paths('tooMany').length;
  const tooLarge = paths('tooLarge');
  const overBudget = paths('overBudget');
  const failing = skipped.filter((file) => file.why === 'failed');
  // Each reason gets its share of the line, so that several failing files are all named.
  const reasonChars = Math.max(40, Math.floor(160 / failing.length));
  const failed = failing.map((file) => `${clean(file.path, 80)} (${clean(file.reason ?? '', reasonChars)})`);
  const groups = [
    failed.length > 0 && list(failed, 260),
    tooLarge.length > 0 && l10n.t('{0} (larger than {1} MB)', list(tooLarge, 80), megabytes(budget.maxFileBytes)),
    overBudget.length > 0 && l10n.t('{0} (past {1} MB for all files together)', list(overBudget, 80), megabytes(budget.maxTotalBytes)),
    tooMany > 0 && l10n.t('{0} files after the first {1}', tooMany, budget.maxFiles),
  ].filter((group): group is string => typeof group === 'string');
  return [
    l10n.t('Not read: {0}.', groups.join('; ')),
    skipped.some((file) => file.why !== 'failed') &&
      l10n.t('At most {0} files, {1} MB together, are read: move the others out of .unleash/.', budget.maxFiles, megabytes(budget.maxTotalBytes)),
    failed.length > 0 && l10n.t('Export the environment again, or remove the file.'),
  ]
    .filter((part): part is string => typeof part === 'string')
    .join(' ');
}


/** The cuts of one file: its path, the first cuts in detail, and how many in all. */
interface FileCuts {
  path: string;
  cuts: readonly IntakeCut[];
  cutCount: number;
}

/** Which cuts a note names first: the flags, then a name's projects, then other lists, then texts. */
function weight(cut: IntakeCut): number {
  return cut.kind === 'characters' ? 3 : cut.kind === 'projects' ? 1 : cut.at === 'features' ? 0 : 2;
}

/** One cut in words: `the first 100,000 of 1,000,000 flags`, `"checkout" in 1,000 of its 320,000 projects`. */
function cutText(cut: IntakeCut): string {
  const kept = count(cut.kept);
  const total = count(cut.total);
  if (cut.kind === 'projects') return l10n.t('{0} in {1} of its {2} projects', quotedFlagName(cut.name ?? ''), kept, total);
  if (cut.kind === 'characters') return l10n.t('a text of {0} characters at {1} cut to {2}', total, clean(cut.at, 60), kept);
  if (cut.at === 'features') return l10n.t('the first {0} of {1} flags', kept, total);
  return l10n.t('the first {0} of {1} entries of {2}', kept, total, clean(cut.at, 60));
}

/**
 * What the view says about the files read only in part, in one line of at most about 400 characters: `Showing part of
 * .unleash/x.json: the first 100,000 of 1,000,000 flags.` Undefined when nothing was cut.
 */
export function cutsNote(files: readonly FileCuts[]): string | undefined {
  const cut = files.filter((file) => file.cutCount > 0);
  if (cut.length === 0) return undefined;
  const perFile = cut.map((file) => {
    const shown = [...file.cuts].sort((a, b) => weight(a) - weight(b)).slice(0, 2).map(cutText);
    const more = file.cutCount - shown.length;
    const parts = more > 0 ? [...shown, pluralForm(more, { one: l10n.t('{0} more cut', more), other: l10n.t('{0} more cuts', more) })] : shown;
    return l10n.t('{0}: {1}', clean(file.path, 80), formatList(parts, { maxItems: 3, maxItem: 120, budget: 260 }));
  });
  return [
    l10n.t('Showing part of {0}.', formatList(perFile, { maxItems: 3, maxItem: 300, budget: 320 })),
    l10n.t('The extension reads at most {0} flags, {1} projects per flag name and {2} entries per list of the export files.',
      count(INTAKE_BUDGET.flags), count(INTAKE_BUDGET.projectsPerName), count(INTAKE_BUDGET.rowsPerList)),
  ].join(' ');
}

const count = (n: number): string => n.toLocaleString('en-US');
