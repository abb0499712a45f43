/**
 * "Unleash: Check Tag…": does the tag `type:value` exist? Asks the server (get-tag), or, in offline mode, the export
 * files in the workspace (and says so).
 */
import * as vscode from 'vscode';
import type { UnleashClient } from '../api/client';
import type { FeatureSummary } from '../api/schemas';
import type { FlagStore } from '../model/store/flagStore';
import { Commands } from '../base/constants';
import {
  checkTagExists,
  closestTag,
  distinctTags,
  edgeSpaceNote,
  formatTag,
  tagForMessage,
  tagFromArgument,
  type TagRef,
} from '../model/tags/tagInput';
import { inertText, pickText } from '../model/text/markdown';
import { listCompleteness, tagExistsMessage } from '../model/tags/tagAnswer';
import { pluralForm } from '../model/text/intl';
import { MAX_DETAIL } from '../model/text/plainText';
import { failWith, isOffline, requireServer, withCancellableProgress, type CommandDeps, type CommandFailure } from './commandHelpers';
import { loadTagTypes, pickTag } from './tagPicker';

interface CheckTagDeps extends CommandDeps {
  /** Also how complete the list is: an answer counts the flags carrying the tag against what the view could read. */
  store: CommandDeps['store'] & Pick<FlagStore, 'state' | 'error' | 'failures' | 'outOfDate' | 'currentSource'>;
}

/** The answer, returned to programmatic callers (keybindings, tests). */
interface CheckTagAnswer {
  exists: boolean;
  /** `type:value`. */
  tag: string;
  /** The sentence shown to the user. */
  message: string;
  /** Names of the flags in the Flags view that carry the tag, sorted. */
  flags: string[];
  /** Who answered: the server, or the export files of the workspace (offline mode). */
  source: 'server' | 'files';
  /** A known tag a typo away, after a miss. */
  suggestion?: string;
}

/** Why there is no answer: invalid input, no server, a failed request, or a cancellation. */
interface CheckTagFailure extends CommandFailure {
  tag?: string;
}

type CheckTagResult = CheckTagAnswer | CheckTagFailure;

/**
 * Also runs programmatically, with no prompt, and returns its answer:
 *   await vscode.commands.executeCommand('unleash.checkTag', 'team:payments')
 *   await vscode.commands.executeCommand('unleash.checkTag', { type: 'simple', value: 'needs review' })
 */
export function registerCheckTagCommand(deps: CheckTagDeps): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.checkTag, (argument?: unknown) => checkTag(deps, argument));
}

/** With an argument: no prompt. Without: the picker. Undefined when the user dismissed the picker. */
async function checkTag(deps: CheckTagDeps, argument: unknown): Promise<CheckTagResult | undefined> {
  await deps.connection.settled();
  // The answer names the flags carrying the tag and suggests known tags: start reading the list now.
  void deps.store.load();
  let tag: TagRef;
  if (argument !== undefined) {
    const parsed = tagFromArgument(argument);
    if (!parsed.ok) {
      void vscode.window.showWarningMessage(parsed.message);
      return { error: parsed.message };
    }
    tag = parsed.tag;
  } else {
    const client = deps.connection.state.source?.kind === 'server' ? deps.connection.serverClient() : undefined;
    const picked = await pickTag({
      title: vscode.l10n.t('Unleash: Check Tag'),
      tagTypes: client && loadTagTypes(client, deps.logger),
      knownTags: distinctTags(deps.store.catalog.flags),
      prefer: 'types',
      valueAction: vscode.l10n.t('Check'),
    });
    if (!picked) return undefined;
    tag = picked;
  }
  return answer(deps, tag);
}

async function answer(deps: CheckTagDeps, tag: TagRef): Promise<CheckTagResult> {
  await deps.store.load();
  if (isOffline(deps)) return askFiles(deps, tag);
  const shown = tagForMessage(tag);
  const server = await requireServer(
    deps,
    { action: vscode.l10n.t('check the tag {0}', shown), retry: () => checkTag(deps, tag) },
    () => vscode.l10n.t('Cannot check the tag {0}: no Unleash server is connected, and the workspace has no export files (.unleash/*.json) to answer from.', shown),
  );
  if ('error' in server) return { ...server, tag: formatTag(tag) };
  return askServer(deps, server, tag);
}

