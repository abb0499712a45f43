/**
 * The quick fixes offered on a flag diagnostic, as plain data: replace a typo with a suggested name, reveal the flag
 * in the Flags tree, show its details, open it in Unleash (only an http/https address), copy its name. Titles carry
 * untrusted names: one bounded line, `$(icon)` syntax shown as written.
 */
import * as l10n from '@vscode/l10n';
import { Commands } from '../../base/constants';
import type { FlagDiagnostic } from './flagDiagnostics';
import { isValidFlagName } from './flagNameRule';
import { inertText, openableUrl } from '../text/markdown';
import { quotedFlagName } from '../text/flagText';

type FlagQuickFix =
  | { title: string; kind: 'replace'; replacement: string; preferred: boolean }
  | { title: string; kind: 'command'; command: string; args: unknown[] };

function shown(name: string): string {
  return inertText(quotedFlagName(name, 80));
}

/**
 * The fixes for one diagnostic. `quote` is the literal's quote character (a suggestion holding it is not offered);
 * `webUrl` gives the flag's page when the source has a web UI.
 */
export function flagQuickFixes(
  diagnostic: Pick<FlagDiagnostic, 'kind' | 'suggestions' | 'flag' | 'unlisted'>,
  context: { quote: string; webUrl?: (project: string, name: string) => string | undefined },
): FlagQuickFix[] {
  const fixes: FlagQuickFix[] = [];
  if (diagnostic.kind === 'unknown') {
    for (const name of diagnostic.suggestions) {
      // Never a name that breaks Unleash's naming rule; of the quotes, a valid name can hold only `'`.
      if (!isValidFlagName(name) || name.includes(context.quote)) continue;
      fixes.push({ title: l10n.t('Change to {0}', shown(name)), kind: 'replace', replacement: name, preferred: fixes.length === 0 });
    }
    return fixes;
  }
  const flag = diagnostic.flag;
  if (!flag) return fixes;
  const args = [{ project: flag.project, name: flag.name }];
  if (diagnostic.unlisted !== true) {
    fixes.push({ title: l10n.t('Reveal {0} in the Flags tree', shown(flag.name)), kind: 'command', command: Commands.revealFlag, args });
  }
  fixes.push({ title: l10n.t('Show details of {0}', shown(flag.name)), kind: 'command', command: Commands.showFlagDetails, args });
  // A name that breaks the naming rule is neither opened in Unleash nor copied.
  if (!isValidFlagName(flag.name)) return fixes;
  if (openableUrl(context.webUrl?.(flag.project, flag.name)) !== undefined) {
    fixes.push({ title: l10n.t('Open {0} in Unleash', shown(flag.name)), kind: 'command', command: Commands.openInWebUi, args });
  }
  fixes.push({ title: l10n.t('Copy flag name {0}', shown(flag.name)), kind: 'command', command: Commands.copyFlagName, args });
  return fixes;
}
