import { useEffect, useState } from 'react';
import {
  QR_CODE_OPTIONS,
  cardLinkOf,
  channelLink,
  qrPngScale,
} from '../../../../shared/core/card-link.js';
import { MAIN_CARD } from '../../../../shared/core/cards.js';
import { loadQrCode } from '../later/chunks.js';
import { CopyButton } from '../parts/CopyButton.js';
import { CARD_LINK } from './card-link.js';
import { cardName, useCardScope } from './card-scope.js';
import './card-link.css';

/** The QR code of the card link as `data:` URLs: the SVG shown and offered, and the PNG. */
interface QrImages {
  svg: string;
  png: string;
}

type QrState = { status: 'drawing' } | { status: 'ready'; images: QrImages } | { status: 'failed' };

/**
 * Draws the QR code with the `qrcode` package, loaded only now: /manage's first draw and every
 * other page go without it.
 */
async function drawQrCode(link: string): Promise<QrImages> {
  const { default: qrcode } = await loadQrCode();
  const svg = await qrcode.toString(link, { ...QR_CODE_OPTIONS, type: 'svg' });
  const modules = qrcode.create(link, QR_CODE_OPTIONS).modules.size + 2 * QR_CODE_OPTIONS.margin;
  const png = await qrcode.toDataURL(link, {
    ...QR_CODE_OPTIONS,
    type: 'image/png',
    scale: qrPngScale(modules),
  });
  return { svg: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, png };
}

/**
 * The card link, the one address to print on the card, with a copy button, and its QR code
 * with downloads as SVG (for print) and PNG (for slides and badges): the link of the card the
 * page shows (`cardLinkOf`: `/go/?c=<slug>`, the bare `/go/` for the card main).
 */
export function CardLink() {
  const scope = useCardScope();
  const link = cardLinkOf(CARD_LINK, scope.slug);
  const file = scope.slug === MAIN_CARD ? 'namecard-qr' : `namecard-${scope.slug}-qr`;
  const [qr, setQr] = useState<QrState>({ status: 'drawing' });

  useEffect(() => {
    let live = true;
    // The QR code carries ?via=qr, so that visits through it count as QR visits.
    drawQrCode(channelLink(link, 'qr')).then(
      (images) => live && setQr({ status: 'ready', images }),
      () => live && setQr({ status: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [link]);

  return (
    <section className="card card-link" aria-labelledby="card-link-heading">
      <h2 id="card-link-heading">Link of {cardName(scope)}</h2>
      <p className="muted small">
        Print this link or its QR code on your card: it opens the Redirecting.. page.
      </p>
      <p className="link-row">
        <a href={link} data-testid="card-link">
          {link}
        </a>
      </p>
      <CopyButton text={link} what="link" />
      {qr.status === 'drawing' && <p className="muted small">Drawing the QR code…</p>}
      {qr.status === 'failed' && <p className="muted small">The QR code could not be drawn.</p>}
      {qr.status === 'ready' && (
        <div className="qr">
          <img src={qr.images.svg} alt={`QR code of ${link}`} width="240" height="240" />
          <div className="link-actions">
            <a className="button secondary" href={qr.images.svg} download={`${file}.svg`}>
              Download SVG
            </a>
            <a className="button secondary" href={qr.images.png} download={`${file}.png`}>
              Download PNG
            </a>
          </div>
        </div>
      )}
    </section>
  );
}
