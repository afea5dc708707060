// Minimal typings of the two font packages that ship none (only what this library calls).
declare module 'subset-font' {
  const subsetFont: (
    font: Uint8Array,
    text: string,
    options?: { targetFormat?: 'sfnt' | 'woff' | 'woff2'; noLayoutClosure?: boolean; noHinting?: boolean },
  ) => Promise<Buffer>;
  export default subsetFont;
}

declare module 'fontkit' {
  export type Glyph = { id: number; advanceWidth: number; path: { toSVG(): string } };
  export type Font = {
    unitsPerEm: number;
    ascent: number;
    descent: number;
    glyphForCodePoint(codePoint: number): Glyph;
    hasGlyphForCodePoint(codePoint: number): boolean;
    // biome-ignore lint/suspicious/noExplicitAny: fontkit's own objects, passed through to pdf-lib
    [key: string]: any;
  };
  export const create: (buffer: Uint8Array, postscriptName?: string) => Font;
}
