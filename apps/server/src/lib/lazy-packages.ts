/**
 * Heavy npm packages loaded when a feature first needs them instead of at start-up (issue 25: the
 * idle server's memory). Each weighs 20–30 MB of RSS once loaded (measured in a fresh node: exceljs
 * +28 MB, @libpdf/core +30, pdf-lib +23.5, fontkit +24, @aws-sdk/client-s3 +24), and most processes
 * never export a spreadsheet, render a contract or talk to S3.
 *
 * Every value import of these packages in the server's source goes through here (`import type` stays
 * static): the production bundle (build.mjs) keeps a dynamic import() of an external package dynamic,
 * while a static import anywhere, even in a module only reached lazily, is hoisted to the bundle's top
 * and loaded when the process starts. Each loader is memoised: the package is loaded once per process.
 */
import { createRequire } from 'node:module';
import type * as LibPdf from '@libpdf/core';
import type * as Resvg from '@resvg/resvg-js';
import type ExcelJSModule from 'exceljs';
import type * as Fontkit from 'fontkit';
import type * as PdfLib from 'pdf-lib';

const once = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
};

/** exceljs (its CommonJS module.exports, what `import ExcelJS from 'exceljs'` gives). */
export const loadExcel = once(async (): Promise<typeof ExcelJSModule> => (await import('exceljs')).default);

let pdfLibLoaded: typeof PdfLib | undefined;

/** pdf-lib. */
export const loadPdfLib = once(async () => {
  pdfLibLoaded = await import('pdf-lib');
  return pdfLibLoaded;
});

/**
 * pdf-lib for the synchronous drawing helpers of a render, once `loadPdfLib()` has resolved (every
 * entry point of the contract PDF library awaits it first; a page or document in hand means it has).
 */
export const pdfLib = (): typeof PdfLib => {
  if (!pdfLibLoaded) throw new Error('pdf-lib is not loaded yet: await loadPdfLib() first');
  return pdfLibLoaded;
};

/** @libpdf/core (the archive's signature). */
export const loadLibPdf = once((): Promise<typeof LibPdf> => import('@libpdf/core'));

/** resvg (the seal's PNG), a native addon. */
export const loadResvg = once((): Promise<typeof Resvg> => import('@resvg/resvg-js'));

/** The S3 driver's SDK: the client and lib-storage's multipart Upload. */
export const loadS3Sdk = once(async () => {
  const [client, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  return { s3: client, Upload: storage.Upload };
});

let fontkitLoaded: typeof Fontkit | undefined;

/**
 * fontkit, required on first use: the contract font's measuring (textWidth, unsupportedChars) is
 * synchronous and called from synchronous code (layout, seal geometry, glyph checks of a form), so
 * this one is a lazy require rather than an import() (fontkit ships a CommonJS build for node).
 */
export const fontkit = (): typeof Fontkit => {
  fontkitLoaded ??= createRequire(import.meta.url)('fontkit') as typeof Fontkit;
  return fontkitLoaded;
};
