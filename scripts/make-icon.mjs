// Draws media/icon.png (128×128): the activity-bar glyph, a flag above a switched-on toggle, on a rounded square.
// Pure Node (zlib for PNG), so the icon can be rebuilt anywhere: `node scripts/make-icon.mjs`.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const size = 128;
const pixels = Buffer.alloc(size * size * 4);
const background = [26, 25, 66];
const accent = [129, 122, 254];
const light = [255, 255, 255];

function inRoundedRect(x, y, x0, y0, x1, y1, r) {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= x0 && x <= x1 && y >= y0 && y <= y1;
}

function color(x, y) {
  if (!inRoundedRect(x, y, 0, 0, 127, 127, 24)) return null;
  // flag pole and cloth
  if (x >= 30 && x <= 36 && y >= 18 && y <= 110) return light;
  if (y >= 22 && y <= 66 && x >= 36) {
    const notch = 84 - Math.abs(y - 44) * 0.5;
    if (x <= Math.max(notch, 60) && x <= 88) return accent;
  }
  // toggle: track with the knob on the right (on)
  if (inRoundedRect(x, y, 50, 80, 110, 108, 14)) {
    if ((x - 96) ** 2 + (y - 94) ** 2 <= 10 * 10) return light;
    return accent;
  }
  return background;
}

for (let y = 0; y < size; y++) {
  for (let x = 0; x < size; x++) {
    const c = color(x, y);
    const offset = (y * size + x) * 4;
    if (c) pixels.set([...c, 255], offset);
  }
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(buffer) {
  let crc = ~0;
  for (const byte of buffer) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0);
header.writeUInt32BE(size, 4);
header.set([8, 6, 0, 0, 0], 8);
const rows = Buffer.concat(
  Array.from({ length: size }, (_, y) => Buffer.concat([Buffer.from([0]), pixels.subarray(y * size * 4, (y + 1) * size * 4)])),
);
const png = Buffer.concat([
  Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(rows)),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('../media/icon.png', import.meta.url), png);
