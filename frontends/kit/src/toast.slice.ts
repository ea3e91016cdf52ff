import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

/** Spec section 9: a toast closes after 3 seconds; at most 3 are shown. */
export const TOAST_DURATION_MS = 3_000;
export const MAX_TOASTS = 3;

export type ToastKind = 'success' | 'warning' | 'info';

export interface Toast {
  id: string;
  kind: ToastKind;
  text: string;
}

export interface ToastState {
  items: Toast[];
}

export const toastSlice = createSlice({
  name: 'toast',
  initialState: (): ToastState => ({ items: [] }),
  reducers: {
    toastAdded: {
      reducer(state, action: PayloadAction<Toast>) {
        state.items.push(action.payload);
        // The oldest makes room: the newest message is the one the visitor just caused.
        if (state.items.length > MAX_TOASTS) state.items.splice(0, state.items.length - MAX_TOASTS);
      },
      prepare(toast: { kind: ToastKind; text: string }) {
        return { payload: { id: nanoid(), ...toast } };
      },
    },
    toastClosed(state, action: PayloadAction<string>) {
      state.items = state.items.filter((toast) => toast.id !== action.payload);
    },
  },
  selectors: {
    selectToasts: (state) => state.items,
  },
});

export const { toastAdded, toastClosed } = toastSlice.actions;
export const { selectToasts } = toastSlice.selectors;

type Dispatch = (action: PayloadAction<unknown>) => unknown;

/** Shows a toast and closes it after TOAST_DURATION_MS. */
export function showToast(kind: ToastKind, text: string) {
  return (dispatch: Dispatch): string => {
    const action = toastAdded({ kind, text });
    dispatch(action);
    setTimeout(() => dispatch(toastClosed(action.payload.id)), TOAST_DURATION_MS);
    return action.payload.id;
  };
}
