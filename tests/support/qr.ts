// Reads QR codes back for the tests, with a decoder that shares no code with the `qrcode`
// package that draws them: jsQR, over pixels from pngjs or from the terminal's characters.
import jsQRModule from 'jsqr';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';

// A CommonJS module whose export is the function, with itself as `default` (how its types see it).
const jsQR = jsQRModule.default;

// Only codes drawn dark on light count: a code that reads only inverted fails.
const NOT_INVERTED = { inversionAttempts: 'dontInvert' } as const;

/** The text of the QR code in a PNG image, or `null` when none is found. */
export function decodePng(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  const found = jsQR(new Uint8ClampedArray(image.data), image.width, image.height, NOT_INVERTED);
  return found ? found.data : null;
}

/** Dark top and bottom halves of each half-block character, drawn dark on light. */
const HALVES: Record<string, [boolean, boolean]> = {
  ' ': [false, false],
  '▀': [true, false],
  '▄': [false, true],
  '█': [true, true],
};

/** The lines of a terminal screen that are all half blocks: the QR code with its quiet zone. */
export function halfBlockLines(screen: string): string[] {
  return screen
    .split(/\r?\n/)
    .map((line) => line.replace(/\r/g, ''))
    .filter((line) => line.length > 0 && /^[ ▀▄█]+$/.test(line));
}

/**
 * Renders half-block lines as a terminal shows them black on white (each character one module
 * wide and two high, `scale` pixels a module) and decodes that image.
 *
 * @returns the QR code's text, or `null` when none is found
 */
export function decodeHalfBlocks(lines: string[], scale = 4): string | null {
  const width = Math.max(...lines.map((line) => [...line].length)) * scale;
  const height = lines.length * 2 * scale;
  const pixels = new Uint8ClampedArray(width * height * 4).fill(255);
  lines.forEach((line, row) => {
    [...line].forEach((char, column) => {
      const halves = HALVES[char];
      if (!halves) throw new Error(`not a half block: ${JSON.stringify(char)}`);
      halves.forEach((dark, half) => {
        if (!dark) return;
        for (let y = 0; y < scale; y++) {
          const top = (row * 2 + half) * scale + y;
          for (let x = 0; x < scale; x++) {
            const at = (top * width + column * scale + x) * 4;
            pixels.fill(0, at, at + 3);
          }
        }
      });
    });
  });
  const found = jsQR(pixels, width, height, NOT_INVERTED);
  return found ? found.data : null;
}

/**
 * Checks that `svg` is an SVG document Chromium parses and draws as an image, and decodes the
 * QR code it draws (screenshot at 300 × 300 px).
 *
 * @returns the root element's name and namespace, and the decoded text (`null` if none)
 */
export async function renderSvg(
  browser: Browser,
  svg: string,
): Promise<{ root: string; namespace: string | null; errors: number; text: string | null }> {
  const page = await browser.newPage();
  try {
    const source = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(
      `<body style="margin:0;background:#fff"><img id="qr" width="300" height="300" src="${source}"></body>`,
    );
    const parsed = await page.evaluate(`(async () => {
      const img = document.getElementById('qr');
      await img.decode();
      const doc = new DOMParser().parseFromString(${JSON.stringify(svg)}, 'image/svg+xml');
      return {
        root: doc.documentElement.localName,
        namespace: doc.documentElement.namespaceURI,
        errors: doc.getElementsByTagName('parsererror').length,
      };
    })()`);
    const shot = await page.locator('#qr').screenshot();
    return {
      ...(parsed as { root: string; namespace: string | null; errors: number }),
      text: decodePng(shot),
    };
  } finally {
    await page.close();
  }
}
