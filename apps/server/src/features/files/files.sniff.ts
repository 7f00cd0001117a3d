/**
 * What a file is, from its first bytes only (never its name or the type the browser declared): a
 * small signature table for the types Cohort previews or commonly shares. Anything unknown is
 * `application/octet-stream`; markup (HTML, SVG, XML) is recognised so it is never served inline.
 */

export const SNIFF_BYTES = 64 * 1024;

const ascii = (buf: Buffer, start: number, end: number) => buf.toString('latin1', start, end);
const startsWith = (buf: Buffer, bytes: number[], offset = 0) =>
  buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);

export function detectType(head: Buffer): string {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return 'audio/wav';
  if (ascii(head, 0, 5) === '%PDF-') return 'application/pdf';
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) {
    // Matroska/WebM: video when a video codec is declared near the start (MediaRecorder writes it there).
    const start = ascii(head, 0, Math.min(head.length, 4096));
    const webm = start.includes('webm');
    if (/V_(VP8|VP9|AV1|MPEG4)/.test(start)) return webm ? 'video/webm' : 'video/x-matroska';
    return webm ? 'audio/webm' : 'audio/x-matroska';
  }
  if (ascii(head, 0, 4) === 'OggS') return 'audio/ogg';
  if (
    ascii(head, 0, 3) === 'ID3' ||
    (head.length > 1 && head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)
  ) {
    return 'audio/mpeg';
  }
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    return brand.startsWith('M4A') ? 'audio/mp4' : 'video/mp4';
  }
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
    return 'application/zip';
  }
  if (startsWith(head, [0x1f, 0x8b])) return 'application/gzip';
  return detectText(head);
}

function detectText(head: Buffer): string {
  if (head.length === 0 || head.includes(0)) return 'application/octet-stream';
  // Text must decode as UTF-8 (a cut multi-byte character at the end of the head is fine).
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, SNIFF_BYTES));
  const replacements = (text.match(/\uFFFD/g) ?? []).length;
  if (replacements > 1) return 'application/octet-stream';
  const start = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 1024)
    .toLowerCase();
  if (/^<svg[\s>]/.test(start) || (start.startsWith('<?xml') && start.includes('<svg')))
    return 'image/svg+xml';
  if (/^<(!doctype html|html|head|body|script|iframe|img|div|a |p>|style|meta|title)/.test(start)) {
    return 'text/html';
  }
  if (start.startsWith('<?xml')) return 'application/xml';
  // Markup anywhere near the top still makes a text file dangerous to render: call it HTML.
  if (/<(script|iframe|html|svg|object|embed)[\s>]/.test(start)) return 'text/html';
  return 'text/plain';
}

/** Pixel size from an image header (PNG, GIF, WebP, JPEG), or null. */
export function imageSize(type: string, head: Buffer): { width: number; height: number } | null {
  try {
    if (type === 'image/png' && head.length >= 24) {
      return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
    }
    if (type === 'image/gif' && head.length >= 10) {
      return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
    }
    if (type === 'image/webp' && head.length >= 30) {
      const chunk = ascii(head, 12, 16);
      if (chunk === 'VP8X') return { width: head.readUIntLE(24, 3) + 1, height: head.readUIntLE(27, 3) + 1 };
      if (chunk === 'VP8 ')
        return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
      if (chunk === 'VP8L') {
        const bits = head.readUInt32LE(21);
        return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
      }
    }
    if (type === 'image/jpeg') return jpegSize(head);
  } catch {
    return null;
  }
  return null;
}

function jpegSize(buf: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1] ?? 0;
    const length = buf.readUInt16BE(i + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    }
    i += 2 + length;
  }
  return null;
}
