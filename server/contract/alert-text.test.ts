import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { codeSpan, escapeMarkdown, parseAlertText, toMarkdown, toPlainText, type AlertTextDoc } from './alert-text';

/** What a monitored host could name a service, a mountpoint or put in an error. */
export const HOSTILE_NAMES = [
  '[Click to fix](https://evil.example/phish).service',
  '![pixel](https://evil.example/p.png)',
  '# Heading\n\n## more',
  '<img src=x onerror=alert(1)><script>alert(1)</script>',
  '``` code ```\n\n\nafter blank lines',
  '`tick` and ``two``',
  '[x](javascript:alert(1))',
  'javascript:alert(1)',
  'https://evil.example/bare and www.evil.example and a@evil.example',
  '**bold** _it_ ~~strike~~ | a | b |',
  '> quote\n- item\n1. one',
  '\\',
  '` ',
];

type Node = { type: string; url?: string; value?: string; children?: Node[] };
const textOf = (n: Node): string => n.value ?? (n.children ?? []).map(textOf).join('');

/**
 * Node types of the mdast a full CommonMark + GFM parser (remark's own) makes of `markdown`. GFM
 * turns bare http(s), www and email addresses in text into links whatever escapes they carry;
 * such a link shows its own address, so it is counted as text (`javascript:` never links).
 */
function nodeTypes(markdown: string): Set<string> {
  const types = new Set<string>();
  const walk = (n: Node) => {
    const bareAddress = n.type === 'link' && !!n.url && n.url.replace(/^mailto:/, '').replace(/^http:\/\/(?=www\.)/, '') === textOf(n);
    types.add(bareAddress ? 'text' : n.type);
    for (const c of n.children ?? []) walk(c);
  };
  walk(fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as never);
  return types;
}
const ALLOWED = new Set(['root', 'paragraph', 'text', 'strong', 'inlineCode']);

describe('alert text', () => {
  it.each(HOSTILE_NAMES)('a host text of %j is literal in every form', (name) => {
    const doc: AlertTextDoc = [[{ text: 'The agent has reported ' }, { text: name, code: true }, { text: ' down for ' }, { text: '5 minutes', strong: true }, { text: '.' }]];
    const md = toMarkdown(doc);
    // A real markdown parser (the one react-markdown uses) finds nothing but text, bold and code.
    expect([...nodeTypes(md)].filter((t) => !ALLOWED.has(t))).toEqual([]);
    // Read back, the runs are the text, on one line.
    const flat = name.replace(/[\u0000-\u001f]+/g, ' ');
    expect(parseAlertText(md)).toEqual([[{ text: 'The agent has reported ' }, { text: flat.trim() === flat ? flat : flat, code: true }, { text: ' down for ' }, { text: '5 minutes', strong: true }, { text: '.' }]]);
    expect(toPlainText(doc)).toBe(`The agent has reported ${flat} down for 5 minutes.`);
    // Outside code, escaped text is literal too.
    expect([...nodeTypes(escapeMarkdown(name))].filter((t) => !ALLOWED.has(t))).toEqual([]);
  });

  it('code spans survive backticks at their edges; our own words stay readable in the API text', () => {
    expect(codeSpan('`a`')).toBe('`` `a` ``');
    expect(toMarkdown([[{ text: 'CPU usage is ' }, { text: '95.0%', strong: true }, { text: ', above the 90% threshold for 5 minutes.' }]])).toBe('CPU usage is **95.0%**, above the 90% threshold for 5 minutes.');
  });

  it('old descriptions (host text in single backticks) read back with links and headings as text', () => {
    expect(parseAlertText('The agent has reported `x` down.\n\nLast error: [a](b) # c')).toEqual([[{ text: 'The agent has reported ' }, { text: 'x', code: true }, { text: ' down.' }], [{ text: 'Last error: [a](b) # c' }]]);
  });
});
