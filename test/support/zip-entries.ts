import { inflateRawSync } from 'node:zlib';

/** End of central directory record signature (APPNOTE.TXT section 4.3.16). */
const EOCD = 0x06054b50;
/** Central directory file header signature (section 4.3.12). */
const CENTRAL = 0x02014b50;

/**
 * The files of a ZIP held in memory, by name, read through its central directory (APPNOTE.TXT):
 * stored or deflated entries, no ZIP64, no encryption. Written here rather than taken from a
 * library so that the test reads the archive as an auditor's own tool would, independently of
 * the writer.
 * @throws Error for what it does not read
 */
export function zipEntries(zip: Buffer): Map<string, Buffer> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || zip.readUInt32LE(eocd) !== EOCD) throw new Error('not a ZIP: no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const files = new Map<string, Buffer>();
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new Error(`bad central directory entry ${index}`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataStart, dataStart + compressedSize);
    const data = method === 0 ? raw : method === 8 ? inflateRawSync(raw) : undefined;
    if (!data || data.length !== size) throw new Error(`${name}: method ${method} or size not read`);
    files.set(name, data);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
