/**
 * Flag data that is every kind of trouble at once (markup, control and bidi characters, 10,000-character strings,
 * links to javascript:, command:, file: …), and the check that a text a user reads is one bounded, clean line.
 */
import assert from 'node:assert/strict';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import { FakeSource } from './flagCatalog';

/** Control characters (C0, DEL, C1), bidi marks and overrides, line and paragraph separators, the BOM. */
export const CONTROL = /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u;
/** Half of a surrogate pair without the other half. */
export const LONE_SURROGATE = /\p{Cs}/u;
export const LONG = 'x'.repeat(10_000);
const MARKUP =
  '**bold** _it_ `code` # head [click](command:workbench.action.quit) <img src=x onerror=alert(1)> <script>alert(1)</script> ' +
  '![p](https://evil.example/p.png) | a | b | www.evil.example https://evil.example/x &amp; &#x3C; $(alert) <https://evil.example> ' +
  '[j](javascript:alert(1)) [f](file:///etc/passwd)';
export const BIDI = 'line1\nline2\r\n\ttab\u0000nul\u001b[31mred\u202eevil\u200fRLM\u2066iso\u2069\u2028sep\ufeff';
/** A string that is every kind of trouble at once. */
export const EVIL = `${MARKUP} ${BIDI} ${LONG}`;
/** The same, but short, so what survives can be checked word for word. */
export const EVIL_SHORT = `${MARKUP} ${BIDI}`;

export const UNSAFE_LINKS = [
  'javascript:alert(1)',
  ' JaVaScRiPt:alert(1)',
  'java\nscript:alert(1)',
  'command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D',
  'file:///etc/passwd',
  'data:text/html,<script>alert(1)</script>',
  'vscode://ms-vscode.remote/evil',
  '//evil.example/x',
  'https://',
  `https://example.com/${'a'.repeat(5000)}`,
];

export function hostileSource(): FakeSource {
  const name = `evil-${EVIL}`;
  const summaries: FeatureSummary[] = [
    {
      name,
      project: 'default',
      type: `type ${EVIL}`,
      description: EVIL,
      stale: true,
      environments: [
        { name: `env ${EVIL}`, enabled: true },
        { name: 'production', enabled: false },
      ],
      tags: [{ type: `type ${EVIL}`, value: `tag ${EVIL}` }],
      lifecycle: { stage: `stage ${EVIL}`, enteredStageAt: EVIL },
    },
    { name: 'short', project: 'default', type: 'release', description: EVIL_SHORT, environments: [] },
  ];
  const constraint = { contextName: `ctx ${EVIL}`, operator: 'IN', values: [EVIL, `v ${EVIL}`, EVIL_SHORT] };
  const feature: Feature = {
    name,
    project: 'default',
    description: EVIL,
    environments: [
      {
        name: `env ${EVIL}`,
        enabled: true,
        type: EVIL,
        lastSeenAt: EVIL,
        strategies: [
          {
            id: `s ${EVIL}`,
            name: `custom ${EVIL}`,
            title: `title ${EVIL}`,
            disabled: true,
            parameters: { [`p ${EVIL}`]: EVIL, rollout: EVIL },
            constraints: [constraint, { contextName: 'date', operator: `OP ${EVIL}`, value: EVIL, inverted: true }],
            variants: [
              { name: `v ${EVIL}`, weight: 500, weightType: EVIL, stickiness: EVIL, payload: { type: 'json', value: EVIL } },
            ],
            segments: [7, 7],
          },
          // The same id twice: ids stay unique.
          { id: `s ${EVIL}`, name: 'flexibleRollout', parameters: { rollout: EVIL, stickiness: EVIL } },
        ],
        variants: [
          {
            name: `ev ${EVIL}`,
            weight: 1000,
            payload: { type: EVIL, value: EVIL },
            overrides: [{ contextName: EVIL, values: [EVIL, EVIL] }],
          },
        ],
      },
    ],
    variants: [{ name: EVIL, weight: 1000, payload: { type: 'string', value: EVIL } }],
    dependencies: [{ feature: EVIL, enabled: true, variants: [EVIL, EVIL] }],
    children: [EVIL, EVIL],
    lifecycle: { stage: EVIL, enteredStageAt: EVIL },
    links: [
      ...UNSAFE_LINKS.map((url, index) => ({ id: `l${index}`, url, title: `link ${EVIL}` })),
      { id: 'ok', url: 'https://example.com/ok?q=<b>', title: EVIL_SHORT },
      { id: 'untitled', url: `https://example.com/${EVIL_SHORT}` },
    ],
  };
  const segments: Segment[] = [
    {
      id: 7,
      name: `seg ${EVIL}`,
      description: EVIL,
      project: EVIL,
      constraints: [constraint, { contextName: EVIL, operator: 'STR_ENDS_WITH', values: [EVIL], caseInsensitive: true }],
      createdAt: EVIL,
    },
    { id: 7, name: EVIL_SHORT, constraints: [], createdAt: '' },
  ];
  return new FakeSource(
    summaries,
    new Map([[`default/${name}`, feature]]),
    new Map([[`s ${EVIL}`, segments]]),
    () => 'javascript:alert(document.cookie)',
  );
}


export function assertClean(text: string | undefined, max: number, what: string): void {
  if (text === undefined) return;
  assert.ok(!CONTROL.test(text), `control character in ${what}: ${JSON.stringify(text.slice(0, 80))}`);
  assert.ok(text.length <= max, `${what} is ${text.length} long (> ${max})`);
}
