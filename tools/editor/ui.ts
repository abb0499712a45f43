// Browser-level helpers for a workbench opened with openWorkbench(): what a person would do.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';

interface UiWaitOptions {
  /** Default 15 s. */
  timeoutMs?: number;
}

/**
 * Types `title` into the command palette (F1) and runs the matching command (Enter).
 * The palette lists commands as of when it opened; right after the workbench is drawn the
 * extensions may not be registered yet, so if the command does not show up the palette is
 * closed and opened again until `timeoutMs`.
 */
export async function runCommandFromPalette(page: Page, title: string, options: UiWaitOptions = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  const row = widget.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  const left = (cap: number): number => Math.max(500, Math.min(cap, deadline - Date.now()));
  for (;;) {
    // Focus the workbench (not a webview or an extension's input), then open the palette.
    await page.locator('.monaco-workbench').first().focus().catch(() => undefined);
    await page.keyboard.press('F1');
    const opened = await input.waitFor({ state: 'visible', timeout: left(5000) }).then(
      () => true,
      () => false,
    );
    if (opened) {
      await page.keyboard.type(title);
      // Commands mode is ">". If a key got lost while the palette was opening, set the text.
      if ((await input.inputValue()) !== `>${title}`) await input.fill(`>${title}`);
      const found = await row.waitFor({ state: 'visible', timeout: left(5000) }).then(
        () => true,
        () => false,
      );
      if (found) break;
      await page.keyboard.press('Escape');
    }
    if (Date.now() >= deadline) throw new Error(`command "${title}" did not show up in the command palette`);
    await page.waitForTimeout(250);
  }
  const focused = widget.locator('.quick-input-list .monaco-list-row.focused', { hasText: title });
  if ((await focused.count()) > 0) await page.keyboard.press('Enter');
  else await row.click();
  await widget.waitFor({ state: 'hidden', timeout: left(10_000) });
}

/** Locator for notification toasts (bottom-right) containing `text`. */
function notificationLocator(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text });
}

/** Waits for a notification toast containing `text` and returns its visible text. */
export async function waitForNotification(page: Page, text: string | RegExp, options: UiWaitOptions = {}): Promise<string> {
  const toast = notificationLocator(page, text).first();
  await toast.waitFor({ state: 'visible', timeout: options.timeoutMs ?? 15_000 });
  return (await toast.locator('.notification-list-item-message').first().innerText().catch(() => toast.innerText())).trim();
}

/** Saves a PNG screenshot of the page to `file` (folders created). */
export async function screenshot(page: Page, file: string): Promise<string> {
  const out = path.resolve(file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  return out;
}
