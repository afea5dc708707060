import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * HarfBuzz's subsetter (the wasm build subset-font ships) with ONE parsed face of the contract font kept for
 * the life of the process. subset-font copies the 1.5 MiB font into wasm memory and parses a new face on
 * every call (~40–80 ms per contract, measured); with the face kept, HarfBuzz reuses its table
 * accelerators and a contract's subset takes ~15 ms, a signature's few characters < 1 ms.
 *
 * The layout tables are dropped: the PDF draws glyphs by id (Identity-H) and the layout never shapes CJK
 * (no closure); without GSUB/GPOS fontkit's per-line layout in pdf-lib costs ~0.4 ms instead of ~30 ms.
 */

/** the part of the WebAssembly global used here (the server's lib settings do not declare it) */
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: { instantiate(bytes: Uint8Array): Promise<{ instance: { exports: unknown } }> };
};

type HbExports = {
  memory: { buffer: ArrayBuffer };
  _initialize(): void;
  malloc(n: number): number;
  hb_blob_create(data: number, len: number, mode: number, user: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, len: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_set_clear(set: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_get_flags(input: number): number;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_input_set(input: number, which: number): number;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_or_fail(face: number, input: number): number;
};

const HB_MEMORY_MODE_READONLY = 1;
const SETS_DROP_TABLE_TAG = 3;
const SETS_LAYOUT_FEATURE_TAG = 6;
const FLAG_NO_LAYOUT_CLOSURE = 0x200;
const DROPPED_TABLES = ['GSUB', 'GPOS', 'GDEF', 'BASE', 'JSTF', 'MATH', 'DSIG'];

const tag = (s: string) => [...s].reduce((a, c) => a * 256 + c.charCodeAt(0), 0);

/** the wasm file of the harfbuzzjs that subset-font depends on (resolved through subset-font, not hoisting) */
const wasmPath = () => {
  const fromSubsetFont = createRequire(createRequire(import.meta.url).resolve('subset-font'));
  return fromSubsetFont.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm');
};

export type FaceSubsetter = (text: string) => Buffer;

/** Parses `font` once; the returned function subsets it to the code points of `text` (an OpenType sfnt). */
export const createFaceSubsetter = async (font: Uint8Array): Promise<FaceSubsetter> => {
  const { instance } = await wasm.instantiate(readFileSync(wasmPath()));
  const hb = instance.exports as unknown as HbExports;
  hb._initialize();
  const heap = () => new Uint8Array(hb.memory.buffer); // memory may grow: a fresh view each time
  const data = hb.malloc(font.byteLength);
  heap().set(font, data);
  const blob = hb.hb_blob_create(data, font.byteLength, HB_MEMORY_MODE_READONLY, 0, 0);
  const face = hb.hb_face_create(blob, 0);
  hb.hb_blob_destroy(blob);

  return (text: string) => {
    const input = hb.hb_subset_input_create_or_fail();
    if (input === 0) throw new Error('HarfBuzz: hb_subset_input_create_or_fail failed');
    let subset = 0;
    try {
      hb.hb_set_clear(hb.hb_subset_input_set(input, SETS_LAYOUT_FEATURE_TAG));
      const drop = hb.hb_subset_input_set(input, SETS_DROP_TABLE_TAG);
      for (const t of DROPPED_TABLES) hb.hb_set_add(drop, tag(t));
      hb.hb_subset_input_set_flags(input, hb.hb_subset_input_get_flags(input) | FLAG_NO_LAYOUT_CLOSURE);
      const unicodes = hb.hb_subset_input_unicode_set(input);
      for (const ch of text) hb.hb_set_add(unicodes, ch.codePointAt(0) ?? 0);
      subset = hb.hb_subset_or_fail(face, input);
    } finally {
      hb.hb_subset_input_destroy(input);
    }
    if (subset === 0) throw new Error('HarfBuzz: hb_subset_or_fail failed');
    const result = hb.hb_face_reference_blob(subset);
    try {
      const at = hb.hb_blob_get_data(result, 0);
      const length = hb.hb_blob_get_length(result);
      if (length === 0) throw new Error('HarfBuzz: empty subset');
      return Buffer.from(heap().slice(at, at + length));
    } finally {
      hb.hb_blob_destroy(result);
      hb.hb_face_destroy(subset);
    }
  };
};
