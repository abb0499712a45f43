/**
 * The quick fixes offered on a flag diagnostic, as plain data (no 'vscode'): replace a typo with a suggested name,
 * reveal the flag in the Flags tree, show its details, open it in Unleash (only an http/https address), copy its name. Titles carry
 * untrusted names, so they are one bounded line with `$(icon)` syntax shown as written.
 */
import { Commands } from '../constants';
import type { FlagDiagnostic } from './flagDiagnostics';
import { inertText, openableUrl } from './markdown';

export type FlagQuickFix =
  | { title: string; kind: 'replace'; replacement: string; preferred: boolean }
  | { title: string; kind: 'command'; command: string; args: unknown[] };

/** Characters a replacement never carries (it would have to be escaped to stay one string). */
const NOT_INSERTABLE = /[\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function shown(name: string): string {
  return `"${inertText(name, 80)}"`;
}

/**
 * The fixes for one diagnostic. `quote` is the literal's quote character (a suggestion holding it is not offered);
 * `webUrl` gives the flag's page when the source has a web UI.
 */
export function flagQuickFixes(
  diagnostic: Pick<FlagDiagnostic, 'kind' | 'suggestions' | 'flag'>,
  context: { quote: string; webUrl?: (project: string, name: string) => string | undefined },
): FlagQuickFix[] {
  const fixes: FlagQuickFix[] = [];
  if (diagnostic.kind === 'unknown') {
    for (const name of diagnostic.suggestions) {
      if (NOT_INSERTABLE.test(name) || name.includes(context.quote) || (context.quote === '`' && name.includes('${'))) continue;
      fixes.push({ title: `Change to ${shown(name)}`, kind: 'replace', replacement: name, preferred: fixes.length === 0 });
    }
    return fixes;
  }
  const flag = diagnostic.flag;
  if (!flag) return fixes;
  const args = [{ project: flag.project, name: flag.name }];
  fixes.push({ title: `Reveal ${shown(flag.name)} in the Flags tree`, kind: 'command', command: Commands.revealFlag, args });
  fixes.push({ title: `Show details of ${shown(flag.name)}`, kind: 'command', command: Commands.showFlagDetails, args });
  if (openableUrl(context.webUrl?.(flag.project, flag.name)) !== undefined) {
    fixes.push({ title: `Open ${shown(flag.name)} in Unleash`, kind: 'command', command: Commands.openInWebUi, args });
  }
  fixes.push({ title: `Copy flag name ${shown(flag.name)}`, kind: 'command', command: Commands.copyFlagName, args });
  return fixes;
}
