import { describe, expect, it } from '@jest/globals';
import { html, renderPage, SafeHtml } from './html.js';

describe('html', () => {
  it('escapes every interpolated text, in content and in attributes', () => {
    const name = `<img src=x onerror="alert('x')">&`;
    const sut = html`<p title="${name}">${name}</p>`.markup;
    expect(sut).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;">' +
        '&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;</p>',
    );
  });

  it('keeps markup built by html, drops empty slots', () => {
    expect(
      html`<div>${html`<b>${'a<b'}</b>`}${false}${undefined}${[html`<i>1</i>`, html`<i>2</i>`]}</div>`.markup,
    ).toBe('<div><b>a&lt;b</b><i>1</i><i>2</i></div>');
  });

  it('renders a page whose title is escaped too', () => {
    const page = renderPage('<x>', new SafeHtml('<p>body</p>'));
    expect(page).toContain('<title>&lt;x&gt; · idp-backup</title>');
    expect(page).toContain('<main><p>body</p></main>');
  });
});
