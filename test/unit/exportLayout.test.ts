import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { exportResultSchema } from '../../src/api/exportSchemas';
import { parseExportFile } from '../../src/model/export/exportFile';
import { serializeExport } from '../../src/model/export/exportBytes';
import { canonicalExport } from '../../src/model/export/exportLayout';
import { DEFAULT_EXPORT_PATH_TEMPLATE } from '../../src/base/constants';
import { resolveExportPath, sanitizeFileComponent } from '../../src/model/export/exportPath';
import { EXPORT_PATH_SETTING, ExportPathError } from '../../src/model/export/exportPathError';
import { shuffle } from '../support/shuffle';

type Obj = Record<string, unknown>;

/** The export of `development`, as a 7.5.1 server sends it (key order, nulls, unsorted segment ids and all). */
const fixtureText = readFileSync(path.join(__dirname, '..', 'fixtures', 'export-development.json'), 'utf8');
const fixture = (): Obj => JSON.parse(fixtureText) as Obj;

/** Deterministic pseudo-random generator, so a failing shuffle can be replayed. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Every object's keys in a random order, arrays untouched. */
function shuffleKeys(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, random));
  if (value === null || typeof value !== 'object') return value;
  const out: Obj = {};
  for (const key of shuffle(Object.keys(value), random)) out[key] = shuffleKeys((value as Obj)[key], random);
  return out;
}

/**
 * What another request for the same environment may look like: keys in any order, top-level lists and the lists
 * that are sets (strategy segment ids, inner dependencies, inner links) in any order. Lists whose order means
 * something (constraints, values, variants) are left as they are, as the server keeps them.
 */
