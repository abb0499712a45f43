/**
 * SQL against a server's database, for what the Admin API cannot do: OSS Unleash has no create-project endpoint
 * (POST /api/admin/projects → 404), so the seed and the bench's fill insert their projects.
 */

/** `value` as an SQL string literal. */
export const sqlString = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** Inserts `projects` (open, default stickiness) with every one of `environments` enabled, in one transaction. */
export async function insertProjects(
  psql: (sql: string) => Promise<string>,
  projects: ReadonlyArray<{ id: string; name: string; description: string }>,
  environments: readonly string[],
): Promise<void> {
  if (projects.length === 0) return;
  const statements = projects.flatMap((p) => [
    `INSERT INTO projects (id, name, description) VALUES (${sqlString(p.id)}, ${sqlString(p.name)}, ${sqlString(p.description)});`,
    `INSERT INTO project_settings (project, default_stickiness, project_mode) VALUES (${sqlString(p.id)}, 'default', 'open');`,
    ...environments.map((e) => `INSERT INTO project_environments (project_id, environment_name) VALUES (${sqlString(p.id)}, ${sqlString(e)});`),
  ]);
  await psql(['BEGIN;', ...statements, 'COMMIT;'].join('\n'));
}
