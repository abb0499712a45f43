/** The address of a flag's details document (the `unleash-flag` scheme): the flag name as the tab's title. */
import * as vscode from 'vscode';
import { FLAG_DETAILS_SCHEME } from '../base/constants';
import type { FlagRef } from '../model/tree/node';
import { flagName } from '../model/text/flagText';

/** The document of a flag: the flag name as the tab's title, project and name in the query. */
export function flagDetailsUri(flag: FlagRef): vscode.Uri {
  const title = flagName(flag.name, 80).replace(/[/\\]/g, '∕') || 'flag';
  const query = new URLSearchParams({ project: flag.project, name: flag.name }).toString();
  return vscode.Uri.from({ scheme: FLAG_DETAILS_SCHEME, path: `/${title}.txt`, query });
}

export function flagOfUri(uri: vscode.Uri): FlagRef | undefined {
  const params = new URLSearchParams(uri.query);
  const project = params.get('project');
  const name = params.get('name');
  return project !== null && name !== null ? { project, name } : undefined;
}
