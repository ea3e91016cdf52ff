/** Saves a downloaded file through a temporary object URL and an `<a download>` click. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a moment later: some browsers start reading the URL only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The file types face A's file calls answer with: batch results (.xlsx) and IP reports (.pdf, .xlsx). */
const FILE_TYPES = /\.(xlsx|pdf)$/i;

/** The file name of a Content-Disposition header (filename* first), made to end in .xlsx unless it is a .pdf. */
export function downloadFilename(disposition: string | null, fallback: string): string {
  let name: string;
  const extended = disposition?.match(/filename\*\s*=\s*UTF-8''([^;]+)/i)?.[1];
  const plain = disposition?.match(/filename\s*=\s*"?([^";]+)"?/i)?.[1];
  try {
    name = extended ? decodeURIComponent(extended.trim()) : (plain?.trim() ?? '');
  } catch {
    name = plain?.trim() ?? '';
  }
  // Only a base name: a server-given path must not steer where the file lands.
  name = name.replace(/^.*[\\/]/, '');
  if (!name) name = fallback;
  return FILE_TYPES.test(name) ? name : `${name.replace(/\.[^.]*$/, '')}.xlsx`;
}
