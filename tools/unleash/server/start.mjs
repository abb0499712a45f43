// Entry point of the real Unleash server used by the contract tests.
// Started by ../harness/unleash.ts (or ../local.ts) as `node start.mjs`; every
// setting comes from environment variables so that nothing here is machine specific.
//
//   CONTRACT_SERVER_DIR    the folder whose node_modules holds the unleash-server to run
//                          (default: this one, 7.5.1; ../server-8 for 8.2.0, run with its Node 22)
//   CONTRACT_DB_HOST       PostgreSQL host              (default 127.0.0.1)
//   CONTRACT_DB_PORT       PostgreSQL port              (required)
//   CONTRACT_DB_USER       PostgreSQL role              (default unleash)
//   CONTRACT_DB_PASSWORD   PostgreSQL password          (default empty: trust auth)
//   CONTRACT_DB_NAME       PostgreSQL database          (default unleash)
//   CONTRACT_HTTP_PORT     HTTP port on 127.0.0.1       (required)
//   CONTRACT_ADMIN_TOKEN   secret of the initial admin API token (required, e.g. "*:*.abc")
//   CONTRACT_ADMIN_PASSWORD password of the `admin` user (default unleash4all)
//   CONTRACT_LOG_LEVEL     Unleash log level            (default warn)
//   CONTRACT_WATCH_PARENT  "1": exit when the process that started us goes away
//
// The caller is expected to also set NODE_ENV=production, SEND_TELEMETRY=false,
// CHECK_VERSION=false and UNLEASH_EXPERIMENTAL_ENABLE_LEGACY_VARIANTS=true.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

// unleash-server's `exports` is a single path, so a require-resolve finds its entry point from any folder.
const serverDir = process.env.CONTRACT_SERVER_DIR || fileURLToPath(new URL('.', import.meta.url));
const { start } = await import(pathToFileURL(createRequire(`${serverDir}/package.json`).resolve('unleash-server')).href);

function required(name) {
    const value = process.env[name];
    if (!value) {
        console.error(`start.mjs: environment variable ${name} is required`);
        process.exit(2);
    }
    return value;
}

const dbPort = Number(required('CONTRACT_DB_PORT'));
const httpPort = Number(required('CONTRACT_HTTP_PORT'));
const adminToken = required('CONTRACT_ADMIN_TOKEN');

const unleash = await start({
    db: {
        host: process.env.CONTRACT_DB_HOST || '127.0.0.1',
        port: dbPort,
        user: process.env.CONTRACT_DB_USER || 'unleash',
        password: process.env.CONTRACT_DB_PASSWORD || '',
        database: process.env.CONTRACT_DB_NAME || 'unleash',
        ssl: false,
    },
    server: { host: '127.0.0.1', port: httpPort },
    logLevel: process.env.CONTRACT_LOG_LEVEL || 'warn',
    authentication: {
        type: 'open-source',
        enableApiToken: true,
        createAdminUser: true,
        initialAdminUser: {
            username: 'admin',
            password: process.env.CONTRACT_ADMIN_PASSWORD || 'unleash4all',
        },
        initApiTokens: [
            {
                type: 'admin',
                secret: adminToken,
                projects: ['*'],
                environment: '*',
                tokenName: 'admin',
            },
        ],
    },
    // Never talk to anything but 127.0.0.1: no version check, no telemetry.
    versionCheck: { enable: false, url: 'http://127.0.0.1:9/version-check-disabled' },
    telemetry: false,
});

let stopping = false;
async function shutdown(signal) {
    if (stopping) return;
    stopping = true;
    // Do not hang forever on a stuck pool: exit anyway after 5 s.
    setTimeout(() => process.exit(0), 5000).unref();
    try {
        await unleash.stop();
    } catch (err) {
        // 7.5.1's stop() closes its HTTP server twice and then rejects with
        // ERR_SERVER_NOT_RUNNING; the server is down by then, so that one is not worth a line.
        if (err?.code !== 'ERR_SERVER_NOT_RUNNING') {
            console.error(`start.mjs: error while stopping after ${signal}:`, err);
        }
    }
    process.exit(0);
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));

if (process.env.CONTRACT_WATCH_PARENT === '1') {
    // If the test process dies without cleaning up (e.g. SIGKILL), do not linger.
    const parent = process.ppid;
    setInterval(() => {
        if (process.ppid !== parent) shutdown('parent-exit');
    }, 1000).unref();
}
