import { useEffect, useRef, useState } from 'react';

/**
 * A button whose action asks first (revoke a key, downgrade a plan): the first press shows the
 * question with Confirm and Cancel in place, focus moves to Confirm, Cancel (or Escape) puts it
 * back on the button.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  onConfirm,
  busy = false,
  danger = false,
  className = 'button',
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown> | void;
  busy?: boolean;
  danger?: boolean;
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const startButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  useEffect(() => {
    if (asking) confirmButton.current?.focus();
    else if (returnFocus.current) startButton.current?.focus();
    returnFocus.current = false;
  }, [asking]);
  const cancel = () => {
    returnFocus.current = true;
    setAsking(false);
  };
  if (!asking) {
    return (
      <button ref={startButton} type="button" className={className} disabled={busy} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span
      className="confirm-step"
      role="group"
      aria-label={question}
      onKeyDown={(event) => {
        if (event.key === 'Escape') cancel();
      }}
    >
      <span className="confirm-question">{question}</span>
      <button
        ref={confirmButton}
        type="button"
        className={danger ? 'button danger' : 'button primary'}
        disabled={busy}
        onClick={() => {
          setAsking(false);
          void onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button" onClick={cancel}>
        Cancel
      </button>
    </span>
  );
}
