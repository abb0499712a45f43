// Where the host's own installation lives (node test/e2e/host/install.mjs puts code-server and playwright-core there).

/** test/e2e/host: where package.json and node_modules (code-server, playwright-core) live. */
export const HOST_DIR = __dirname;

/** What to do when something the host needs is not installed. */
export const INSTALL_HINT = 'run `node test/e2e/host/install.mjs` first';
