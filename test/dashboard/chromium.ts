// Launches the system Chromium headless for tests and benchmarks, failing loudly when it is missing; and
// reads what a page drew.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: the browser tests need Debian's chromium package (apt-get install chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** The little of a canvas element read here (this file also compiles without the DOM library, for bench/). */
interface CanvasPixels {
  readonly width: number;
  readonly height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { readonly data: ArrayLike<number> } } | null;
}

/** How many pixels of a chart's canvas have the compute colour (#59a14f): bars were drawn. */
export async function computePixels(canvas: Locator): Promise<number> {
  return colorPixels(canvas, [89, 161, 79]);
}

/** How many pixels of a canvas have exactly this colour. */
export async function colorPixels(canvas: Locator, rgb: readonly [number, number, number]): Promise<number> {
  return canvas.evaluate((element: unknown, [r, g, b]) => {
    const c = element as CanvasPixels;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) n++;
    return n;
  }, rgb);
}

export interface CanvasImage {
  readonly width: number;
  readonly height: number;
  readonly rgba: Buffer;
}

/** A canvas's pixels, read after two animation frames so that what the page had pending is drawn. */
export async function canvasImage(canvas: Locator): Promise<CanvasImage> {
  const image = await canvas.evaluate(async (element: unknown) => {
    const page = globalThis as unknown as { requestAnimationFrame(fn: () => void): number };
    await new Promise<void>((resolve) => page.requestAnimationFrame(() => page.requestAnimationFrame(resolve)));
    const c = element as CanvasPixels;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    // As base64: a plain array of every byte would be several times larger to pass back.
    let bytes = '';
    for (let i = 0; i < data.length; i++) bytes += String.fromCharCode(data[i]!);
    return { width: c.width, height: c.height, base64: btoa(bytes) };
  });
  return { width: image.width, height: image.height, rgba: Buffer.from(image.base64, 'base64') };
}

/** How many pixels differ between two images of one canvas (every pixel, when their sizes differ). */
export function differingPixels(a: CanvasImage, b: CanvasImage): number {
  if (a.width !== b.width || a.height !== b.height) return Math.max(a.width * a.height, b.width * b.height);
  let n = 0;
  for (let i = 0; i < a.rgba.length; i += 4) if (a.rgba.readUInt32LE(i) !== b.rgba.readUInt32LE(i)) n++;
  return n;
}

/** Opens a WebSocket from `page` (as the page's script would): whether the server accepted it. */
export async function socketOutcome(page: Page, wsUrl: string): Promise<'open' | 'refused'> {
  return page.evaluate(
    (url) =>
      new Promise<'open' | 'refused'>((resolve) => {
        const ws = new WebSocket(url);
        ws.onopen = () => resolve('open');
        ws.onclose = () => resolve('refused');
      }),
    wsUrl,
  );
}
