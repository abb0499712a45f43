/**
 * What Update Export may write into an export file of the workspace. A file's content is untrusted (a cloned
 * repository's): the environment it declares inside counts only when its name says the same, as the export command
 * names its files (`.unleash/<environment>.json` for a whole environment, `.unleash/<environment>.<scope>.json` for
 * part of one; exportPath.ts). Then the file is written again; a file whose name says otherwise is written only when
 * the user says so, and one whose name cannot be written as a path, or that names more flags than one export
 * request may, not at all.
 */
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import type { ExportScope } from '../../api/exportQuery';
import { EXPORT_FOLDER } from '../../base/constants';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
import { clean } from '../text/plainText';
import { resolveExportPath, sanitizeFileComponent, scopeNames } from './exportPath';

type UpdatePlan =
  /** The name says this environment: export it into the file, with this path template. */
  | { kind: 'update'; template: string }
  /** The name does not say it: ask `question`, and export into the file only when the user confirms (`confirm`). */
  | { kind: 'ask'; template: string; question: string; confirm: string }
  /** Not to be written: `message` says why and what to do instead. */
  | { kind: 'refuse'; message: string };

interface UpdatedFile {
  /** The workspace folder, and the export file inside it (absolute paths). */
  folder: string;
  file: string;
  /** The environment the file declares inside, and what it holds (every flag, or the names it lists). */
  environment: string;
  scope: ExportScope;
}

/** How Update Export writes `file`: what its name says it holds, or a question, or why not. */
export function updatePlan({ folder, file, environment, scope }: UpdatedFile): UpdatePlan {
  const relative = path.relative(folder, file).split(path.sep).join('/');
  const shownFile = clean(relative, 120);
  const shownEnvironment = clean(environment, 60);
  const names = scope.kind === 'features' ? scope.names.length : 0;
  if (names > INTAKE_BUDGET.exportNames) {
    return {
      kind: 'refuse',
      message: l10n.t(
        '{0} lists {1} flags, more than the {2} one export request may name (the server keeps each request as an audit event): it was not updated. Export {3} again with "Unleash: Export Environment…", for a project or a tag.',
        shownFile,
        names,
        INTAKE_BUDGET.exportNames,
        shownEnvironment,
      ),
    };
  }
  const resolves = (template: string): boolean => {
    try {
      return resolveExportPath({ template, folder, environment, ...scopeNames(scope) }) === path.resolve(file);
    } catch {
      return false;
    }
  };
  const variable = relative.includes('${');
  // A file of part of an environment may have a name the export command gave another scope (a project's file
  // listing the flags it holds): its own path is then the template, which must name it exactly.
  const ownPath = !variable && resolves(relative) ? relative : undefined;
  if (saysEnvironment(relative, environment, scope)) {
    if (resolves('')) return { kind: 'update', template: '' };
    if (ownPath !== undefined) return { kind: 'update', template: ownPath };
  }
  if (ownPath === undefined) {
    return {
      kind: 'refuse',
      message: variable
        ? l10n.t(
            '{0} was not updated: its name holds {2}, which an export path reads as a variable, and does not say it holds {1} (its content declares it). Export {1} with "Unleash: Export Environment…" instead.',
            shownFile,
            shownEnvironment,
            '"${"',
          )
        : l10n.t(
            '{0} was not updated: its name does not say it holds {1} (its content declares it). Export {1} with "Unleash: Export Environment…" instead.',
            shownFile,
            shownEnvironment,
          ),
    };
  }
  return {
    kind: 'ask',
    template: ownPath,
    question: l10n.t(
      'The name of {0} does not say it holds {1}, the environment its content declares. Replace its content with the configuration of {1} from the server?',
      shownFile,
      shownEnvironment,
    ),
    confirm: l10n.t('Replace with {0}', shownEnvironment),
  };
}

/**
 * Does the file's name (folder-relative, `/`-separated) say it holds `environment` as the export command names
 * files: `.unleash/<environment>.json` for every flag, `.unleash/<environment>.<scope>.json` for part of them?
 */
function saysEnvironment(relative: string, environment: string, scope: ExportScope): boolean {
  const stem = `${EXPORT_FOLDER}/${sanitizeFileComponent(environment)}`;
  if (scope.kind === 'all') return relative === `${stem}.json`;
  return relative.startsWith(`${stem}.`) && relative.endsWith('.json') && relative.length > stem.length + '..json'.length && !relative.slice(stem.length).includes('/');
}
