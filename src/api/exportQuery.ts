/**
 * Which flags an export covers, the request body that asks the server for them, and the check a tag scope needs: a
 * real server exports a tag scope by the tag's value alone, whatever its type.
 */
import type { ExportResult } from './exportSchemas';

/** Which flags an export covers. A tag is `type:value`, matched exactly. */
export type ExportScope =
  | { kind: 'all' }
  | { kind: 'features'; names: string[] }
  | { kind: 'project'; project: string }
  | { kind: 'tag'; type: string; value: string };

export interface ExportQuery {
  environment: string;
  scope: ExportScope;
}

/** The export request's body for a query; undefined when the query names no flag (the export is empty). */
export function exportBody(query: ExportQuery): Record<string, unknown> | undefined {
  const { environment, scope } = query;
  const base = { environment, downloadFile: true };
  switch (scope.kind) {
    case 'all':
      return { ...base, features: [] };
    case 'features':
      return scope.names.length ? { ...base, features: scope.names } : undefined;
    case 'project':
      return { ...base, project: scope.project };
    case 'tag':
      return { ...base, tag: scope.value };
  }
}

/**
 * Given the flags an export of a tag scope holds and its tag rows: undefined when every flag carries exactly
 * `type:value`, else the flags that do (sorted; maybe none), to export instead.
 */
export function onlyTagged(
  tag: { type: string; value: string },
  features: readonly string[],
  rows: ReadonlyArray<{ featureName: string; type?: string; value: string }>,
): string[] | undefined {
  const tagged = new Set(rows.filter((row) => row.type === tag.type && row.value === tag.value).map((row) => row.featureName));
  return features.every((name) => tagged.has(name)) ? undefined : [...tagged].sort();
}

/** The export of no flag. */
export function emptyExport(): ExportResult {
  return { features: [], featureStrategies: [], featureEnvironments: [], featureTags: [], tagTypes: [] };
}
