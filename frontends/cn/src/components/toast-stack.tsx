import { useAppSelector } from '../store/hooks.js';
import { selectToasts } from '../store/toast.slice.js';

/** The toasts (at most 3, each closing itself after 3 s: toast.slice.ts), announced to screen readers. */
export function ToastStack() {
  const toasts = useAppSelector(selectToasts);
  return (
    <div className="toast-stack" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`}>
          {toast.text}
        </div>
      ))}
    </div>
  );
}
