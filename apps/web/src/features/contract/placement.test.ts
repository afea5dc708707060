import { CONTRACT_PAGE, placedFieldError } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { boxAt, boxOf, boxPx, keepOnPage, MIN_BOX, placedAt, ptToPx, pxToPt, resized, scaleOf } from './placement';

// the editor shows a page 440 px wide: 440 / 595.28 px per point
const scale = scaleOf(440);
const size = { width: 200, height: 18 };
const field = { key: 'customer_name', label: '客户名称' };

describe('placing fields on an uploaded PDF (pt from the top-left ↔ screen px)', () => {
  it('turns pixels into points and back', () => {
    expect(ptToPx(CONTRACT_PAGE.width, scale)).toBeCloseTo(440, 9);
    expect(pxToPt(440, scale)).toBeCloseTo(CONTRACT_PAGE.width, 9);
    expect(pxToPt(ptToPx(123.4, scale), scale)).toBeCloseTo(123.4, 9);
    const px = boxPx({ x: 595.28 / 2, y: 841.89, width: 100, height: 10 }, scale);
    expect(px.x).toBeCloseTo(220, 9);
    expect(px.y).toBeCloseTo(440 * (841.89 / 595.28), 9);
    expect(px.width).toBeCloseTo(73.91, 2);
  });

  it('drops a box where the pointer is, less where it was grabbed', () => {
    // 100 px, 200 px into the page, grabbed 10 px, 5 px inside the box
    expect(boxAt({ x: 100, y: 200 }, { x: 10, y: 5 }, size, scale)).toEqual({
      x: Math.round((90 / scale) * 10) / 10,
      y: Math.round((195 / scale) * 10) / 10,
      width: 200,
      height: 18,
    });
  });

  it('the top-left edge: a box dragged past it stops at 0, 0', () => {
    expect(boxAt({ x: 0, y: 0 }, { x: 0, y: 0 }, size, scale)).toMatchObject({ x: 0, y: 0 });
    expect(boxAt({ x: -50, y: -3 }, { x: 4, y: 4 }, size, scale)).toMatchObject({ x: 0, y: 0 });
  });

  it('the bottom-right edge: a box dragged past it ends on the page, never rounded out past it', () => {
    const b = boxAt({ x: 440, y: ptToPx(CONTRACT_PAGE.height, scale) }, { x: 0, y: 0 }, size, scale);
    expect(b).toEqual({ x: 395.2, y: 823.8, width: 200, height: 18 });
    expect(b.x + b.width).toBeLessThanOrEqual(CONTRACT_PAGE.width);
    expect(b.y + b.height).toBeLessThanOrEqual(CONTRACT_PAGE.height);
    // what the server checks
    expect(placedFieldError({ label: '客户名称', ...b })).toBe('');
    expect(placedFieldError({ label: '客户名称', ...b, x: b.x + 0.1 })).toMatch(/右边缘/);
    expect(placedFieldError({ label: '客户名称', ...b, y: b.y + 0.1 })).toMatch(/下边缘/);
  });

  it('a box as wide as the page fits exactly; a larger one is made the page', () => {
    expect(keepOnPage({ x: 30, y: 0, width: 595.28, height: 10 })).toMatchObject({ x: 0, width: 595.2 });
    expect(keepOnPage({ x: 0, y: 5, width: 900, height: 2000 })).toEqual({ x: 0, y: 0, width: 595.2, height: 841.8 });
  });

  it('resizes from the bottom-right corner up to the page edges, down to the smallest box', () => {
    const b = { x: 500, y: 800, width: 50, height: 20 };
    expect(resized(b, 1000, 1000, scale)).toEqual({ x: 500, y: 800, width: 95.2, height: 41.8 });
    expect(resized(b, -1000, -1000, scale)).toEqual({ x: 500, y: 800, ...MIN_BOX });
    expect(resized({ x: 0, y: 0, width: 100, height: 20 }, 44, 0, scale)).toMatchObject({ width: 159.5, height: 20 });
  });

  it('a field put on a page gets its page and its box, which the numeric inputs show', () => {
    const f = placedAt({ ...field, font_size: 12 }, 2, { x: 72.04, y: 900, width: 200, height: 18 });
    expect(f).toEqual({ ...field, font_size: 12, page: 2, x: 72, y: 823.8, width: 200, height: 18 });
    // a field saved without a height is one line of its font
    expect(boxOf({ ...field, x: 10, y: 20, width: 100, font_size: 10 })).toEqual({ x: 10, y: 20, width: 100, height: 15 });
  });
});
