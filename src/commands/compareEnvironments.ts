/**
 * "Unleash: Compare Environments…": VS Code's diff editor between two environments' configurations of one flag, or of
 * every flag of a project (at most MAX_COMPARED_FLAGS, by name), in the readable layout of the details document:
 * state, strategies, constraints, segments, variants. Reads through the store (its cache, its source).
 */
import * as vscode from 'vscode';
import type { Segment } from '../api/schemas';
import type { CancellationLike } from '../base/emitter';
import { Commands, ENVIRONMENT_SCHEME } from '../base/constants';
import { environmentText, type ComparedFlag } from '../model/content/environmentComparison';
import type { FlagStore } from '../model/store/flagStore';
import { formatError } from '../model/content/formatError';
import { pickText } from '../model/text/markdown';
import { flagPickItems, isTreeNode } from '../model/tree/commandData';
import { projectOf, type FlagRef } from '../model/tree/node';
import type { Logger } from '../base/logger';
import type { FlagsView } from '../views/flagsTree';
import { failWith, withCancellableProgress } from './commandHelpers';
import { RecentDocuments } from './recentDocuments';
import { DisposableStore } from '../services/disposables';

/** Flags of a project compared at most (each is read, with the segments of its strategies). */
const MAX_COMPARED_FLAGS = 200;
/** Details read at once. */
const CONCURRENCY = 4;

interface CompareEnvironmentsDeps {
  store: FlagStore;
  view: Pick<FlagsView, 'selected'>;
  logger: Logger;
}

interface EnvironmentComparison {
  environments: [string, string];
  left: string;
  right: string;
  /** How many flags are compared, and how many the project holds. */
  flags: number;
  of: number;
}

type Target = { flag: FlagRef } | { project: string };

/** The two sides of the last few comparisons. */
type Sides = RecentDocuments<{ text: string }>;

/**
 * The command takes a tree row, `{ project, name }` or `{ project }`, and `environments` (else it asks):
 *   await vscode.commands.executeCommand('unleash.compareEnvironments', { project: 'checkout', environments: ['development', 'production'] })
 */
export function registerCompareEnvironments(deps: CompareEnvironmentsDeps): vscode.Disposable {
  const sides: Sides = new RecentDocuments(ENVIRONMENT_SCHEME, 10, () =>
    vscode.l10n.t('This comparison is closed. Run "Unleash: Compare Environments…" again.'),
  );
  return new DisposableStore(
    sides.register(),
    vscode.commands.registerCommand(Commands.compareEnvironments, (arg?: unknown) => compareEnvironments(deps, sides, arg)),
  );
}

/** A flag or a project from an argument: a tree row, `{ project, name }`, `{ project }`; else the selection or a pick. */
async function targetOf(deps: CompareEnvironmentsDeps, arg: unknown): Promise<Target | undefined> {
  const node = isTreeNode(arg) ? arg : arg === undefined ? deps.view.selected() : undefined;
  if (node?.flag) return { flag: node.flag };
  if (node?.kind === 'project' && node.project !== undefined) return { project: node.project };
  if (typeof arg === 'object' && arg !== null && !isTreeNode(arg)) {
    const given = arg as { project?: unknown; name?: unknown };
    if (typeof given.project === 'string' && typeof given.name === 'string') return { flag: { project: given.project, name: given.name } };
    if (typeof given.project === 'string') return { project: given.project };
  }
  const projects = deps.store.catalog.projects().map((project) => ({
    label: `$(project) ${pickText(project || vscode.l10n.t('(no project)'))}`,
    description: vscode.l10n.t('every flag of the project'),
    target: { project } as Target,
  }));
  const flags = flagPickItems(deps.store).map((item) => ({ ...item, target: { flag: item.flag } as Target }));
  const picked = await vscode.window.showQuickPick([...projects, ...flags], {
    title: vscode.l10n.t('Unleash: Compare Environments'),
    placeHolder: vscode.l10n.t('A flag, or a project to compare all its flags'),
    matchOnDescription: true,
  });
  return picked?.target;
}

async function environmentsOf(arg: unknown, known: string[]): Promise<[string, string] | undefined> {
  const given = typeof arg === 'object' && arg !== null ? (arg as { environments?: unknown }).environments : undefined;
  if (Array.isArray(given) && given.length === 2 && given.every((env) => typeof env === 'string')) return [given[0] as string, given[1] as string];
  if (known.length < 2) {
    void vscode.window.showInformationMessage(vscode.l10n.t('There is only one environment to compare: {0}.', pickText(known[0] ?? vscode.l10n.t('none'))));
    return undefined;
  }
  if (known.length === 2) return [known[0] as string, known[1] as string];
  const pick = async (items: string[], placeHolder: string) =>
    (await vscode.window.showQuickPick(items.map((env) => ({ label: pickText(env), env })), { title: vscode.l10n.t('Unleash: Compare Environments'), placeHolder }))?.env;
  const first = await pick(known, vscode.l10n.t('The first environment (left)'));
  if (first === undefined) return undefined;
  const second = await pick(known.filter((env) => env !== first), vscode.l10n.t('Compare {0} with (right)', first));
  return second === undefined ? undefined : [first, second];
}

