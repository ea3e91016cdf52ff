interface PagerProps {
  page: number;
  /** Unknown when the answer has no total: "next" then stays on while pages come back full. */
  pages?: number;
  hasNext?: boolean;
  onPage: (page: number) => void;
}

/** Previous / next buttons with "第 n / m 页" between them. */
export function Pager({ page, pages, hasNext, onPage }: PagerProps) {
  const next = hasNext ?? (pages !== undefined && page < pages);
  return (
    <nav className="pager" aria-label="分页">
      <button type="button" className="button-secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        上一页
      </button>
      <span>{pages === undefined ? `第 ${page} 页` : `第 ${page} / ${pages} 页`}</span>
      <button type="button" className="button-secondary" disabled={!next} onClick={() => onPage(page + 1)}>
        下一页
      </button>
    </nav>
  );
}

/** How many pages `total` rows make (at least one). */
export function pageCount(total: number | undefined, pageSize: number): number {
  return total === undefined ? 1 : Math.max(1, Math.ceil(total / pageSize));
}
