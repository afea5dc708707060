/** A streaming zip archive (deflate, one pass, sizes in data descriptors): the container of the .xlsx writer. */
import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';

export type ZipEntry = { name: string; data: Buffer | AsyncIterable<Buffer> };

/** The most a plain (not zip64) archive can count: sizes and offsets are 32-bit. */
const MAX_32 = 0xffffffff;
/** bit 3: sizes and CRC follow the data; bit 11: names are UTF-8 */
const FLAGS = 0x0808;
const DEFLATE = 8;
const VERSION = 20;

const dosTime = (d: Date) => ({
  time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
  date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
});

const tooLarge = () => new Error('the workbook is too large for a zip without zip64 (4 GB)');

/**
 * The bytes of a zip holding `entries` in order, produced as they are read: each entry's data is
 * pulled and deflated only as fast as the reader of the archive takes it, so a big entry never
 * sits in memory.
 */
export async function* zipStream(entries: Iterable<ZipEntry>, modified = new Date()): AsyncGenerator<Buffer> {
  const { time, date } = dosTime(modified);
  const central: Buffer[] = [];
  let offset = 0;
  let count = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(FLAGS, 6);
    local.writeUInt16LE(DEFLATE, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    // CRC and sizes (14..25) stay 0: they come in the data descriptor
    local.writeUInt16LE(name.length, 26);
    const start = offset;
    yield local;
    yield name;
    offset += local.length + name.length;

    let crc = 0;
    let size = 0;
    let packed = 0;
    const source = Buffer.isBuffer(entry.data) ? [entry.data] : entry.data;
    const counted = async function* () {
      for await (const chunk of source) {
        crc = zlib.crc32(chunk, crc);
        size += chunk.length;
        yield chunk;
      }
    };
    // pipeline, not pipe: a failing source (a database read) fails the loop below instead of stalling it
    const deflated = zlib.createDeflateRaw();
    pipeline(Readable.from(counted(), { objectMode: false }), deflated, () => {});
    for await (const chunk of deflated as AsyncIterable<Buffer>) {
      packed += chunk.length;
      yield chunk;
    }
    if (size > MAX_32 || packed > MAX_32 || offset + packed > MAX_32) throw tooLarge();
    offset += packed;

    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc, 4);
    descriptor.writeUInt32LE(packed, 8);
    descriptor.writeUInt32LE(size, 12);
    yield descriptor;
    offset += descriptor.length;

    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(VERSION, 6);
    header.writeUInt16LE(FLAGS, 8);
    header.writeUInt16LE(DEFLATE, 10);
    header.writeUInt16LE(time, 12);
    header.writeUInt16LE(date, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(packed, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    // extra, comment, disk, attributes: 0
    header.writeUInt32LE(start, 42);
    central.push(header, name);
    count++;
  }
  const directory = Buffer.concat(central);
  if (offset + directory.length > MAX_32 || count > 0xffff) throw tooLarge();
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  yield directory;
  yield end;
}
