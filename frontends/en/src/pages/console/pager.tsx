/** Previous / next with "Page n of m" between them (the console's paged tables). */
export function Pager({
  page,
  pages,
  hasNext,
  label,
  onPage,
}: {
  page: number;
  /** Unknown for token-paged lists (invoices): then `hasNext` says whether there is more. */
  pages?: number;
  hasNext?: boolean;
  label: string;
  onPage: (page: number) => void;
}) {
  const next = hasNext ?? (pages !== undefined && page < pages);
  if (page <= 1 && !next) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>{pages === undefined ? `Page ${page}` : `Page ${page} of ${pages}`}</span>
      <button type="button" className="button" disabled={!next} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
