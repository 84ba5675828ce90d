// A QR code of a link's address, as Base64 of a PNG or an SVG document.
import QRCode from 'qrcode';

export interface QrOptions {
  format: 'png' | 'svg';
  /** Width in pixels. */
  size: number;
  /** Quiet zone in modules. */
  margin: number;
  darkColor: string;
  lightColor: string;
  errorCorrectionLevel: 'L' | 'M' | 'Q' | 'H';
}

export async function renderQrCode(address: string, q: QrOptions): Promise<string> {
  const options = {
    errorCorrectionLevel: q.errorCorrectionLevel,
    margin: q.margin,
    width: q.size,
    color: { dark: q.darkColor, light: q.lightColor },
  };
  return q.format === 'svg'
    ? Buffer.from(await QRCode.toString(address, { ...options, type: 'svg' })).toString('base64')
    : (await QRCode.toBuffer(address, { ...options, type: 'png' })).toString('base64');
}
