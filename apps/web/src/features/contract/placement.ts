/**
 * Fields placed on an uploaded PDF template: the box of each field in points (A4, 595.28 × 841.89,
 * origin at the page's top-left, y downwards, as the server stores and draws them) and the screen
 * pixels of the page it is dragged on. Boxes are kept inside the page, to 0.1 pt, never rounded out
 * past an edge (the server refuses a box beyond the page).
 */
import { CONTRACT_PAGE, PLACED_FONT_SIZE, type TemplateField } from '@crm/contracts';

export type Box = { x: number; y: number; width: number; height: number };
export type Point = { x: number; y: number };

/** The smallest box a drag leaves (pt). */
export const MIN_BOX = { width: 12, height: 6 } as const;
/** A field added without a place: its width and height (pt). */
export const NEW_BOX = { width: 200, height: 18 } as const;

const round1 = (v: number) => Math.round(v * 10) / 10;
/** Down to 0.1 pt (a far edge never lands past the page). */
const floor1 = (v: number) => Math.floor(v * 10 + 1e-6) / 10;
const within = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);

/** Screen pixels per point for a page shown `pageWidthPx` wide. */
export const scaleOf = (pageWidthPx: number) => pageWidthPx / CONTRACT_PAGE.width;
export const pxToPt = (px: number, scale: number) => px / scale;
export const ptToPx = (pt: number, scale: number) => pt * scale;

/** The box a field takes on its page (pt); a field without a height is one line of its font. */
export const boxOf = (f: TemplateField): Box => ({
  x: f.x ?? 0,
  y: f.y ?? 0,
  width: f.width ?? NEW_BOX.width,
  height: f.height ?? Math.round((f.font_size ?? PLACED_FONT_SIZE) * 1.5),
});

/** A box moved inside the page: its size kept (at most the page's), its corner pulled in so the far edges stay on it. */
export const keepOnPage = (b: Box): Box => {
  const width = within(round1(b.width), MIN_BOX.width, floor1(CONTRACT_PAGE.width));
  const height = within(round1(b.height), MIN_BOX.height, floor1(CONTRACT_PAGE.height));
  return {
    x: within(round1(b.x), 0, floor1(CONTRACT_PAGE.width - width)),
    y: within(round1(b.y), 0, floor1(CONTRACT_PAGE.height - height)),
    width,
    height,
  };
};

/**
 * Where a box dragged on a page lands: the pointer's position on the page (px from the page's
 * top-left corner) less where the box was grabbed (px from the box's corner), in points, on the page.
 */
export const boxAt = (pointer: Point, grab: Point, size: Pick<Box, 'width' | 'height'>, scale: number): Box =>
  keepOnPage({
    x: pxToPt(pointer.x - grab.x, scale),
    y: pxToPt(pointer.y - grab.y, scale),
    width: size.width,
    height: size.height,
  });

/** A box resized by dragging its bottom-right corner by (dx, dy) px: its corner stays, its far edges stop at the page's. */
export const resized = (b: Box, dx: number, dy: number, scale: number): Box => {
  const start = keepOnPage(b);
  return {
    ...start,
    width: within(round1(start.width + pxToPt(dx, scale)), MIN_BOX.width, floor1(CONTRACT_PAGE.width - start.x)),
    height: within(round1(start.height + pxToPt(dy, scale)), MIN_BOX.height, floor1(CONTRACT_PAGE.height - start.y)),
  };
};

/** The box in screen pixels on a page shown at `scale`. */
export const boxPx = (b: Box, scale: number): Box => ({
  x: ptToPx(b.x, scale),
  y: ptToPx(b.y, scale),
  width: ptToPx(b.width, scale),
  height: ptToPx(b.height, scale),
});

/** A field put on a page (page 1-based), its box kept on the page. */
export const placedAt = (f: TemplateField, page: number, b: Box): TemplateField => ({ ...f, page, ...keepOnPage(b) });
