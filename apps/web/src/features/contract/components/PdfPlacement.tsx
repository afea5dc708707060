/**
 * The uploaded PDF template's pages with its fields' boxes on them: a field dragged from the field
 * buttons is dropped where the pointer is; a box is moved (to another page too) by dragging it and
 * resized by its bottom-right corner. Every change goes through `onChange` in points, so the numeric
 * inputs of the field table show it at once (and stay the way for keyboard users).
 */
import type { TemplateField } from '@crm/contracts';
import { Alert, Skeleton } from 'antd';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { type DragEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { readToken } from '../../../stores/session';
import { type Box, boxAt, boxOf, boxPx, NEW_BOX, type Point, placedAt, resized, scaleOf } from '../placement';
import { loadPdfJs } from './PdfPages';

/** The drag data of a field button dropped on a page. */
export const FIELD_DRAG_TYPE = 'application/x-contract-field';

type Props = {
  url: string;
  /** the width of a page on screen, px */
  width: number;
  fields: TemplateField[];
  onChange: (index: number, field: TemplateField) => void;
  /** a field button dropped on a page */
  onDropNew: (field: { key: string; label: string }, page: number, box: Box) => void;
  onPages?: (count: number) => void;
};

type Drag = { index: number; mode: 'move' | 'resize'; start: Point; grab: Point; box: Box; page: number };

const A4_RATIO = 841.89 / 595.28;

const PageCanvas = ({ doc, n, width }: { doc: PDFDocumentProxy; n: number; width: number }) => {
  const ref = useRef<HTMLCanvasElement | null>(null);
  useEffect(() => {
    let isLive = true;
    (async () => {
      const page = await doc.getPage(n);
      const canvas = ref.current;
      if (!isLive || !canvas) return;
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: (width / page.getViewport({ scale: 1 }).width) * ratio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      await page.render({ canvas, viewport }).promise;
    })().catch(() => undefined);
    return () => {
      isLive = false;
    };
  }, [doc, n, width]);
  return <canvas ref={ref} style={{ width: '100%', height: '100%', display: 'block' }} aria-label={`第${n}页`} />;
};

export const PdfPlacement = ({ url, width, fields, onChange, onDropNew, onPages }: Props) => {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [isFailed, setFailed] = useState(false);
  const pages = useRef(new Map<number, HTMLDivElement>());
  const drag = useRef<Drag | null>(null);
  const scale = scaleOf(width);
  const onPagesRef = useRef(onPages);
  onPagesRef.current = onPages;

  useEffect(() => {
    let isLive = true;
    let opened: PDFDocumentProxy | null = null;
    setDoc(null);
    setFailed(false);
    (async () => {
      const token = readToken();
      const res = await fetch(url, { headers: token ? { Authorization: token } : {}, credentials: 'include' });
      if (!res.ok || !(res.headers.get('content-type') ?? '').includes('pdf')) throw new Error('合同文件加载失败');
      const pdfjs = await loadPdfJs();
      const loaded = await pdfjs.getDocument({ data: new Uint8Array(await res.arrayBuffer()) }).promise;
      opened = loaded;
      if (!isLive) return void loaded.destroy();
      setDoc(loaded);
      onPagesRef.current?.(loaded.numPages);
    })().catch(() => isLive && setFailed(true));
    return () => {
      isLive = false;
      void opened?.destroy();
    };
  }, [url]);

  /** The page under a screen point, and the point on it (px from its top-left). */
  const pageAt = (clientX: number, clientY: number) => {
    for (const [n, el] of pages.current) {
      const r = el.getBoundingClientRect();
      if (clientX >= r.left && clientX <= r.right && clientY >= r.top && clientY <= r.bottom)
        return { n, at: { x: clientX - r.left, y: clientY - r.top } };
    }
    return null;
  };

  // the latest props for the window's pointer listeners of a drag
  const latest = useRef({ fields, onChange, scale });
  latest.current = { fields, onChange, scale };

  /** Follows a drag. Everything is read through refs: it is the listener of the render that started the drag. */
  const follow = (e: globalThis.PointerEvent) => {
    const d = drag.current;
    const { fields: now, onChange: change, scale: s } = latest.current;
    const f = d && now[d.index];
    if (!d || !f) return;
    if (d.mode === 'resize') {
      change(d.index, placedAt(f, d.page, resized(d.box, e.clientX - d.start.x, e.clientY - d.start.y, s)));
      return;
    }
    // over another page: the box goes there; beside the pages: it stays on its own, at the nearest place
    const over = pageAt(e.clientX, e.clientY);
    const n = over?.n ?? d.page;
    const rect = pages.current.get(n)?.getBoundingClientRect();
    if (!rect) return;
    d.page = n;
    change(d.index, placedAt(f, n, boxAt(over?.at ?? { x: e.clientX - rect.left, y: e.clientY - rect.top }, d.grab, d.box, s)));
  };

  /** Ends the drag under way, if any (its listeners off the window). */
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => () => stop.current?.(), []);

  /** A drag of a box starts: followed on the window, so it goes on when the box moves to another page. */
  const onBoxDown = (e: PointerEvent<HTMLDivElement>, index: number, mode: Drag['mode']) => {
    const f = fields[index];
    if (e.button !== 0 || !f) return;
    e.preventDefault();
    e.stopPropagation();
    stop.current?.();
    const r = e.currentTarget.getBoundingClientRect();
    drag.current = {
      index,
      mode,
      start: { x: e.clientX, y: e.clientY },
      grab: { x: e.clientX - r.left, y: e.clientY - r.top },
      box: boxOf(f),
      page: f.page ?? 1,
    };
    const up = () => {
      drag.current = null;
      stop.current = null;
      window.removeEventListener('pointermove', follow);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
    };
    stop.current = up;
    window.addEventListener('pointermove', follow);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  };

  const onDragOver = (e: DragEvent<HTMLDivElement>) => {
    if (e.dataTransfer.types.includes(FIELD_DRAG_TYPE)) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    }
  };

  const onDrop = (e: DragEvent<HTMLDivElement>, n: number) => {
    const raw = e.dataTransfer.getData(FIELD_DRAG_TYPE);
    if (!raw) return;
    e.preventDefault();
    const r = e.currentTarget.getBoundingClientRect();
    const field = JSON.parse(raw) as { key: string; label: string };
    onDropNew(field, n, boxAt({ x: e.clientX - r.left, y: e.clientY - r.top }, { x: 0, y: 0 }, NEW_BOX, scale));
  };

  if (isFailed) return <Alert type="error" showIcon message="PDF加载失败，请重新上传" />;
  if (!doc) return <Skeleton active paragraph={{ rows: 8 }} />;
  return (
    <div data-testid="pdf-placement" data-pages={doc.numPages}>
      {Array.from({ length: doc.numPages }, (_, i) => i + 1).map((n) => (
        <div
          key={n}
          ref={(el) => {
            if (el) pages.current.set(n, el);
            else pages.current.delete(n);
          }}
          data-testid={`placement-page-${n}`}
          onDragOver={onDragOver}
          onDrop={(e) => onDrop(e, n)}
          style={{
            position: 'relative',
            width,
            height: width * A4_RATIO,
            margin: '0 auto 12px',
            background: '#fff',
            boxShadow: '0 1px 6px rgba(0,0,0,.18)',
          }}
        >
          <PageCanvas doc={doc} n={n} width={width} />
          {fields.map((f, i) => {
            if ((f.page ?? 1) !== n || f.x === undefined || f.y === undefined) return null;
            const px = boxPx(boxOf(f), scale);
            return (
              <div
                // biome-ignore lint/suspicious/noArrayIndexKey: a field may be placed twice; its row is its identity
                key={i}
                data-testid={`placed-field-${i}`}
                title={`${f.label}：X ${f.x}，Y ${f.y}（pt）`}
                onPointerDown={(e) => onBoxDown(e, i, 'move')}
                style={{
                  position: 'absolute',
                  left: px.x,
                  top: px.y,
                  width: px.width,
                  height: px.height,
                  boxSizing: 'border-box',
                  border: '1px dashed #1677ff',
                  background: 'rgba(22,119,255,.12)',
                  color: '#0958d9',
                  fontSize: 11,
                  lineHeight: `${Math.min(px.height, 16)}px`,
                  overflow: 'hidden',
                  whiteSpace: 'nowrap',
                  cursor: 'move',
                  touchAction: 'none',
                  userSelect: 'none',
                }}
              >
                {f.label}
                <div
                  data-testid={`resize-field-${i}`}
                  onPointerDown={(e) => onBoxDown(e, i, 'resize')}
                  style={{
                    position: 'absolute',
                    right: 0,
                    bottom: 0,
                    width: 8,
                    height: 8,
                    background: '#1677ff',
                    cursor: 'nwse-resize',
                  }}
                />
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
};
