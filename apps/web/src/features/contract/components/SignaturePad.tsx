/** 手写签名: a canvas the customer draws on with finger or mouse; the drawing is handed out as a PNG data URL. */
import { Button, Space, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';

type Props = {
  /** the PNG data URL of the drawing, or null once cleared */
  onChange: (png: string | null) => void;
  height?: number;
};

export const SignaturePad = ({ onChange, height = 180 }: Props) => {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const drawing = useRef(false);
  const last = useRef<{ x: number; y: number } | null>(null);
  const [isEmpty, setEmpty] = useState(true);

  // the canvas is drawn at the screen's pixel density so the signature stays sharp on a phone
  const fit = useCallback(() => {
    const c = canvas.current;
    if (!c) return;
    const ratio = window.devicePixelRatio || 1;
    const { width } = c.getBoundingClientRect();
    c.width = Math.round(width * ratio);
    c.height = Math.round(height * ratio);
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    ctx.lineWidth = 2.6;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#111';
  }, [height]);

  useEffect(() => {
    fit();
  }, [fit]);

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const rect = (e.target as HTMLCanvasElement).getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };

  const down = (e: React.PointerEvent<HTMLCanvasElement>) => {
    e.preventDefault();
    (e.target as HTMLCanvasElement).setPointerCapture(e.pointerId);
    drawing.current = true;
    last.current = point(e);
    const ctx = canvas.current?.getContext('2d');
    if (ctx && last.current) {
      ctx.beginPath();
      ctx.arc(last.current.x, last.current.y, 1.2, 0, Math.PI * 2);
      ctx.fillStyle = '#111';
      ctx.fill();
    }
  };
  const move = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    const ctx = canvas.current?.getContext('2d');
    const p = point(e);
    if (ctx && last.current) {
      ctx.beginPath();
      ctx.moveTo(last.current.x, last.current.y);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
    }
    last.current = p;
  };
  const up = () => {
    if (!drawing.current) return;
    drawing.current = false;
    last.current = null;
    setEmpty(false);
    onChange(canvas.current?.toDataURL('image/png') ?? null);
  };
  const clear = () => {
    fit();
    setEmpty(true);
    onChange(null);
  };

  return (
    <div>
      <div style={{ position: 'relative', border: '1px dashed #bbb', borderRadius: 8, background: '#fff' }}>
        <canvas
          ref={canvas}
          aria-label="签名区域"
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerLeave={up}
          style={{ width: '100%', height, display: 'block', touchAction: 'none', cursor: 'crosshair' }}
        />
        {isEmpty && (
          <Typography.Text
            type="secondary"
            style={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', pointerEvents: 'none' }}
          >
            请在此处手写签名
          </Typography.Text>
        )}
      </div>
      <Space style={{ marginTop: 8 }}>
        <Button size="small" onClick={clear} disabled={isEmpty}>
          清除重写
        </Button>
      </Space>
    </div>
  );
};
