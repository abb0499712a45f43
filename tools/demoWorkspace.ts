/** demo/workspace, and fresh copies of it for the demo and the e2e tests. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const DEMO_WORKSPACE = path.resolve(__dirname, '..', 'demo', 'workspace');

/** A fresh copy of demo/workspace (sources in several languages and the `.unleash/*.json` export files). */
export function copyDemoWorkspace(prefix = 'e2e-workspace-'): { dir: string; remove(): void } {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dir = path.join(parent, 'demo-workspace');
  fs.cpSync(DEMO_WORKSPACE, dir, { recursive: true });
  return { dir, remove: () => fs.rmSync(parent, { recursive: true, force: true }) };
}
