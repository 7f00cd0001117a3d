import { MoveUpRight, Square, Undo2 } from 'lucide-react';
import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { cn } from '../../lib/cn.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';

type Tool = 'arrow' | 'box';
interface Shape {
  tool: Tool;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

const COLOUR = '#dc2626';

function draw(context: CanvasRenderingContext2D, image: ImageBitmap, shapes: Shape[]) {
  const { width, height } = context.canvas;
  context.clearRect(0, 0, width, height);
  context.drawImage(image, 0, 0, width, height);
  const line = Math.max(2, Math.round(Math.max(width, height) / 200));
  context.strokeStyle = COLOUR;
  context.fillStyle = COLOUR;
  context.lineWidth = line;
  context.lineCap = 'round';
  context.lineJoin = 'round';
  for (const s of shapes) {
    if (s.tool === 'box') {
      context.strokeRect(
        Math.min(s.x1, s.x2),
        Math.min(s.y1, s.y2),
        Math.abs(s.x2 - s.x1),
        Math.abs(s.y2 - s.y1),
      );
      continue;
    }
    const angle = Math.atan2(s.y2 - s.y1, s.x2 - s.x1);
    const head = line * 5;
    context.beginPath();
    context.moveTo(s.x1, s.y1);
    context.lineTo(s.x2, s.y2);
    context.stroke();
    context.beginPath();
    context.moveTo(s.x2, s.y2);
    context.lineTo(s.x2 - head * Math.cos(angle - Math.PI / 6), s.y2 - head * Math.sin(angle - Math.PI / 6));
    context.lineTo(s.x2 - head * Math.cos(angle + Math.PI / 6), s.y2 - head * Math.sin(angle + Math.PI / 6));
    context.closePath();
    context.fill();
  }
}

/**
 * Draw arrows and boxes on an image before it is sent; the result is a PNG of the image with the
 * drawing burnt in (what gets uploaded).
 */
export function AnnotateDialog({
  image,
  onDone,
  onClose,
}: {
  image: Blob;
  onDone: (annotated: Blob) => void;
  onClose: () => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [bitmap, setBitmap] = useState<ImageBitmap | null>(null);
  const [failed, setFailed] = useState(false);
  const [tool, setTool] = useState<Tool>('arrow');
  const [shapes, setShapes] = useState<Shape[]>([]);
  const drawing = useRef<Shape | null>(null);

  useEffect(() => {
    let live = true;
    createImageBitmap(image)
      .then((b) => {
        if (live) setBitmap(b);
      })
      .catch(() => setFailed(true));
    return () => {
      live = false;
    };
  }, [image]);

  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context || !bitmap) return;
    draw(context, bitmap, drawing.current ? [...shapes, drawing.current] : shapes);
  }, [bitmap, shapes]);

  // Pointer positions in the canvas's own pixels (it is shown scaled down).
  const at = (event: PointerEvent<HTMLCanvasElement>) => {
    const node = event.currentTarget;
    const rect = node.getBoundingClientRect();
    return {
      x: ((event.clientX - rect.left) / rect.width) * node.width,
      y: ((event.clientY - rect.top) / rect.height) * node.height,
    };
  };
  const redraw = () => {
    const context = canvas.current?.getContext('2d');
    if (context && bitmap) draw(context, bitmap, drawing.current ? [...shapes, drawing.current] : shapes);
  };

  const save = () => {
    canvas.current?.toBlob((blob) => {
      if (blob) onDone(blob);
    }, 'image/png');
  };

  const toolButton = (value: Tool, label: string, icon: React.ReactNode) => (
    <Button
      variant={tool === value ? 'primary' : 'secondary'}
      size="sm"
      aria-pressed={tool === value}
      onClick={() => setTool(value)}
    >
      {icon}
      {label}
    </Button>
  );

  return (
    <Dialog onClose={onClose} title="Annotate image" className="max-w-3xl">
      {failed ? (
        <p role="alert" className="text-sm text-red-700">
          This image cannot be opened for annotation.
        </p>
      ) : (
        <>
          <div className="mb-2 flex flex-wrap gap-2">
            {toolButton('arrow', 'Arrow', <MoveUpRight aria-hidden="true" className="size-4" />)}
            {toolButton('box', 'Box', <Square aria-hidden="true" className="size-4" />)}
            <Button
              variant="ghost"
              size="sm"
              disabled={shapes.length === 0}
              onClick={() => setShapes((s) => s.slice(0, -1))}
            >
              <Undo2 aria-hidden="true" className="size-4" />
              Undo
            </Button>
          </div>
          <canvas
            ref={canvas}
            width={bitmap?.width ?? 1}
            height={bitmap?.height ?? 1}
            aria-label={`Image to annotate: drag to draw ${tool === 'arrow' ? 'an arrow' : 'a box'}`}
            className={cn(
              'h-auto max-h-[60vh] w-full touch-none rounded border border-slate-200 object-contain',
              'cursor-crosshair',
            )}
            onPointerDown={(event) => {
              event.currentTarget.setPointerCapture(event.pointerId);
              const p = at(event);
              drawing.current = { tool, x1: p.x, y1: p.y, x2: p.x, y2: p.y };
            }}
            onPointerMove={(event) => {
              if (!drawing.current) return;
              const p = at(event);
              drawing.current = { ...drawing.current, x2: p.x, y2: p.y };
              redraw();
            }}
            onPointerUp={() => {
              const shape = drawing.current;
              drawing.current = null;
              if (shape && Math.hypot(shape.x2 - shape.x1, shape.y2 - shape.y1) > 3)
                setShapes((s) => [...s, shape]);
              else redraw();
            }}
          />
        </>
      )}
      <div className="mt-3 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button disabled={!bitmap} onClick={save}>
          Attach annotated image
        </Button>
      </div>
    </Dialog>
  );
}
