/**
 * Findings 6 and 7: a cloned repository's settings name a server whose path hides a U+202E (right-to-left override)
 * and set `unleash.webUrl`. The approval asked before any token is sent shows the address requests really go to,
 * cleaned, and names the web address; the answer is kept for that origin and base path only.
 */
import { approvalQuestion, serverKey } from '../../src/model/settings/settingRules';
import type { HostileScenario } from './scenario';

const URL_WITH_OVERRIDE = 'https://unleash.example.com/team\u202Etxt.exe';

export const scenario: HostileScenario = {
  finding: '6, 7',
  input: 'a workspace `unleash.serverUrl` whose path holds U+202E, and a workspace `unleash.webUrl`',
  async run() {
    const { message, detail } = approvalQuestion(URL_WITH_OVERRIDE, 'https://web.example.com');
    return `${message} ${detail} · approval key: ${serverKey(URL_WITH_OVERRIDE)}`;
  },
  expect: /^Send your Unleash API token to .*%E2%80%AE.* links to flags will open there.*approval key: https:\/\/unleash\.example\.com\/team%E2%80%AEtxt\.exe$/,
};