async function askServer(deps: CheckTagDeps, client: UnleashClient, tag: TagRef): Promise<CheckTagResult> {
  const shown = tagForMessage(tag);
  let found: boolean;
  try {
    found = await withCancellableProgress(vscode.l10n.t('Checking tag {0} on {1}…', shown, client.baseUrl.host), async (signal) => {
      const check = await checkTagExists(client, tag, { signal });
      return check.ok && check.exists;
    });
  } catch (error) {
    const context = { action: vscode.l10n.t('check the tag {0}', shown), server: client.baseUrl.host, retry: () => checkTag(deps, tag) };
    return { ...failWith(error, deps.logger, context), tag: formatTag(tag) };
  }

  const flags = flagsWithTag(deps, tag);
  if (found) return present(deps, tag, tagExistsMessage(shown, flags.length, listCompleteness(deps.store)), flags, 'server');
  return missing(deps, tag, vscode.l10n.t('No tag {0} on {1}.', shown, client.baseUrl.host), 'server');
}

/** The answer, and when the value starts or ends with spaces, that they are part of the tag (they are easily missed). */
function withEdgeSpaces(tag: TagRef, sentence: string): string {
  const note = edgeSpaceNote(tag);
  return note ? `${sentence} ${note}` : sentence;
}

/** Offline mode: the export files' tags are all there is; a tag no flag carries cannot be seen. */
function askFiles(deps: CheckTagDeps, tag: TagRef): CheckTagResult {
  const shown = tagForMessage(tag);
  const flags = flagsWithTag(deps, tag);
  const offline = vscode.l10n.t('No server is connected: this answer comes from the export files in the workspace.');
  const count = flags.length;
  if (count) {
    const message = pluralForm(count, {
      one: vscode.l10n.t('Tag {0} exists in the export files ({1} flag carries it). {2}', shown, count, offline),
      other: vscode.l10n.t('Tag {0} exists in the export files ({1} flags carry it). {2}', shown, count, offline),
    });
    return present(deps, tag, message, flags, 'files');
  }
  return missing(deps, tag, vscode.l10n.t('No tag {0} in the export files. {1}', shown, offline), 'files');
}

function present(deps: CheckTagDeps, tag: TagRef, answer: string, flags: FeatureSummary[], source: 'server' | 'files'): CheckTagAnswer {
  const text = formatTag(tag);
  const message = withEdgeSpaces(tag, answer);
  deps.logger.info(message);
  const copyLabel = vscode.l10n.t('Copy');
  const showLabel = vscode.l10n.t('Show Flags');
  const actions = flags.length ? [copyLabel, showLabel] : [copyLabel];
  void vscode.window.showInformationMessage(message, ...actions).then((picked) => {
    if (picked === copyLabel) void copy(text);
    if (picked === showLabel) void showFlags(text, flags);
  });
  return { exists: true, tag: text, message, flags: flagNames(flags), source };
}

function missing(deps: CheckTagDeps, tag: TagRef, sentence: string, source: 'server' | 'files'): CheckTagAnswer {
  const text = formatTag(tag);
  const near = closestTag(tag, distinctTags(deps.store.catalog.flags));
  const suggestion = near ? formatTag(near) : undefined;
  const answer = withEdgeSpaces(tag, sentence);
  const message = near ? vscode.l10n.t('{0} Did you mean {1}?', answer, tagForMessage(near)) : answer;
  deps.logger.info(message);
  const connectLabel = vscode.l10n.t('Connect…');
  const actions = near ? [vscode.l10n.t('Check {0}', tagForMessage(near))] : [];
  if (source === 'files') actions.push(connectLabel);
  void vscode.window.showWarningMessage(message, ...actions).then((picked) => {
    if (picked === connectLabel) void vscode.commands.executeCommand(Commands.connect);
    else if (picked && near) void checkTag(deps, near);
  });
  return { exists: false, tag: text, message, flags: [], source, ...(suggestion ? { suggestion } : {}) };
}

function flagsWithTag(deps: CheckTagDeps, tag: TagRef): FeatureSummary[] {
  return deps.store.catalog.withTag(tag.type, tag.value);
}

function flagNames(flags: readonly FeatureSummary[]): string[] {
  return [...new Set(flags.map((flag) => flag.name))].sort();
}

async function copy(text: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', inertText(text, 80)), 3000);
}

/** The flags carrying the tag; the picked one is revealed in the Flags view. */
async function showFlags(text: string, flags: readonly FeatureSummary[]): Promise<void> {
  const picked = await vscode.window.showQuickPick(
    flags.map((flag) => ({
      label: pickText(flag.name),
      description: pickText(flag.project ?? 'default'),
      detail: flag.description ? pickText(flag.description, MAX_DETAIL) : undefined,
      flag,
    })),
    {
      title: vscode.l10n.t('Flags with tag {0}', pickText(text)),
      placeHolder: vscode.l10n.t('Pick a flag to reveal it in the Flags view'),
      matchOnDescription: true,
    },
  );
  if (picked) {
    await vscode.commands.executeCommand(Commands.revealFlag, { project: picked.flag.project ?? 'default', name: picked.flag.name });
  }
}
