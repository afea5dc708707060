/**
 * A PDF shown page by page as pictures (pdf.js), so the whole contract reads the same on a phone
 * (where an <iframe> of a PDF shows one page or nothing) as on a desktop. The bytes are fetched here
 * with the caller's credentials (a signing link's token is in the URL).
 */
import { Alert, Skeleton } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { readToken } from '../../../stores/session';

type Props = {
  url: string;
  /** the width of a page on screen, px; defaults to the container's */
  maxWidth?: number;
  /** send the signed-in token (the logged-in pages); the public page's URL carries its own */
  withToken?: boolean;
};

export const loadPdfJs = async () => {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  return pdfjs;
};

export const PdfPages = ({ url, maxWidth, withToken = false }: Props) => {
  const box = useRef<HTMLDivElement | null>(null);
  const [state, setState] = useState<'loading' | 'done' | 'error'>('loading');
  const [pageCount, setPageCount] = useState(0);

  useEffect(() => {
    let isLive = true;
    const holder = box.current;
    if (!holder) return;
    holder.replaceChildren();
    setState('loading');
    (async () => {
      const headers: Record<string, string> = {};
      const token = withToken ? readToken() : '';
      if (token) headers.Authorization = token;
      const res = await fetch(url, { headers, credentials: 'include' });
      if (!res.ok || !(res.headers.get('content-type') ?? '').includes('pdf')) throw new Error('合同文件加载失败');
      const data = new Uint8Array(await res.arrayBuffer());
      const pdfjs = await loadPdfJs();
      const doc = await pdfjs.getDocument({ data }).promise;
      if (!isLive) return;
      setPageCount(doc.numPages);
      const width = Math.min(maxWidth ?? Number.POSITIVE_INFINITY, holder.clientWidth || 360);
      const ratio = window.devicePixelRatio || 1;
      for (let n = 1; n <= doc.numPages; n++) {
        const pdfPage = await doc.getPage(n);
        if (!isLive) return;
        const base = pdfPage.getViewport({ scale: 1 });
        const viewport = pdfPage.getViewport({ scale: (width / base.width) * ratio });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${width}px`;
        canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
        canvas.style.display = 'block';
        canvas.style.margin = '0 auto 12px';
        canvas.style.boxShadow = '0 1px 6px rgba(0,0,0,.18)';
        canvas.style.background = '#fff';
        canvas.setAttribute('aria-label', `第${n}页`);
        canvas.dataset.page = String(n);
        holder.appendChild(canvas);
        await pdfPage.render({ canvas, viewport }).promise;
      }
      if (isLive) setState('done');
    })().catch(() => isLive && setState('error'));
    return () => {
      isLive = false;
    };
  }, [url, maxWidth, withToken]);

  return (
    <div>
      {state === 'loading' && <Skeleton active paragraph={{ rows: 8 }} />}
      {state === 'error' && <Alert type="error" showIcon message="合同文件加载失败，请刷新页面重试" />}
      <div ref={box} data-testid="pdf-pages" data-pages={state === 'done' ? pageCount : undefined} />
    </div>
  );
};
