/**
 * An export that could not be written, in words that say why and what to do. Apart from exportToFile.ts (the
 * pipeline, in the core bundle) so that the error formatter knows it without loading the pipeline (and without
 * Node's path module: the browser build formats errors too).
 */
import * as l10n from '@vscode/l10n';

/** The file could not be written (a read-only folder, a full disk, a parent that is a file…). */
export class ExportWriteError extends Error {
  readonly path: string;
  readonly code?: string;
  /** `shown`: the file's path as people read it (exportPath.ts displayPath). */
  constructor(file: string, shown: string, cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code;
    const codeText = typeof code === 'string' ? code : undefined;
    super(l10n.t('Could not write {0}: {1}. The previous file, if any, was left as it was.', shown, reasonFor(codeText, cause)));
    this.name = 'ExportWriteError';
    this.path = file;
    this.code = codeText;
  }
}

function reasonFor(code: string | undefined, cause: unknown): string {
  switch (code) {
    case 'ESCAPE':
      return l10n.t('its folder is a link that leads outside the workspace folder; exports stay inside it');
    case 'ELOOP':
      return l10n.t('a symbolic link is there; an export replaces only a regular file (remove the link, or change unleash.export.path)');
    case 'ENOTREG':
      return l10n.t('something other than a regular file is there (a device, a pipe or a socket); remove it, or change unleash.export.path');
    case 'ENOTDIR':
    case 'EEXIST':
      return l10n.t('a part of its folder path is a file, not a folder');
    case 'EISDIR':
      return l10n.t('a folder has that name');
    case 'EACCES':
    case 'EPERM':
      return l10n.t('permission denied (is the folder read-only?)');
    case 'EROFS':
      return l10n.t('the file system is read-only');
    case 'ENOSPC':
      return l10n.t('the disk is full');
    case 'EDQUOT':
      return l10n.t('the disk quota is used up');
    case 'ENAMETOOLONG':
      return l10n.t('the path is too long');
    default: {
      const message = cause instanceof Error ? cause.message : String(cause);
      return code ? `${code}: ${message}` : message;
    }
  }
}
