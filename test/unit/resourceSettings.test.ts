/**
 * Settings with `resource` scope, read for the folder or document they apply to (src/services/settings.ts), against
 * the 'vscode' stand-in with a multi-root workspace: the export path of the folder exported to, the hover settings of
 * the hovered document's folder, and the one Flags view's projects as the union of the folders' lists.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { clampSetting, projectsOf, SETTING_LIMITS, unionOfFilters } from '../../src/model/settings/settingRules';
import { installFakeVscode } from '../support/fakeVscode';

const fake = installFakeVscode('/ws/web');
fake.addFolder('/ws/api');
let settings: typeof import('../../src/services/settings');
before(async () => {
  settings = await import('../../src/services/settings');
});
const uri = (file: string) => fake.vscode.Uri.file(file) as never;

describe('per-folder settings', () => {
  it("the export path is the folder's own, else the user's, else the default", () => {
    assert.equal(settings.readExportPath(uri('/ws/api')), '.unleash/${environment}.json');
    fake.set('user', 'unleash.export.path', 'flags/${environment}.json');
    fake.setInFolder('/ws/api', 'unleash.export.path', 'config/unleash-${environment}.json');
    assert.equal(settings.readExportPath(uri('/ws/api')), 'config/unleash-${environment}.json');
    assert.equal(settings.readExportPath(uri('/ws/web')), 'flags/${environment}.json');
  });

  it("a document's hover settings are its folder's", () => {
    fake.setInFolder('/ws/api', 'unleash.hover.sdkCalls', ['flag_on']);
    fake.setInFolder('/ws/api', 'unleash.hover.matchAnywhere', true);
    assert.deepEqual(settings.readHoverSettings(uri('/ws/api/app.py')).sdkCalls, ['flag_on']);
    assert.equal(settings.readHoverSettings(uri('/ws/api/app.py')).matchAnywhere, true);
    assert.equal(settings.readHoverSettings(uri('/ws/web/app.ts')).sdkCalls, undefined, 'the built-in list');
    assert.equal(settings.readHoverSettings(uri('/ws/web/app.ts')).matchAnywhere, false);
  });

  it("the Flags view's projects: the union of the folders' lists; the user's list when no folder names one", () => {
    assert.deepEqual(settings.readSettings().projects, []);
    fake.set('user', 'unleash.projects', ['shared']);
    assert.deepEqual(settings.readSettings().projects, ['shared'], 'both folders inherit the user list');
    fake.setInFolder('/ws/web', 'unleash.projects', ['web', 'shared']);
    fake.setInFolder('/ws/api', 'unleash.projects', ['api']);
    assert.deepEqual(settings.readSettings().projects, ['web', 'shared', 'api']);
  });
});

describe('setting rules for several folders', () => {
  it('projectsOf: first-named order, blanks and empty lists add nothing, all empty is every project', () => {
    assert.deepEqual(projectsOf([['a', ' b '], [], ['b', 'c', ''], 'x']), { projects: ['a', 'b', 'c'] });
    assert.deepEqual(projectsOf([[], []]), { projects: [] });
  });

  it('unionOfFilters: every language any folder covers; a folder covering all makes the rest redundant', () => {
    const ts = [{ scheme: 'file' as const, language: 'typescript' }, { scheme: 'untitled' as const, language: 'typescript' }];
    const py = [{ scheme: 'file' as const, language: 'python' }, { scheme: 'untitled' as const, language: 'python' }];
    assert.deepEqual(unionOfFilters([ts, py, ts]), [...ts, ...py]);
    assert.deepEqual(unionOfFilters([ts, [{ scheme: 'file' }, { scheme: 'untitled' }]]), [{ scheme: 'file' }, { scheme: 'untitled' }]);
  });

  it('whole-number settings: a fraction written by hand is rounded (a positive interval stays on)', () => {
    assert.equal(clampSetting(2.6, SETTING_LIMITS.refreshIntervalMinutes), 3);
    assert.equal(clampSetting(0.4, SETTING_LIMITS.refreshIntervalMinutes), 1);
    assert.equal(clampSetting(14.5, SETTING_LIMITS.requestTimeoutSeconds), 15);
  });
});
