// Hands a text to the browser as a file download (serve mode and Electron alike: Electron's session saves it where
// the user picks).
export function downloadText(filename: string, mimeType: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the click has handed the blob to the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
