/**
 * Browser-side file output for the exports: a download from a blob: URL, and SVG → PNG through a
 * canvas. Both stay in the page (blob: URLs, allowed by the CSP's img-src); nothing is uploaded.
 */

/** Save a blob as a file (the browser's download). */
export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  // The download has started once click() returns; give slow browsers a moment before freeing it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Rasterise an SVG document: draw it on a canvas at `scale` × its size (2 = crisp on HiDPI).
 * @rejects when the image cannot be decoded or the canvas cannot encode a PNG
 */
export function svgToPngBlob(svg: string, scale = 2): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    const img = new Image();
    img.onload = () => {
      try {
        const canvas = document.createElement('canvas');
        canvas.width = Math.max(1, Math.round(img.naturalWidth * scale));
        canvas.height = Math.max(1, Math.round(img.naturalHeight * scale));
        const ctx = canvas.getContext('2d');
        if (!ctx) throw new Error('no 2D canvas');
        ctx.scale(scale, scale);
        ctx.drawImage(img, 0, 0);
        canvas.toBlob(
          (b) => (b ? resolve(b) : reject(new Error('the canvas gave no PNG'))),
          'image/png',
        );
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      } finally {
        URL.revokeObjectURL(url);
      }
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('the SVG could not be drawn'));
    };
    img.src = url;
  });
}
