/** The environment an export file holds: from its feature environments, else its file name (`.unleash/<env>.json`). */
import type { ExportResult } from '../../api/exportSchemas';

export function exportEnvironment(result: ExportResult, path: string): string {
  const named = result.featureEnvironments?.find((env) => env.environment)?.environment;
  if (named) return named;
  const base = path.split(/[\\/]/).pop() ?? path;
  return base.replace(/\.json$/i, '');
}
