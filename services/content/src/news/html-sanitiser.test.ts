import { describe, expect, it } from 'vitest';
import { sanitiseHtml } from './html-sanitiser.js';

describe('sanitiseHtml', () => {
  it('keeps allowed markup unchanged', () => {
    const html =
      '<h2>标题</h2><p>一段 <strong>文字</strong> &amp; <a href="https://example.com/a?b=1&amp;c=2" title="链接">链接</a></p>' +
      '<ul><li>一</li><li>二</li></ul><p><img src="/images/a.png" alt="图"><br></p>';
    expect(sanitiseHtml(html)).toEqual({ html, removed: [] });
  });

  it('drops scripts with their content, event handlers and unknown tags', () => {
    const { html, removed } = sanitiseHtml(
      '<p onclick="alert(1)">a<script>alert(1)</script>b<iframe src="https://x"></iframe><div>c</div></p><style>p{}</style>',
    );
    expect(html).toBe('<p>abc</p>');
    expect(removed).toEqual(['<p> attribute onclick', '<script>', '<iframe>', '<div>', '<div>', '<style>']);
  });

  it('refuses javascript:, data: and protocol-relative URLs, also when obfuscated', () => {
    for (const url of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java&#115;cript:alert(1)',
      'data:text/html,x',
      '//evil.example/x',
    ]) {
      const { html, removed } = sanitiseHtml(`<a href="${url}">x</a><img src='${url}'>`);
      expect(html).toBe('<a>x</a><img>');
      expect(removed).toHaveLength(2);
    }
  });

  it('escapes text that is not markup and closes what was left open', () => {
    expect(sanitiseHtml('1 < 2 > 0 & "q" <p>open <em>x')).toEqual({
      html: '1 &lt; 2 &gt; 0 &amp; &quot;q&quot; <p>open <em>x</em></p>',
      removed: ['unclosed <p>, <em>'],
    });
    expect(sanitiseHtml('</p>x<!-- c --><img src="/a.png" alt="a&quot;><script>">').html).toBe(
      'x<img src="/a.png" alt="a&quot;&gt;&lt;script&gt;">',
    );
    // An attribute value that tries to break out of its quotes stays inside them.
    expect(sanitiseHtml(`<a title='x" onmouseover="alert(1)'>t</a>`).html).toBe(
      '<a title="x&quot; onmouseover=&quot;alert(1)">t</a>',
    );
  });
});
