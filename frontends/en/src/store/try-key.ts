// The docs page's "try it" box uses the key this browser session last created or rotated. Only
// this tab's sessionStorage holds it (gone when the tab closes), and logging out removes it.
export const TRY_KEY_STORAGE = 'ipdata.tryKey';

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    // Storage can be switched off (privacy settings): the try-it box then asks for a key.
    return undefined;
  }
}

export function rememberTryKey(secret: string): void {
  try {
    storage()?.setItem(TRY_KEY_STORAGE, secret);
  } catch {
    // Full or refused: not worth bothering the visitor, who has the key on screen.
  }
}

export function forgetTryKey(): void {
  try {
    storage()?.removeItem(TRY_KEY_STORAGE);
  } catch {
    // Nothing stored then.
  }
}
