import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { commandOf } from '../grammar/commander.js';
import {
  QR_CODE_OPTIONS,
  QR_PNG_MAX_SIZE,
  QR_PNG_MIN_SIZE,
  channelLink,
  qrPngScale,
} from '../../shared/core/card-link.js';
import { InputError } from '../../shared/core/errors.js';
import { linkSettings } from '../session/card-link.js';
import { UsageError } from '../errors.js';
import { err, out, print, stdoutColoured } from '../terminal/output.js';

/**
 * Checks `--size <px>`: a whole number of pixels from QR_PNG_MIN_SIZE to QR_PNG_MAX_SIZE.
 *
 * @throws InputError naming `--size`
 */
function parseSize(value: string | undefined): number {
  if (value === undefined) return QR_PNG_MIN_SIZE;
  const px = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(px >= QR_PNG_MIN_SIZE && px <= QR_PNG_MAX_SIZE)) {
    throw new InputError(
      '--size',
      `a whole number of pixels from ${QR_PNG_MIN_SIZE} to ${QR_PNG_MAX_SIZE}`,
      value,
    );
  }
  return px;
}

/** An image to write: the file named by `flag`, and its bytes or text. */
interface ImageFile {
  flag: '--svg' | '--png';
  file: string;
  data: string | Buffer;
}

/** What a failed write of `file` means to the user, by the error's code. */
function writeProblem(image: ImageFile, code: string | undefined): string | undefined {
  const where = `\`${image.flag}\` ${image.file}`;
  switch (code) {
    case 'EEXIST':
      return `${where} exists: add --force to replace it`;
    case 'ENOENT':
      return `${where}: the folder ${dirname(image.file)} does not exist`;
    case 'ENOTDIR':
      return `${where}: ${dirname(image.file)} is not a folder`;
    case 'EISDIR':
      return `${where} is a folder: give a file name`;
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `${where} cannot be written: permission denied`;
    default:
      return undefined;
  }
}

/** Writes the image; without `force`, only as a new file (`wx`: never over an existing one). */
async function writeImage(image: ImageFile, force: boolean): Promise<void> {
  try {
    await writeFile(image.file, image.data, { flag: force ? 'w' : 'wx' });
  } catch (error) {
    const problem = writeProblem(image, (error as NodeJS.ErrnoException).code);
    if (problem) throw new UsageError(problem);
    throw error;
  }
}

export const qrCommand = commandOf('qr', async (line) => {
  const { options } = line;
  if (options.svg !== undefined && options.svg === options.png) {
    throw new UsageError('`--svg` and `--png` name the same file: give each its own');
  }
  // PNG bytes under another name (card.jpg) would not open as that kind of image.
  if (options.png !== undefined && !/\.png$/i.test(options.png)) {
    throw new UsageError(
      `\`--png\` ${options.png} must be a file name ending in .png: the image is a PNG`,
    );
  }
  if (options.size !== undefined && options.png === undefined) {
    throw new UsageError("`--size` is the PNG's width: use it with `--png <file>`");
  }
  const size = parseSize(options.size);
  const { config } = await linkSettings(options);
  // The QR library loads only for this command.
  const { default: qrcode } = await import('qrcode');
  // The QR code's link says so (?via=qr), so that visits through it count as QR visits.
  const link = channelLink(config.cardLink, 'qr');

  if (options.svg === undefined && options.png === undefined) {
    // Half blocks, two modules a character; drawn for dark on light. With colour, every line
    // is set black on bright white so that a dark theme shows the same code, not its negative.
    const code = await qrcode.toString(link, { ...QR_CODE_OPTIONS, type: 'utf8' });
    const paint = (line: string) => out.black(out.bgWhiteBright(line));
    const card = config.cardShown === undefined ? [] : [`Card: ${config.cardShown}`];
    print(...code.split('\n').map(paint), '', ...card, link);
    if (!stdoutColoured()) {
      // In a pipe (`namecard qr | cat`, a file) there are no colours to fix the code's
      // look: a dark terminal shows it light on dark, which many phones do not read.
      process.stderr.write(
        `${err.dim(
          'note: without colours (stdout is not a terminal) the code is drawn dark on light, so a dark terminal shows it inverted. To print it, write an image: `namecard qr --png card.png` (or `--svg card.svg`); to keep the colours in a pipe, set FORCE_COLOR=1',
        )}\n`,
      );
    }
    return;
  }

  const images: ImageFile[] = [];
  if (options.svg !== undefined) {
    const svg = await qrcode.toString(link, { ...QR_CODE_OPTIONS, type: 'svg' });
    images.push({ flag: '--svg', file: options.svg, data: svg });
  }
  if (options.png !== undefined) {
    const modules = qrcode.create(link, QR_CODE_OPTIONS).modules.size + 2 * QR_CODE_OPTIONS.margin;
    const png = await qrcode.toBuffer(link, {
      ...QR_CODE_OPTIONS,
      type: 'png',
      scale: qrPngScale(modules, size),
    });
    images.push({ flag: '--png', file: options.png, data: png });
  }
  for (const image of images) {
    await writeImage(image, Boolean(options.force));
    print(`Wrote the QR code of ${out.cyan(link)} to ${image.file}`);
  }
});
