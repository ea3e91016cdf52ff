import { useEffect, useId, useRef, type ReactNode } from 'react';
import { modalHidden, selectModalOpen, type ModalName } from '../store/app.slice.js';
import { useAppDispatch, useAppSelector } from '../store/hooks.js';
import './modal.css';

interface ModalProps {
  name: ModalName;
  title: string;
  children: ReactNode;
}

/**
 * One of the spec's modals, on the browser's own <dialog>: showModal() traps focus, makes the page
 * behind inert and closes on Esc; the modal flag in the store is the single source of truth.
 */
export function Modal({ name, title, children }: ModalProps) {
  const id = useId();
  const dispatch = useAppDispatch();
  const open = useAppSelector((state) => selectModalOpen(state, name));
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog ref={dialog} className="modal" aria-labelledby={`${id}-title`} onClose={() => open && dispatch(modalHidden(name))}>
      {open && (
        <>
          <header className="modal-header">
            <h2 id={`${id}-title`}>{title}</h2>
            <button type="button" className="modal-close" aria-label="关闭" onClick={() => dispatch(modalHidden(name))}>
              ×
            </button>
          </header>
          {children}
        </>
      )}
    </dialog>
  );
}
