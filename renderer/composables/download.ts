// Hands a file to the browser as a download (serve mode and Electron alike: Electron's session saves it where the
// user picks, in its save dialog): a text export as it is, a PDF report from the base64 the contract carries it in.
function download(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
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

export function downloadText(filename: string, mimeType: string, text: string): void {
  download(filename, new Blob([text], { type: mimeType }));
}

export function downloadBase64(filename: string, mimeType: string, base64: string): void {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  download(filename, new Blob([bytes], { type: mimeType }));
}
