/**
 * A small allow-list HTML sanitiser for article bodies (no new package for a handful of tags).
 * Text is re-escaped; allowed tags are re-emitted with only their allowed attributes; links and
 * images must be http(s) or site-relative ("/..."), so no `javascript:` or `data:` URL passes;
 * every other tag is dropped (with its content for script/style/iframe/...); comments dropped;
 * unclosed tags are closed, stray closing tags dropped. `removed` lists what was taken out: the
 * seed loader refuses an article whose body needs any change.
 */

const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  p: [],
  br: [],
  h2: [],
  h3: [],
  h4: [],
  ul: [],
  ol: [],
  li: [],
  strong: [],
  em: [],
  b: [],
  i: [],
  blockquote: [],
  code: [],
  pre: [],
  a: ['href', 'title'],
  img: ['src', 'alt', 'title'],
};
const VOID = new Set(['br', 'img']);
const URL_ATTRIBUTES = new Set(['href', 'src']);
/** Dropped together with everything inside them. */
const DROP_CONTENT = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'textarea', 'svg', 'math']);
/** http(s) or site-relative (one leading slash, not "//host"); no quotes, spaces or angle brackets. */
const SAFE_URL = /^(?:https?:\/\/[^\s"'<>`]+|\/(?!\/)[^\s"'<>`]*)$/i;
const ENTITY = /^&(?:#[0-9]{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/i;
const TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

export interface SanitisedHtml {
  html: string;
  removed: string[];
}

function escapeText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '<') out += '&lt;';
    else if (c === '>') out += '&gt;';
    else if (c === '"') out += '&quot;';
    else if (c === '&') out += ENTITY.test(text.slice(i, i + 40)) ? '&' : '&amp;';
    else out += c;
  }
  return out;
}

function attributes(tag: string, source: string, removed: string[]): string {
  const allowed = ALLOWED[tag]!;
  let out = '';
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    const value = match[2] ?? match[3] ?? match[4] ?? '';
    if (!allowed.includes(name)) {
      removed.push(`<${tag}> attribute ${name}`);
      continue;
    }
    if (URL_ATTRIBUTES.has(name) && !SAFE_URL.test(value)) {
      removed.push(`<${tag}> ${name} "${value.slice(0, 60)}" (only http(s) or /site-relative URLs)`);
      continue;
    }
    out += ` ${name}="${escapeText(value)}"`;
  }
  return out;
}

export function sanitiseHtml(input: string): SanitisedHtml {
  const removed: string[] = [];
  const open: string[] = [];
  let html = '';
  let i = 0;
  while (i < input.length) {
    const lt = input.indexOf('<', i);
    if (lt < 0) {
      html += escapeText(input.slice(i));
      break;
    }
    html += escapeText(input.slice(i, lt));
    const rest = input.slice(lt);
    if (rest.startsWith('<!--')) {
      const end = input.indexOf('-->', lt + 4);
      removed.push('comment');
      i = end < 0 ? input.length : end + 3;
      continue;
    }
    const match = TAG.exec(rest);
    if (!match) {
      // Not a tag ("a < b", "<!DOCTYPE", a broken tag): shown as text.
      html += '&lt;';
      if (/^<[!?/a-zA-Z]/.test(rest)) removed.push(`malformed markup near "${rest.slice(0, 20)}"`);
      i = lt + 1;
      continue;
    }
    i = lt + match[0].length;
    const closing = match[1] === '/';
    const tag = match[2]!.toLowerCase();
    if (DROP_CONTENT.has(tag)) {
      removed.push(`<${tag}>`);
      if (!closing) {
        const end = input.toLowerCase().indexOf(`</${tag}`, i);
        const close = end < 0 ? -1 : input.indexOf('>', end);
        i = close < 0 ? input.length : close + 1;
      }
      continue;
    }
    if (!(tag in ALLOWED)) {
      removed.push(`<${tag}>`);
      continue;
    }
    if (closing) {
      if (VOID.has(tag)) continue;
      const at = open.lastIndexOf(tag);
      if (at < 0) {
        removed.push(`stray </${tag}>`);
        continue;
      }
      // Close what was left open inside it, then the tag itself.
      while (open.length > at) html += `</${open.pop()}>`;
      continue;
    }
    html += `<${tag}${attributes(tag, match[3] ?? '', removed)}>`;
    if (!VOID.has(tag)) open.push(tag);
  }
  if (open.length > 0) removed.push(`unclosed <${open.join('>, <')}>`);
  while (open.length > 0) html += `</${open.pop()}>`;
  return { html, removed };
}
