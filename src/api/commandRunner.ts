/**
 * Runs a program of the operating system (the certificate store readers) bounded: no shell, stdin closed, killed past
 * a timeout or once its output passes a size; a failure is an Error saying why.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';

/** Runs `file` with `args` (no shell) and resolves to its stdout; rejects with a readable reason. */
export type CommandRunner = (file: string, args: readonly string[], limits: { timeoutMs: number; maxBytes: number }) => Promise<string>;

/**
 * The default runner: execFile without a shell, stdin closed, killed (SIGKILL) past `timeoutMs` or once stdout
 * exceeds `maxBytes`. Rejects with an Error whose message says why (not found, timed out, too much output, exit code).
 */
export const runCommand: CommandRunner = (file, args, { timeoutMs, maxBytes }) =>
  new Promise((resolve, reject) => {
    const name = path.basename(file);
    let child: ReturnType<typeof execFile>;
    try {
      child = execFile(
        file,
        [...args],
        { encoding: 'utf8', shell: false, windowsHide: true, timeout: timeoutMs, maxBuffer: maxBytes, killSignal: 'SIGKILL' },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          const failure = error as NodeJS.ErrnoException & { killed?: boolean; signal?: NodeJS.Signals | null; code?: string | number | null };
          if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return reject(new Error(`${name} printed more than ${maxBytes} bytes`));
          if (failure.code === 'ENOENT') return reject(new Error(`${file} not found`));
          if (failure.killed) return reject(new Error(`${name} did not finish within ${timeoutMs} ms (killed)`));
          if (failure.signal) return reject(new Error(`${name} was ended by ${failure.signal}`));
          const detail = String(stderr).trim().split(/\r?\n/)[0]?.slice(0, 200);
          if (typeof failure.code === 'number') return reject(new Error(`${name} exited with code ${failure.code}${detail ? `: ${detail}` : ''}`));
          reject(new Error(`${name}: ${failure.code ?? failure.message}`));
        },
      );
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    child.stdin?.on('error', () => undefined);
    child.stdin?.end();
  });

/** What a failure says: its message. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
