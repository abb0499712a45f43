/**
 * Where an export is written: the rules that turn the `unleash.export.path` setting into a file path that is safe
 * on every platform and can never leave the chosen folder.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import type { ExportScope } from '../../api/exportQuery';
import { DEFAULT_EXPORT_PATH_TEMPLATE } from '../../base/constants';
import { INVISIBLE } from '../../base/invisible';
import { EXPORT_PATH_SETTING, ExportPathError } from './exportPathError';
import { formatTag } from '../tags/tagInput';

/**
 * Where the default template puts an export of part of an environment (a project, a tag, chosen flags), so that it
 * never replaces the whole environment's file.
 */
const PARTIAL_EXPORT_PATH_TEMPLATE = '.unleash/${environment}.${scope}.json';

/** The longest a substituted value may be, in UTF-8 bytes, before it is shortened (with a hash suffix). */
const MAX_FILE_COMPONENT_BYTES = 100;

// Path separators and the characters Windows forbids (invisible characters are replaced too: INVISIBLE).
const UNSAFE_CHARS = /[/\\<>:"|?*]/g;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
function truncateUtf8(text: string, maxBytes: number): string {
  let out = '';
  let bytes = 0;
  for (const char of text) {
    const size = utf8Length(char);
    if (bytes + size > maxBytes) break;
    out += char;
    bytes += size;
  }
  return out;
}

/** `text` without trailing dots and white space; a loop, as `/[\s.]+$/` is quadratic on a long run of dots. */
function trimDotsAndSpacesEnd(text: string): string {
  let end = text.length;
  while (end > 0 && /[\s.]/.test(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

/**
 * Turns any value (an environment, project…) into one safe file-name component: no separators, NUL, control,
 * bidi or other invisible characters, none of `<>:"|?*`, no leading dots (so no `..` or hidden files), no trailing
 * dots or spaces, no Windows device name (`CON`, `nul.txt` → `_CON`, `_nul.txt`), at most `maxBytes` UTF-8 bytes (a longer
 * value is cut and gets `~` plus 8 hex digits of its SHA-256 so two long values stay distinct), never empty (`_`).
 */
export function sanitizeFileComponent(value: string, maxBytes: number = MAX_FILE_COMPONENT_BYTES): string {
  let name = value.normalize('NFC').replace(INVISIBLE, '_').replace(UNSAFE_CHARS, '_');
  name = trimDotsAndSpacesEnd(name.replace(/^[\s.]+/u, ''));
  if (utf8Length(name) > maxBytes) {
    const hash = createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 8);
    const suffix = `~${hash}`;
    name = trimDotsAndSpacesEnd(truncateUtf8(name, Math.max(1, maxBytes - suffix.length))) + suffix;
  }
  const stem = name.split('.')[0] ?? '';
  if (WINDOWS_RESERVED.test(stem.trim())) name = `_${name}`;
  return name === '' ? '_' : name;
}

interface ExportPathOptions {
  /** The `unleash.export.path` value; empty means `DEFAULT_EXPORT_PATH_TEMPLATE`. */
  template: string;
  /** Absolute path of the workspace folder the file must stay inside. */
  folder: string;
  environment: string;
  /** Substituted for `${project}`; `all` when absent or empty. */
  project?: string;
  /** Substituted for `${scope}` (what was exported, e.g. a project or a tag); `all` when absent or empty. */
  scope?: string;
}

const VARIABLE = /\$\{([^}]*)\}/g;
const KNOWN_VARIABLES = ['environment', 'project', 'scope', 'workspaceFolder'];

/**
 * The absolute file path for an export. With the default template, an export of part of an environment goes to
 * `PARTIAL_EXPORT_PATH_TEMPLATE` instead. Variables: `${environment}`, `${project}`, `${scope}` (each value made safe
 * with `sanitizeFileComponent`) and `${workspaceFolder}` (only at the start). A relative template is relative to
 * `folder`; `\` counts as a separator on every platform. A template ending in `/` names a folder and gets
 * `${environment}.json`; a file name without an extension gets `.json`. Throws `ExportPathError` (naming
 * `unleash.export.path`) for an unknown variable, or when the path would not be inside `folder`.
 */
export function resolveExportPath(options: ExportPathOptions): string {
  const folder = path.resolve(options.folder);
  const given = options.template.trim() === '' ? DEFAULT_EXPORT_PATH_TEMPLATE : options.template.trim();
  const partial = Boolean(options.scope) && options.scope !== 'all';
  const raw = given === DEFAULT_EXPORT_PATH_TEMPLATE && partial ? PARTIAL_EXPORT_PATH_TEMPLATE : given;
  const fail = (why: string): never => {
    throw new ExportPathError(l10n.t('The setting "{0}" ({1}) is invalid: {2}', EXPORT_PATH_SETTING, JSON.stringify(raw), why));
  };
  if (raw.includes('\0')) fail(l10n.t('it contains a NUL character.'));

  let template = raw.replace(/\\/g, '/');
  for (const match of template.matchAll(VARIABLE)) {
    const name = match[1] ?? '';
    if (!KNOWN_VARIABLES.includes(name)) {
      fail(l10n.t('unknown variable "{0}"; use {1}, {2}, {3} or {4}.', `\${${name}}`, '${environment}', '${project}', '${scope}', '${workspaceFolder}'));
    }
    if (name === 'workspaceFolder' && match.index !== 0) fail(l10n.t('{0} may only appear at the start.', '${workspaceFolder}'));
  }
  if (template.startsWith('${workspaceFolder}')) {
    template = template.slice('${workspaceFolder}'.length).replace(/^\/+/, '') || '.';
  }

  const segments = template.split('/');
  const last = segments[segments.length - 1] ?? '';
  if (last === '' || last === '.' || last === '..') {
    template = `${template.replace(/\/+$/, '')}/\${environment}.json`;
  } else if (!/\.[^./${}]+$/.test(last)) {
    template = `${template}.json`;
  }

  const values: Record<string, string> = {
    environment: sanitizeFileComponent(options.environment),
    project: sanitizeFileComponent(options.project ? options.project : 'all'),
    scope: sanitizeFileComponent(options.scope ? options.scope : 'all'),
  };
  const substituted = template.replace(VARIABLE, (_whole, name: string) => values[name] ?? '_');
  const resolved = path.resolve(folder, substituted);

  const relative = path.relative(folder, resolved);
  const outside = relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  if (outside) {
    fail(
      l10n.t(
        'it resolves to {0}, which is not a file inside the workspace folder {1}. Use a path relative to the workspace folder, such as {2}.',
        JSON.stringify(resolved),
        JSON.stringify(folder),
        JSON.stringify(DEFAULT_EXPORT_PATH_TEMPLATE),
      ),
    );
  }
  return resolved;
}

/** What `${project}` and `${scope}` become in the path template for a scope. */
export function scopeNames(scope: ExportScope): { project?: string; scope: string } {
  switch (scope.kind) {
    case 'all':
      return { scope: 'all' };
    case 'project':
      return { project: scope.project, scope: scope.project };
    case 'tag':
      return { scope: formatTag(scope) };
    case 'features':
      return { scope: scope.names.length === 1 ? (scope.names[0] ?? 'selected') : 'selected' };
  }
}

/** The file's path inside the workspace folder, as people read it (else the whole path). */
export function displayPath(file: string, folder: string): string {
  const relative = path.relative(folder, file);
  return relative && !relative.startsWith('..') ? relative.split(path.sep).join('/') : file;
}
