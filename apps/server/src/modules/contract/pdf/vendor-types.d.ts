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
  export type Path = {
    toSVG(): string;
    translate(x: number, y: number): Path;
    transform(m0: number, m1: number, m2: number, m3: number, m4: number, m5: number): Path;
  };
  export type Glyph = { id: number; advanceWidth: number; path: Path };
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
