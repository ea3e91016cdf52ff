/** A part of a page that could not be loaded, announced, with a button that asks again. */
export function LoadFailed({ what, onRetry }: { what: string; onRetry: () => unknown }) {
  return (
    <p role="alert" className="error">
      {what} could not be loaded.{' '}
      <button type="button" className="link-button" onClick={() => void onRetry()}>
        Try again
      </button>
    </p>
  );
}
