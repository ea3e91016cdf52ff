import { useState } from 'react';
import { Pager, pageCount } from '../../components/pager.js';
import { Link, useSearchParams } from 'react-router';
import { selectInitData } from '../../store/app.slice.js';
import { useAppSelector } from '../../store/hooks.js';
import { useNewsListQuery } from './more.api.js';

const PAGE_SIZE = 10;
export const PRODUCT_NAMES: Record<string, string> = { ip: 'IP 资讯', asn: 'ASN 资讯', report: '报告', industry: '行业动态' };

/** /news: the news of each product (web_init names them), newest first, paged. */
export function NewsPage() {
  const products = useAppSelector(selectInitData)?.news_products ?? ['ip'];
  const [params, setParams] = useSearchParams();
  const product = params.get('p') && products.includes(params.get('p')!) ? params.get('p')! : products[0]!;
  const [page, setPage] = useState(1);
  const news = useNewsListQuery({ product, page, page_size: PAGE_SIZE });
  const pages = pageCount(news.data?.total, PAGE_SIZE);

  return (
    <section className="page">
      <h1>资讯</h1>
      <div className="modal-tabs" role="tablist" aria-label="资讯分类">
        {products.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={name === product}
            onClick={() => {
              setPage(1);
              setParams({ p: name });
            }}
          >
            {PRODUCT_NAMES[name] ?? name}
          </button>
        ))}
      </div>
      {news.data && news.data.list.length === 0 && <p className="muted">暂无资讯</p>}
      <ul className="news-list">
        {(news.data?.list ?? []).map((item) => (
          <li key={item.id} className="card">
            <h2>
              <Link to={`/newsip66/${encodeURIComponent(item.id)}?p=${item.product}`}>{item.title}</Link>
            </h2>
            <p>{item.summary}</p>
            <p className="muted">
              {item.published_at ? new Date(item.published_at).toLocaleDateString('zh-CN') : ''} · {item.views} 次阅读
            </p>
          </li>
        ))}
      </ul>
      {news.data && pages > 1 && <Pager page={page} pages={pages} onPage={setPage} />}
    </section>
  );
}
