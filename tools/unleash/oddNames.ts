/**
 * A project a real Unleash cannot list per project: flags named like `Object.prototype` keys (`constructor`,
 * `toString`) make its `GET /api/admin/projects/:id/features` answer 500 (the server keys a plain object by flag
 * name), while the search lists them. Made on a server of its own, never on the shared seeded one: its flags would
 * change what every other test counts. Used by test/contract/failingProject.contract.test.ts and the e2e phase
 * `oddNames`.
 */
import type { RealUnleash } from './index';
import { adminClient } from './seed';

export const ODD_NAMES = {
  project: 'odd',
  /** Ordinary flags of `default`. */
  defaultFlags: ['alpha', 'beta'],
  /** The flags of `odd`, by name. */
  oddFlags: ['constructor', 'gamma', 'toString'],
  /** What the server answers for the listing of `odd`, with 500. */
  serverMessage: "Cannot read properties of undefined (reading 'some')",
} as const;

/** Creates the project `odd` (SQL: open-source Unleash has no endpoint for it) and the flags of ODD_NAMES. */
export async function createOddNames(unleash: Pick<RealUnleash, 'url' | 'adminToken' | 'postgres'>): Promise<void> {
  await unleash.postgres.psql(
    [
      'BEGIN;',
      "INSERT INTO projects (id, name, description) VALUES ('odd', 'Odd names', 'Flags named like Object.prototype keys');",
      "INSERT INTO project_settings (project, default_stickiness, project_mode) VALUES ('odd', 'default', 'open');",
      "INSERT INTO project_environments (project_id, environment_name) VALUES ('odd', 'development'), ('odd', 'production');",
      'COMMIT;',
    ].join('\n'),
  );
  const api = adminClient(unleash.url, unleash.adminToken);
  for (const name of ODD_NAMES.defaultFlags) await api.call('POST', '/api/admin/projects/default/features', { name, type: 'release' });
  for (const name of ODD_NAMES.oddFlags) await api.call('POST', `/api/admin/projects/${ODD_NAMES.project}/features`, { name, type: 'release' });
}
