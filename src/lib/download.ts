/** Follows a link as a download: a same-origin API address (sent with the session) or a blob URL. */
export function downloadUrl(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
}

/** Saves text as a file through a temporary link: nothing leaves the browser. */
export function downloadText(text: string, name: string, type = 'text/markdown;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  downloadUrl(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
