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
  return canvas.evaluate((element: unknown) => {
    const c = element as CanvasPixels;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] === 89 && data[i + 1] === 161 && data[i + 2] === 79) n++;
    return n;
  });
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
