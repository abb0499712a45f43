/**
 * src/model/text/markdown.ts: untrusted text made inert for tooltips, hovers and notifications, and the only links offered
 * to open (http and https).
 *   node --import tsx --test test/unit/markdown.test.ts
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { escapeMarkdown, inertText, markdownLink, openableUrl, plainMarkdown } from '../../src/model/text/markdown';
import { BIDI, CONTROL, LONG, UNSAFE_LINKS } from '../support/hostileFlags';

describe('markdown helpers', () => {
  it('escapeMarkdown escapes every ASCII punctuation character and neutralises line starts', () => {
    const shown: Array<[source: string, markdown: string]> = [
      ['a *b* [c](command:x) <i>', 'a \\*b\\* \\[c\\]\\(command\\:x\\) \\<i\\>'],
      ['    code', '&nbsp;&nbsp;&nbsp;&nbsp;code'],
      ['one\ntwo\r\nthree', 'one two three'],
      ['www.evil.example', 'www\\.evil\\.example'],
      ['ünïcödé → ok', 'ünïcödé → ok'],
    ];
    for (const [source, markdown] of shown) assert.equal(escapeMarkdown(source), markdown, source);
  });

  it('plainMarkdown cleans and bounds before escaping', () => {
    assert.equal(plainMarkdown(`a\u202eb\n${'c'.repeat(500)}`, 10), 'a b ccccc…');
  });

  it('openableUrl allows http and https only', () => {
    assert.equal(openableUrl('https://example.com/a b'), 'https://example.com/a%20b');
    assert.equal(openableUrl('  http://example.com  '), 'http://example.com/');
    for (const url of UNSAFE_LINKS) assert.equal(openableUrl(url), undefined, url);
    assert.equal(openableUrl(undefined), undefined);
    assert.equal(openableUrl(null), undefined);
  });

  it('markdownLink links only http(s) addresses, with escaped text', () => {
    assert.equal(markdownLink('[x](y)', 'https://example.com/)'), '[\\[x\\]\\(y\\)](<https://example.com/)>)');
    assert.equal(markdownLink('click', 'command:evil'), 'click');
  });

  it('plainMarkdown(): one trimmed, bounded, escaped line', () => {
    assert.equal(plainMarkdown('  **x**  ', 100), '\\*\\*x\\*\\*');
    assert.equal(plainMarkdown('a\n\u202eb', 100), 'a b');
    assert.equal(plainMarkdown('x'.repeat(50), 10), 'xxxxxxxxx…');
    assert.equal(plainMarkdown('[a](command:x)', 100), '\\[a\\]\\(command\\:x\\)');
    assert.equal(plainMarkdown('<b>&amp;</b>', 100), '\\<b\\>\\&amp\\;\\<\\/b\\>');
    assert.equal(plainMarkdown('# h', 100), '\\# h');
    assert.equal(plainMarkdown('', 100), '');
  });

  it('escapeMarkdown / markdownLink / openableUrl as the hover uses them', () => {
    assert.equal(escapeMarkdown('[x](javascript:alert(1))'), '\\[x\\]\\(javascript\\:alert\\(1\\)\\)');
    assert.equal(escapeMarkdown('$(alert)'), '\\$\\(alert\\)');
    assert.equal(markdownLink('docs', 'https://example.com/a b'), '[docs](<https://example.com/a%20b>)');
    assert.equal(markdownLink('x', 'javascript:alert(1)'), 'x');
    assert.equal(markdownLink('x', 'command:workbench.action.terminal.new'), 'x');
    assert.equal(markdownLink('x', 'file:///etc/passwd'), 'x');
    assert.equal(openableUrl('http://example.com'), 'http://example.com/');
    assert.equal(openableUrl('ftp://example.com'), undefined);
    assert.equal(openableUrl(`https://example.com/${'a'.repeat(3000)}`), undefined);
  });

  it('inertText: a hostile notification is one bounded line, with no link, icon or control character', () => {
    const message = inertText(`x [click](command:evil) $(alert) ${BIDI}${LONG}`, 80);
    assert.ok(message.length <= 81 + 10);
    assert.ok(!/\]\(/.test(message) && !CONTROL.test(message));
    assert.ok(message.startsWith('x [click] (command:evil) \\$(alert) line1 line2'));
  });
});
