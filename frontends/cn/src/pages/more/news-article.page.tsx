import { Link, useParams, useSearchParams } from 'react-router';
import { useNewsDetailQuery } from './more.api.js';
import { PRODUCT_NAMES } from './news.page.js';

/** /newsip66/{id}: one article (`?p=` names its product; ip by default). */
export function NewsArticlePage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const product = params.get('p') ?? 'ip';
  // news_{product}_detail is silent (spec section 7): a missing article shows here.
  const article = useNewsDetailQuery({ product, id });
  if (article.isError) {
    return (
      <section className="page">
        <h1>资讯不存在</h1>
        <p>
          这篇资讯不存在或已下线。<Link to="/news">返回资讯列表</Link>
        </p>
      </section>
    );
  }
  const data = article.data;
  return (
    <article className="page">
      <h1>{data?.title ?? '资讯'}</h1>
      {data && (
        <>
          <p className="muted">
            {PRODUCT_NAMES[data.product] ?? data.product} · {data.author} ·{' '}
            {data.published_at ? new Date(data.published_at).toLocaleDateString('zh-CN') : ''}
          </p>
          {/* Sanitised by the content service when stored (paragraphs, headings, lists, links, images). */}
          <div className="article-body" dangerouslySetInnerHTML={{ __html: data.body_html }} />
          <nav className="pager" aria-label="上一篇和下一篇">
            {data.previous && (
              <Link to={`/newsip66/${encodeURIComponent(data.previous.id)}?p=${product}`}>上一篇：{data.previous.title}</Link>
            )}
            {data.next && (
              <Link to={`/newsip66/${encodeURIComponent(data.next.id)}?p=${product}`}>下一篇：{data.next.title}</Link>
            )}
          </nav>
        </>
      )}
    </article>
  );
}
