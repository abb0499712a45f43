// Where the host's own installation lives (node tools/editor/install.mjs puts code-server and playwright-core there).

/** tools/editor: where package.json and node_modules (code-server, playwright-core) live. */
export const HOST_DIR = __dirname;

/** What to do when something the host needs is not installed. */
export const INSTALL_HINT = 'run `node tools/editor/install.mjs` first';
