/**
 * Alert text as data (issue 11 §3). Everything a monitored host controls (service names,
 * mountpoints, exporter errors, labels) is literal text; the only emphasis is ours, carried by
 * the structure: a description is paragraphs of runs, each run plain, bold (our figures) or
 * code (a host's own text). SPEC's `description` field is this structure written as markdown in
 * which every character of every run is escaped, so any markdown renderer shows it as typed;
 * `parseAlertText` reads that markdown back for the screens without a markdown renderer.
 * Shared by the server (evaluator, email, Slack, incident report) and the web app.
 */

export interface TextRun {
  text: string;
  /** Our emphasis: a figure. */
  strong?: boolean;
  /** A host's own text (service, mountpoint, address, error): literal, whatever it holds. */
  code?: boolean;
}
/** Paragraphs of runs. */
export type AlertTextDoc = TextRun[][];

/** One line: control characters and line breaks (a host's name may hold them) become one space. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');
}

/** Plain text markdown cannot read as markup: every ASCII punctuation character backslash-escaped (CommonMark allows it for all of them). */
export function escapeMarkdown(text: string): string {
  return oneLine(text).replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}

/** A code span whose content is literal whatever it holds: a fence longer than any run of backticks inside. */
export function codeSpan(text: string): string {
  const line = oneLine(text);
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || (line.startsWith(' ') && line.endsWith(' ') && line.trim()) ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/**
 * Plain and bold runs are our own words and figures ("CPU usage is", "95.0%"), so only what could
 * open markup is escaped and the API's text stays readable; a host's text goes in a code run.
 */
const escapeOwn = (text: string) => oneLine(text).replace(/[\\`*_[\]<>&~|!#]/g, (c) => `\\${c}`);

export function runToMarkdown(run: TextRun): string {
  if (run.code) return codeSpan(run.text);
  return run.strong ? `**${escapeOwn(run.text)}**` : escapeOwn(run.text);
}

/** The API's `description`: markdown in which nothing but our own bold and code is markup. */
export function toMarkdown(doc: AlertTextDoc): string {
  return doc.map((paragraph) => paragraph.map(runToMarkdown).join('')).join('\n\n');
}

export function toPlainText(doc: AlertTextDoc): string {
  return doc.map((paragraph) => paragraph.map((r) => oneLine(r.text)).join('')).join('\n\n');
}

const PUNCTUATION = /[!-/:-@[-`{-~]/;

/**
 * Reads a description back into runs: backslash escapes, `**bold**` and code spans are the only
 * markup; anything else (links, images, headings, HTML) is text, as typed. Descriptions written
 * before issue 11 (host text in single backticks, unescaped) read the same way, so a link or a
 * heading in an old row shows as its characters too.
 */
export function parseAlertText(markdown: string): AlertTextDoc {
  return markdown
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((p) => parseParagraph(p.replace(/\n/g, ' ')))
    .filter((p) => p.length > 0);
}

function parseParagraph(src: string): TextRun[] {
  const runs: TextRun[] = [];
  let strong = false;
  let text = '';
  const flush = () => {
    if (text) runs.push(strong ? { text, strong: true } : { text });
    text = '';
  };
  for (let i = 0; i < src.length; ) {
    const c = src[i]!;
    if (c === '\\' && i + 1 < src.length && PUNCTUATION.test(src[i + 1]!)) {
      text += src[i + 1];
      i += 2;
    } else if (c === '`') {
      const fence = /^`+/.exec(src.slice(i))![0];
      const close = src.indexOf(fence, i + fence.length);
      // A closing fence of exactly that length (not part of a longer run) ends the span.
      let end = close;
      while (end !== -1 && (src[end + fence.length] === '`' || src[end - 1] === '`')) end = src.indexOf(fence, end + 1);
      if (end === -1) {
        text += fence;
        i += fence.length;
        continue;
      }
      flush();
      let code = src.slice(i + fence.length, end);
      if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1);
      runs.push(strong ? { text: code, code: true, strong: true } : { text: code, code: true });
      i = end + fence.length;
    } else if (c === '*' && src[i + 1] === '*') {
      flush();
      strong = !strong;
      i += 2;
    } else {
      text += c;
      i++;
    }
  }
  flush();
  return runs;
}
