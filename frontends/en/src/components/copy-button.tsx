import { showToast } from '@ipdata/web-kit/toast';
import { MESSAGES } from '../forms/validation.js';
import { useAppDispatch } from '../store/hooks.js';

/**
 * Copies `text` to the clipboard and says so with the spec's toasts ('Replicating Success' /
 * 'copy failed', section 8). `what` names what is copied for screen readers when one page has
 * several copy buttons (the docs' examples): "Copy <what>", which still starts with the visible word.
 * `primary` makes it the main action (the new key's secret).
 */
export function CopyButton({ text, what, primary = false }: { text: string; what?: string; primary?: boolean }) {
  const dispatch = useAppDispatch();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      dispatch(showToast('success', MESSAGES.copied));
    } catch {
      dispatch(showToast('warning', MESSAGES.copyFailed));
    }
  };
  return (
    <button
      type="button"
      className={primary ? 'button primary' : 'button copy-button'}
      aria-label={what ? `Copy ${what}` : undefined}
      onClick={() => void copy()}
    >
      Copy
    </button>
  );
}
