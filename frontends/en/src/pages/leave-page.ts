/**
 * Sends the browser to a URL outside the app's routes (billing's checkout, a download link). One
 * module so tests can stand in for it: jsdom cannot navigate.
 */
export function leavePageFor(url: string): void {
  window.location.assign(url);
}
