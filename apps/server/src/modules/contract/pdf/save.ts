import { deflateSync } from 'node:zlib';
import type { PDFDocument } from 'pdf-lib';
import { loadPdfLib } from '../../../lib/lazy-packages';

/**
 * Saves a pdf-lib document with its new streams compressed by Node's zlib instead of pako.
 *
 * pdf-lib deflates every stream it wrote (page contents, the embedded font, ToUnicode CMaps, images) with
 * pako, in JavaScript: the profile of bench/contract-pdf.ts showed pako as the largest single cost of a
 * render and of an archive. After `flush()` (fonts and images embedded) each such stream is replaced by a
 * raw stream of the same dictionary (Filter FlateDecode) holding zlib's output: the same format, native
 * speed. The context's `flateStream` (used by flush() for the font file, CMaps and images) deflates with zlib
 * as well. Streams read from an existing file are raw already and stay untouched.
 *
 * `objectsPerTick` is raised so the writer does not wait a timer tick every 50 objects (under load each
 * wait can last far longer than the serialisation itself).
 */
export const savePdf = async (doc: PDFDocument): Promise<Uint8Array> => {
  const { PDFFlateStream, PDFName, PDFRawStream } = await loadPdfLib();
  const { context } = doc;
  // what flush() embeds (the font file, ToUnicode CMaps, PNG data) goes through the context's flateStream:
  // this document's context deflates with zlib too
  context.flateStream = (contents, dict = {}) =>
    context.stream(deflateSync(typeof contents === 'string' ? Buffer.from(contents, 'latin1') : contents), {
      ...dict,
      Filter: 'FlateDecode',
    });
  await doc.flush();
  const flate = PDFName.of('FlateDecode'); // PDFName.of is interned: identity comparison is exact
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFFlateStream) || object.dict.get(PDFName.of('Filter')) !== flate) continue;
    const raw = deflateSync(object.getUnencodedContents());
    context.assign(ref, PDFRawStream.of(object.dict, new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength)));
  }
  return doc.save({ useObjectStreams: false, objectsPerTick: Number.MAX_SAFE_INTEGER });
};