async function compareEnvironments(deps: CompareEnvironmentsDeps, sides: Sides, arg: unknown): Promise<EnvironmentComparison | { error: string } | undefined> {
  await deps.store.load();
  const target = await targetOf(deps, arg);
  if (!target) return undefined;
  const flags = 'flag' in target ? [target.flag] : deps.store.catalog.flags.filter((flag) => projectOf(flag) === target.project).map((flag) => ({ project: projectOf(flag), name: flag.name }));
  if (flags.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Project {0} holds no flags to compare.', pickText('project' in target ? target.project : '')));
    return undefined;
  }
  const compared = flags.slice(0, MAX_COMPARED_FLAGS);
  const title = 'flag' in target ? target.flag.name : vscode.l10n.t('project {0}', target.project);
  const server = deps.store.currentSource?.label;
  let read: { flags: ComparedFlag[]; segments: Map<string, Segment[]> };
  try {
    read = await withCancellableProgress(vscode.l10n.t('Reading {0} to compare environments', pickText(title, 100)), (signal) =>
      readFlags(deps.store, compared, tokenOf(signal), 'flag' in target),
    );
  } catch (error) {
    return failWith(error, deps.logger, { action: vscode.l10n.t('read {0}', pickText(title, 100)), server, retry: () => compareEnvironments(deps, sides, arg) });
  }
  const first = read.flags[0];
  const known = 'flag' in target ? (first && 'feature' in first ? (first.feature.environments ?? []).map((env) => env.name) : []) : [...deps.store.catalog.environments()];
  const environments = await environmentsOf(arg, known);
  if (!environments) return undefined;
  const [a, b] = environments;
  const left = environmentText(read.flags, a, read.segments);
  const right = environmentText(read.flags, b, read.segments);
  if (flags.length > compared.length) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Comparing the first {0} of the {1} flags of project {2} (by name).', compared.length, flags.length, pickText('project' in target ? target.project : '')),
    );
  }
  await vscode.commands.executeCommand('vscode.diff', sides.add(`${title} · ${a}.txt`, { text: left }), sides.add(`${title} · ${b}.txt`, { text: right }), vscode.l10n.t('{0}: {1} ↔ {2}', pickText(title, 100), a, b), { preview: true });
  return { environments, left, right, flags: compared.length, of: flags.length };
}

/** Strategies whose segments are read; past this, a strategy names its segments by id. */
const MAX_SEGMENT_READS = 500;

/**
 * The details of each flag (CONCURRENCY at a time) and the segments of their strategies. A flag of a project whose
 * details fail shows as such on both sides; one flag alone that fails is the command's error.
 */
async function readFlags(store: FlagStore, flags: readonly FlagRef[], token: CancellationLike, single: boolean): Promise<{ flags: ComparedFlag[]; segments: Map<string, Segment[]> }> {
  const read: ComparedFlag[] = new Array(flags.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < flags.length; i = next++) {
      const flag = flags[i] as FlagRef;
      try {
        read[i] = { feature: await store.feature(flag.project, flag.name, token) };
      } catch (error) {
        if (single || token.isCancellationRequested) throw error;
        read[i] = { name: flag.name, problem: formatError(error, { request: true }).message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, flags.length) }, worker));
  const ids = new Set<string>();
  for (const flag of read) {
    if (!('feature' in flag)) continue;
    for (const env of flag.feature.environments ?? []) for (const strategy of env.strategies ?? []) if (strategy.id && (strategy.segments?.length ?? 0) > 0) ids.add(strategy.id);
  }
  const segments = new Map<string, Segment[]>();
  for (const id of [...ids].slice(0, MAX_SEGMENT_READS)) segments.set(id, await store.strategySegments(id, token));
  return { flags: read, segments };
}

/** An AbortSignal as the store's cancellation token. */
function tokenOf(signal: AbortSignal): CancellationLike {
  return {
    get isCancellationRequested() {
      return signal.aborted;
    },
    onCancellationRequested(listener) {
      signal.addEventListener('abort', listener);
      return { dispose: () => signal.removeEventListener('abort', listener) };
    },
  };
}