function reorderLikeAServer(source: Obj, seed: number): Obj {
  const random = rng(seed);
  const out = shuffleKeys(source, random) as Obj;
  for (const key of Object.keys(out)) {
    if (Array.isArray(out[key])) out[key] = shuffle(out[key] as unknown[], random);
  }
  for (const strategy of out.featureStrategies as Obj[]) {
    if (Array.isArray(strategy.segments)) strategy.segments = shuffle(strategy.segments as number[], random);
  }
  for (const dependency of out.dependencies as Obj[]) {
    dependency.dependencies = shuffle(dependency.dependencies as unknown[], random);
  }
  for (const link of out.links as Obj[]) link.links = shuffle(link.links as unknown[], random);
  return out;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('the fixture', () => {
  it('is a valid export result as the schema reads it', () => {
    const parsed = exportResultSchema.safeParse(fixture());
    assert.equal(parsed.success, true);
  });
});

describe('serializeExport', () => {
  it('writes a small export as these exact bytes', () => {
    const small = {
      tagTypes: [],
      links: [{ links: [{ title: 'Spec', url: 'https://x.test/b', id: '02' }], feature: 'b' }],
      featureStrategies: [
        {
          segments: [3, 1],
          variants: [],
          name: 'default',
          constraints: [{ values: ['z', 'a'], operator: 'IN', contextName: 'userId', inverted: false }],
          featureName: 'b',
          id: 's2',
          parameters: {},
          disabled: false,
          title: null,
        },
        { name: 'default', id: 's1', featureName: 'a', parameters: {}, constraints: [], variants: [], segments: [] },
      ],
      features: [
        { name: 'b', type: 'release', project: 'default', stale: false },
        { stale: false, project: 'default', name: 'a', description: null, type: 'kill-switch' },
      ],
      featureEnvironments: [
        { enabled: false, featureName: 'b', environment: 'development', variants: [], name: 'b' },
        { enabled: true, featureName: 'a', environment: 'development', variants: [], name: 'a' },
      ],
    };
    const expected = [
      '{',
      '  "features": [',
      '    {',
      '      "name": "a",',
      '      "project": "default",',
      '      "type": "kill-switch",',
      '      "description": null,',
      '      "stale": false',
      '    },',
      '    {',
      '      "name": "b",',
      '      "project": "default",',
      '      "type": "release",',
      '      "stale": false',
      '    }',
      '  ],',
      '  "featureStrategies": [',
      '    {',
      '      "featureName": "a",',
      '      "name": "default",',
      '      "constraints": [],',
      '      "parameters": {},',
      '      "segments": [],',
      '      "variants": []',
      '    },',
      '    {',
      '      "featureName": "b",',
      '      "name": "default",',
      '      "title": null,',
      '      "constraints": [',
      '        {',
      '          "contextName": "userId",',
      '          "operator": "IN",',
      '          "inverted": false,',
      '          "values": [',
      '            "z",',
      '            "a"',
      '          ]',
      '        }',
      '      ],',
      '      "disabled": false,',
      '      "parameters": {},',
      '      "segments": [',
      '        1,',
      '        3',
      '      ],',
      '      "variants": []',
      '    }',
      '  ],',
      '  "featureEnvironments": [',
      '    {',
      '      "featureName": "a",',
      '      "name": "a",',
      '      "environment": "development",',
      '      "enabled": true,',
      '      "variants": []',
      '    },',
      '    {',
      '      "featureName": "b",',
      '      "name": "b",',
      '      "environment": "development",',
      '      "enabled": false,',
      '      "variants": []',
      '    }',
      '  ],',
      '  "tagTypes": [],',
      '  "links": [',
      '    {',
      '      "feature": "b",',
      '      "links": [',
      '        {',
      '          "url": "https://x.test/b",',
      '          "title": "Spec"',
      '        }',
      '      ]',
      '    }',
      '  ]',
      '}',
      '',
    ].join('\n');
    assert.equal(serializeExport(small), expected);
  });

  it('gives byte-identical output for the same export in any key and list order', () => {
    const reference = serializeExport(fixture());
    const original = JSON.stringify(fixture());
    for (let seed = 1; seed <= 25; seed++) {
      const reordered = reorderLikeAServer(fixture(), seed);
      assert.notEqual(JSON.stringify(reordered), original, 'the shuffle must change something');
      assert.equal(serializeExport(reordered), reference, `seed ${seed}`);
    }
  });

  it('is a fixed point: writing what was read back gives the same bytes', async () => {
    const once = serializeExport(fixture());
    assert.equal(serializeExport(await parseExportFile(once)), once);
    assert.equal(serializeExport(JSON.parse(once) as Obj), once);
  });

  it('uses two-space indentation, \\n line ends and exactly one final newline', () => {
    const text = serializeExport(fixture());
    assert.ok(text.endsWith('}\n'));
    assert.ok(!text.endsWith('\n\n'));
    assert.ok(!text.includes('\r'));
    assert.ok(!text.includes('\t'));
    const lines = text.split('\n');
    assert.equal(lines[1], '  "features": [');
    assert.equal(lines[2], '    {');
    for (const line of lines) {
      const indent = /^ */.exec(line)?.[0].length ?? 0;
      assert.equal(indent % 2, 0, `odd indentation: ${JSON.stringify(line)}`);
    }
  });

  it('keeps the order of constraints, their values and variants, and sorts segment ids numerically', () => {
    const canonical = canonicalExport(fixture()) as { featureStrategies: Obj[]; featureEnvironments: Obj[] };
    const rollout = canonical.featureStrategies.find((s) => s.featureName === 'new-checkout-flow' && (s.variants as Obj[]).length === 2);
    assert.ok(rollout);
    assert.deepEqual((rollout.constraints as Obj[]).map((c) => c.contextName), ['tenantId', 'appVersion']);
    assert.deepEqual((rollout.constraints as Obj[])[0]?.values, ['tenant-b', 'tenant-a']);
    assert.deepEqual((rollout.variants as Obj[]).map((v) => v.name), ['blue', 'green']);
    assert.deepEqual(rollout.segments, [1, 2]);
    const pricing = canonical.featureEnvironments.find((e) => e.featureName === 'pricing-experiment');
    assert.deepEqual((pricing?.variants as Obj[]).map((v) => v.name), ['control', 'discount']);

    const tenSorted = canonicalExport({ features: [], featureStrategies: [{ name: 'default', segments: [10, 9, 100, 2] }], tagTypes: [] });
    assert.deepEqual((tenSorted.featureStrategies as Obj[])[0]?.segments, [2, 9, 10, 100]);
  });

  it('sorts the top-level lists by their natural keys', () => {
    const canonical = canonicalExport(reorderLikeAServer(fixture(), 7)) as Record<string, Obj[]>;
    assert.deepEqual(canonical.features?.map((f) => f.name), ['new-checkout-flow', 'new-checkout-flow-ui', 'pricing-experiment']);
    // By flag, then strategy name and title, then what the strategy holds (the ids a server assigns are left out).
    assert.deepEqual(
      canonical.featureStrategies?.map((s) => `${String(s.featureName)}/${String(s.name)}/${(s.constraints as Obj[]).length} constraints`),
      [
        'new-checkout-flow/flexibleRollout/2 constraints',
        'new-checkout-flow/remoteAddress/0 constraints',
        'new-checkout-flow-ui/default/0 constraints',
        'pricing-experiment/flexibleRollout/2 constraints',
      ],
    );
    assert.ok(canonical.featureStrategies?.every((s) => !('id' in s)));
    assert.deepEqual(canonical.contextFields?.map((c) => c.name), ['accountAgeDays', 'appVersion', 'tenantId']);
    assert.deepEqual(
      canonical.featureTags?.map((t) => `${String(t.featureName)}:${String(t.tagType)}:${String(t.tagValue)}`),
      ['new-checkout-flow:jira:PAY-123', 'new-checkout-flow:team:payments', 'pricing-experiment:simple:needs review', 'pricing-experiment:team:growth'],
    );
    assert.deepEqual(canonical.segments?.map((s) => s.id), [1, 2]);
    assert.deepEqual(canonical.tagTypes?.map((t) => t.name), ['jira', 'simple', 'team']);
    assert.deepEqual((canonical.links?.[0]?.links as Obj[]).map((l) => Object.keys(l)), [['url', 'title'], ['url', 'title']]);
  });

  it('puts the known top-level keys first in a fixed order, then unknown ones by name', () => {
    const source = { zeta: 1, links: [], tagTypes: [], alpha: { b: 1, a: 2 }, featureStrategies: [], features: [], segments: [] };
    assert.deepEqual(Object.keys(canonicalExport(source)), ['features', 'featureStrategies', 'segments', 'tagTypes', 'links', 'alpha', 'zeta']);
    assert.deepEqual(Object.keys(canonicalExport(source).alpha as Obj), ['a', 'b']);
  });

  it('keeps unknown keys everywhere, including one named __proto__', () => {
    const source = fixture();
    source.futureSection = [{ b: 2, a: 1 }];
    const strategy = (source.featureStrategies as Obj[])[0] as Obj;
    strategy.milestoneId = null;
    strategy.sortOrder = 3;
    ((source.features as Obj[])[0] as Obj).lifecycle = { stage: 'live', enteredStageAt: '2025-01-01T00:00:00.000Z' };
    ((source.featureTags as Obj[])[0] as Obj).createdByUserId = 1;
    const withProto = JSON.parse('{"features":[],"featureStrategies":[],"tagTypes":[],"__proto__":{"polluted":true}}') as Obj;

    const text = serializeExport(source);
    const back = JSON.parse(text) as Record<string, Obj[]>;
    assert.deepEqual(back.futureSection, [{ a: 1, b: 2 }]);
    assert.ok(text.indexOf('"links"') < text.indexOf('"futureSection"'));
    const remote = back.featureStrategies?.find((s) => s.name === 'remoteAddress');
    assert.equal(remote?.milestoneId, null);
    assert.equal(remote?.sortOrder, 3);
    assert.ok(back.features?.some((f) => (f.lifecycle as Obj | undefined)?.stage === 'live'));
    assert.ok(back.featureTags?.some((t) => t.createdByUserId === 1));

    const protoText = serializeExport(withProto);
    assert.match(protoText, /"__proto__": \{\n {4}"polluted": true\n {2}\}/);
    assert.equal(({} as Obj).polluted, undefined);
  });

  it('keeps an unknown key added to a constraint', () => {
    const source = fixture();
    const rollout = (source.featureStrategies as Obj[]).find((s) => s.name === 'flexibleRollout') as Obj;
    ((rollout.constraints as Obj[])[0] as Obj).newFlag = true;
    const back = JSON.parse(serializeExport(source)) as { featureStrategies: Obj[] };
    const constraints = back.featureStrategies.flatMap((s) => s.constraints as Obj[]);
    assert.equal(constraints.filter((c) => c.newFlag === true).length, 1);
  });

  it('leaves undefined members out, as JSON would', () => {
    const canonical = canonicalExport({ features: [{ name: 'a', description: undefined }], featureStrategies: [], tagTypes: [], segments: undefined });
    assert.deepEqual(canonical, { features: [{ name: 'a' }], featureStrategies: [], tagTypes: [] });
  });

  it('does not modify its input', () => {
    const source = deepFreeze(reorderLikeAServer(fixture(), 3));
    const before = JSON.stringify(source);
    serializeExport(source);
    canonicalExport(source);
    assert.equal(JSON.stringify(source), before);
  });

  it('copes with a result that is missing lists or holds odd values', () => {
    const text = serializeExport({ features: null, featureStrategies: 'x', segments: [{ name: 'no id' }, 5] });
    assert.deepEqual(JSON.parse(text), { features: null, featureStrategies: 'x', segments: [5, { name: 'no id' }] });
  });
});

describe('sanitizeFileComponent', () => {
  const SAFE = /^[^/\\<>:"|?*\p{Cc}]+$/u;

  it('leaves ordinary names alone', () => {
    assert.equal(sanitizeFileComponent('development'), 'development');
    assert.equal(sanitizeFileComponent('prod-eu_1'), 'prod-eu_1');
    assert.equal(sanitizeFileComponent('été'), 'été');
  });

  it('cannot traverse or name a hidden file', () => {
    for (const value of ['../../etc', '..', '.', '...', '.hidden', '/etc/passwd', '..\\..\\windows']) {
      const name = sanitizeFileComponent(value);
      assert.match(name, SAFE, value);
      assert.ok(!name.startsWith('.'), `${value} → ${name}`);
      assert.notEqual(name, '..');
    }
    assert.equal(sanitizeFileComponent('../../etc'), '_.._etc');
    assert.equal(sanitizeFileComponent('a/b'), 'a_b');
    assert.equal(sanitizeFileComponent('a\\b'), 'a_b');
  });

  it('replaces control characters, NUL and Windows-reserved characters', () => {
    assert.equal(sanitizeFileComponent('a\u0000b\u0001c\nd\te\u007f'), 'a_b_c_d_e_');
    assert.equal(sanitizeFileComponent('a<b>c:d"e|f?g*h'), 'a_b_c_d_e_f_g_h');
    assert.equal(sanitizeFileComponent('evil\u202etxt.exe'), 'evil_txt.exe');
  });

  it('renames Windows device names, with or without an extension, in any case', () => {
    assert.equal(sanitizeFileComponent('CON'), '_CON');
    assert.equal(sanitizeFileComponent('nul'), '_nul');
    assert.equal(sanitizeFileComponent('Aux.json'), '_Aux.json');
    assert.equal(sanitizeFileComponent('COM1'), '_COM1');
    assert.equal(sanitizeFileComponent('lpt9'), '_lpt9');
    assert.equal(sanitizeFileComponent('CONSOLE'), 'CONSOLE');
    assert.equal(sanitizeFileComponent('com10'), 'com10');
  });

  it('trims trailing dots and spaces, and turns nothing into _', () => {
    assert.equal(sanitizeFileComponent('prod. . '), 'prod');
    assert.equal(sanitizeFileComponent(''), '_');
    assert.equal(sanitizeFileComponent('   '), '_');
    assert.equal(sanitizeFileComponent('\u0000'), '_');
  });

  it('bounds the length in bytes and keeps two long names apart', () => {
    const a = sanitizeFileComponent(`${'x'.repeat(999)}a`);
    const b = sanitizeFileComponent(`${'x'.repeat(999)}b`);
    assert.ok(Buffer.byteLength(a) <= 100);
    assert.notEqual(a, b);
    assert.match(a, /^x+~[0-9a-f]{8}$/);
    const wide = sanitizeFileComponent('😀'.repeat(500));
    assert.ok(Buffer.byteLength(wide) <= 100);
    assert.ok(!wide.includes('\ufffd'));
    assert.equal(sanitizeFileComponent('x'.repeat(100)), 'x'.repeat(100));
  });
});

describe('resolveExportPath', () => {
  const folder = path.resolve('/workspace/project');
  const resolve = (template: string, environment = 'development', extra: { project?: string; scope?: string } = {}) =>
    resolveExportPath({ template, folder, environment, ...extra });
  const inside = (file: string) => {
    const relative = path.relative(folder, file);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  };

  it('uses .unleash/${environment}.json by default', () => {
    assert.equal(DEFAULT_EXPORT_PATH_TEMPLATE, '.unleash/${environment}.json');
    assert.equal(resolve(''), path.join(folder, '.unleash', 'development.json'));
    assert.equal(resolve('   '), path.join(folder, '.unleash', 'development.json'));
  });

  it('substitutes ${project} (all when none), ${scope} and ${workspaceFolder}', () => {
    assert.equal(resolve('exports/${project}/${environment}.json', 'production', { project: 'checkout' }), path.join(folder, 'exports', 'checkout', 'production.json'));
    assert.equal(resolve('exports/${project}/${environment}.json', 'production'), path.join(folder, 'exports', 'all', 'production.json'));
    assert.equal(resolve('exports/${project}-${environment}.json', 'production', { project: '' }), path.join(folder, 'exports', 'all-production.json'));
    assert.equal(resolve('${scope}.json', 'dev', { scope: 'tag:team/payments' }), path.join(folder, 'tag_team_payments.json'));
    assert.equal(resolve('${workspaceFolder}/flags/${environment}.json'), path.join(folder, 'flags', 'development.json'));
    assert.equal(resolve(path.join(folder, 'abs', '${environment}.json')), path.join(folder, 'abs', 'development.json'));
  });

  it('adds .json when the file name has no extension, keeps the template\'s own extension, and treats a trailing / as a folder', () => {
    assert.equal(resolve('flags.${environment}'), path.join(folder, 'flags.development.json'));
    assert.equal(resolve('exports/${environment}'), path.join(folder, 'exports', 'development.json'));
    assert.equal(resolve('exports/${environment}.export.txt'), path.join(folder, 'exports', 'development.export.txt'));
    assert.equal(resolve('exports/'), path.join(folder, 'exports', 'development.json'));
    assert.equal(resolve('exports\\flags\\'), path.join(folder, 'exports', 'flags', 'development.json'));
  });

  it('keeps hostile environment names inside the folder, as one file name', () => {
    const cases: Array<[string, string]> = [
      ['../../etc', '_.._etc.json'],
      ['a/b', 'a_b.json'],
      ['CON', '_CON.json'],
      ['bad\u0000\u0007\u001bname', 'bad___name.json'],
      ['..', '_.json'],
      ['', '_.json'],
    ];
    for (const [environment, fileName] of cases) {
      const file = resolve('', environment);
      assert.equal(file, path.join(folder, '.unleash', fileName), JSON.stringify(environment));
      assert.ok(inside(file));
    }
    const long = resolve('', 'e'.repeat(1000));
    assert.equal(path.dirname(long), path.join(folder, '.unleash'));
    assert.ok(Buffer.byteLength(path.basename(long)) <= 105);
    assert.ok(inside(resolve('${project}/${environment}.json', '../..', { project: '../../..' })));
  });

  it('throws, naming the setting and why, when the template leaves the folder', () => {
    const outside = [
      '../x.json',
      '../../${environment}.json',
      'exports/../../x.json',
      path.resolve('/tmp/x.json'),
      '/etc/${environment}.json',
      '..',
      '${workspaceFolder}/../x.json',
    ];
    for (const template of outside) {
      assert.throws(
        () => resolve(template),
        (error: unknown) =>
          error instanceof ExportPathError &&
          error.setting === EXPORT_PATH_SETTING &&
          error.message.includes('unleash.export.path') &&
          error.message.includes('not a file inside the workspace folder'),
        template,
      );
    }
  });

  it('throws for an unknown variable or a misplaced ${workspaceFolder}', () => {
    assert.throws(() => resolve('${env}.json'), /unleash\.export\.path.*unknown variable "\$\{env\}"/);
    assert.throws(() => resolve('a/${workspaceFolder}/x.json'), /unleash\.export\.path.*only appear at the start/);
  });

  it('allows a template that wanders but stays inside', () => {
    assert.equal(resolve('a/../b/${environment}.json'), path.join(folder, 'b', 'development.json'));
  });
});

describe('resolveExportPath: partial exports never replace the whole environment file', () => {
  it('sends a partial export to .unleash/<environment>.<scope>.json with the default template', () => {
    const folder = path.resolve('/work/space');
    assert.equal(resolveExportPath({ template: DEFAULT_EXPORT_PATH_TEMPLATE, folder, environment: 'development', scope: 'all' }), path.join(folder, '.unleash', 'development.json'));
    assert.equal(resolveExportPath({ template: '', folder, environment: 'development', project: 'checkout', scope: 'checkout' }), path.join(folder, '.unleash', 'development.checkout.json'));
    assert.equal(resolveExportPath({ template: DEFAULT_EXPORT_PATH_TEMPLATE, folder, environment: 'development', scope: 'team:payments' }), path.join(folder, '.unleash', 'development.team_payments.json'));
  });

  it('keeps a template the user chose, whatever the scope', () => {
    const folder = path.resolve('/work/space');
    assert.equal(resolveExportPath({ template: 'flags/${environment}.json', folder, environment: 'production', scope: 'checkout' }), path.join(folder, 'flags', 'production.json'));
  });
});
