/**
 * Bundles the in-editor suite (test/e2e/suite/index.ts) into one CommonJS file with `vscode` external, the way
 * the extension itself is bundled (esbuild.js), so the extension host can `require` it.
 *
 *   npx tsx test/e2e/build.ts        → out/e2e/suite.js
 */
import * as path from 'node:path';
import { build } from 'esbuild';
import { bundleOptions } from '../../esbuild';
import { ROOT } from '../../tools/vsix';
import { OUT_DIR } from './support';

const SUITE_ENTRY = path.join(__dirname, 'suite', 'index.ts');
const SUITE_BUNDLE = path.join(OUT_DIR, 'suite.js');

export async function buildSuite(outfile: string = SUITE_BUNDLE): Promise<string> {
  await build({ ...bundleOptions(false), sourcemap: 'inline', entryPoints: [SUITE_ENTRY], outfile, absWorkingDir: ROOT });
  return outfile;
}

if (require.main === module) {
  buildSuite().then(
    (file) => console.log(`suite: ${path.relative(ROOT, file)}`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
