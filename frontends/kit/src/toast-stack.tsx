// Typed here by the slice's own state: the kit knows no app's RootState.
// eslint-disable-next-line no-restricted-imports
import { useSelector } from 'react-redux';
import { selectToasts, type ToastState } from './toast.slice.js';

/** The toasts (at most 3, each closing itself after 3 s: toast.slice.ts), announced to screen readers. */
export function ToastStack() {
  const toasts = useSelector((state: { toast: ToastState }) => selectToasts(state));
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
