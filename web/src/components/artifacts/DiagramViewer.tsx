/**
 * A drawn diagram full screen, to read on a phone: a modal dialog that zooms (buttons, +/-, the wheel, a pinch of two
 * fingers) and pans (dragging, the arrow keys), with "Fit" to start over. Escape or "Close" closes it and puts focus
 * back where it was. The transform is CSS on the diagram's SVG, so nothing is drawn twice.
 */
import { type KeyboardEvent, type PointerEvent, type WheelEvent, useEffect, useId, useRef, useState } from "react";

const MIN = 0.5;
const MAX = 6;
const clamp = (scale: number) => Math.min(MAX, Math.max(MIN, scale));

export interface View {
  scale: number;
  x: number;
  y: number;
}

/** The view after zooming by `factor` (the point under the centre stays put); exported for its test. */
export function zoomed(view: View, factor: number): View {
  const scale = clamp(view.scale * factor);
  const applied = scale / view.scale;
  return { scale, x: view.x * applied, y: view.y * applied };
}

export function DiagramViewer({ svg, title, onClose }: { svg: string; title: string; onClose(): void }) {
  const [view, setView] = useState<View>({ scale: 1, x: 0, y: 0 });
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<number | null>(null);
  const titleId = useId();

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.body.style.overflow = overflow;
      before?.focus();
    };
  }, []);

  const zoom = (factor: number) => setView((v) => zoomed(v, factor));
  const pan = (dx: number, dy: number) => setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));

  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, [number, number]> = { ArrowLeft: [40, 0], ArrowRight: [-40, 0], ArrowUp: [0, 40], ArrowDown: [0, -40] };
    if (event.key === "Escape") onClose();
    else if (event.key === "+" || event.key === "=") zoom(1.25);
    else if (event.key === "-") zoom(0.8);
    else if (event.key === "0") setView({ scale: 1, x: 0, y: 0 });
    else if (moves[event.key]) pan(...moves[event.key]!);
    else if (event.key === "Tab") {
      // Focus stays inside the dialog while it is open.
      const focusable = [...(dialogRef.current?.querySelectorAll<HTMLElement>("button, [tabindex='0']") ?? [])];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) (event.preventDefault(), last?.focus());
      else if (!event.shiftKey && document.activeElement === last) (event.preventDefault(), first?.focus());
      return;
    } else return;
    event.preventDefault();
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const last = pointers.current.get(event.pointerId);
    if (!last) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()] as [{ x: number; y: number }, { x: number; y: number }];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinch.current) zoom(distance / pinch.current);
      pinch.current = distance;
      return;
    }
    pan(event.clientX - last.x, event.clientY - last.y);
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(event.pointerId);
    pinch.current = null;
  };
  const onWheel = (event: WheelEvent<HTMLDivElement>) => zoom(event.deltaY < 0 ? 1.1 : 0.9);

  return (
    <div className="diagram-viewer-backdrop">
      <div ref={dialogRef} className="diagram-viewer" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown}>
        <header className="diagram-viewer-bar">
          <h2 id={titleId} className="diagram-viewer-title">
            {title}
          </h2>
          <div className="diagram-viewer-tools" role="group" aria-label="Zoom">
            <button type="button" className="button button-secondary button-small" onClick={() => zoom(0.8)} aria-label="Zoom out">
              −
            </button>
            <output className="diagram-viewer-scale" aria-live="polite">
              {Math.round(view.scale * 100)}%
            </output>
            <button type="button" className="button button-secondary button-small" onClick={() => zoom(1.25)} aria-label="Zoom in">
              +
            </button>
            <button type="button" className="button button-secondary button-small" onClick={() => setView({ scale: 1, x: 0, y: 0 })}>
              Fit
            </button>
            <button ref={closeRef} type="button" className="button button-primary button-small" onClick={onClose}>
              Close
            </button>
          </div>
        </header>
        <div
          className="diagram-viewer-stage"
          tabIndex={0}
          aria-label={`${title}: drag or use the arrow keys to move, + and - to zoom`}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onWheel={onWheel}
        >
          <div
            className="diagram-viewer-content"
            role="img"
            aria-label={title}
            style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
            dangerouslySetInnerHTML={{ __html: svg }}
          />
        </div>
      </div>
    </div>
  );
}
