import type { Diagram, Position } from '@forgeline/contracts/parts-diagrams';
import { ImageOff } from 'lucide-react';
import { useEffect, useRef, type KeyboardEvent, type PointerEvent, type MouseEvent } from 'react';
import { cn } from '../../../lib/cn.ts';
import { clampPosition, type DraftLine } from './callout-draft.ts';

/** A hotspot chosen: its line, and which of the line's places (null: the line, with no place chosen). */
export interface HotspotRef {
  key: string;
  index: number | null;
}

/** Arrow keys move a hotspot this many percent of the drawing; with Shift, the bigger step. */
export const KEY_STEP = 0.5;
export const KEY_STEP_BIG = 5;
/** A press that moves less than this many pixels is a click, not a drag. */
const DRAG_THRESHOLD_PX = 4;

const pct = (n: number) => `${Math.round(n * 10) / 10} %`;
export const hotspotLabel = (line: DraftLine, index: number) =>
  `Callout ${line.number || '(no number)'}${line.positions.length > 1 ? `, place ${index + 1} of ${line.positions.length}` : ''}, at ${pct(line.positions[index]!.x)} across, ${pct(line.positions[index]!.y)} down`;

/**
 * The drawing with its numbered hotspots, where staff place and move them (#38). A click on the drawing places a
 * point (`onPlace`: the editor decides whether it is a new callout or another place of the chosen one); a hotspot is
 * a button: click chooses it, drag moves it, and from the keyboard the arrows move it (Shift: bigger steps), Delete
 * or Backspace removes that place, Escape lets go. `focus` asks for a hotspot to take the focus (after it was placed).
 */
export function DiagramCanvas({
  diagram,
  title,
  hintId,
  lines,
  selected,
  zoom,
  focus,
  onPlace,
  onSelect,
  onMove,
  onRemovePosition,
}: {
  diagram: Diagram | null;
  title: string;
  /** The element that tells how hotspots are moved from the keyboard (each hotspot is described by it). */
  hintId: string;
  lines: DraftLine[];
  selected: HotspotRef | null;
  /** 1: the drawing fits the box's width; 2: twice that (the box scrolls). */
  zoom: number;
  focus: { key: string; index: number; seq: number } | null;
  onPlace: (p: Position) => void;
  onSelect: (ref: HotspotRef | null) => void;
  onMove: (key: string, index: number, p: Position) => void;
  onRemovePosition: (key: string, index: number) => void;
}) {
  const surface = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const drag = useRef<{ key: string; index: number; startX: number; startY: number; moved: boolean } | null>(null);
  /** The click a drag ends with is not a click on the drawing. */
  const justDragged = useRef(false);

  useEffect(() => {
    if (focus) buttons.current.get(`${focus.key}:${focus.index}`)?.focus();
  }, [focus]);

  const pointAt = (clientX: number, clientY: number): Position | null => {
    const rect = surface.current?.getBoundingClientRect();
    if (!rect || rect.width === 0 || rect.height === 0) return null;
    return clampPosition({ x: ((clientX - rect.left) / rect.width) * 100, y: ((clientY - rect.top) / rect.height) * 100 });
  };

  if (!diagram) {
    return (
      <div className="grid place-items-center rounded-lg border-2 border-dashed border-zinc-300 bg-white p-6 text-center text-sm text-steel" style={{ minHeight: '12rem' }}>
        <div className="space-y-2">
          <ImageOff className="mx-auto size-8 text-zinc-400" aria-hidden="true" />
          No drawing yet: upload one to place the callouts on it.
        </div>
      </div>
    );
  }

  const onSurfaceClick = (e: MouseEvent<HTMLDivElement>) => {
    if (justDragged.current) {
      justDragged.current = false;
      return;
    }
    const p = pointAt(e.clientX, e.clientY);
    if (p) onPlace(p);
  };

  const onPointerDown = (key: string, index: number) => (e: PointerEvent<HTMLButtonElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { key, index, startX: e.clientX, startY: e.clientY, moved: false };
  };
  const onPointerMove = (e: PointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    if (!d) return;
    if (!d.moved && Math.hypot(e.clientX - d.startX, e.clientY - d.startY) < DRAG_THRESHOLD_PX) return;
    d.moved = true;
    const p = pointAt(e.clientX, e.clientY);
    if (p) onMove(d.key, d.index, p);
  };
  const onPointerUp = () => {
    if (drag.current?.moved) justDragged.current = true;
    drag.current = null;
  };

  const onHotspotKey = (line: DraftLine, index: number) => (e: KeyboardEvent<HTMLButtonElement>) => {
    const step = e.shiftKey ? KEY_STEP_BIG : KEY_STEP;
    const at = line.positions[index]!;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      onSelect({ key: line.key, index });
      onMove(line.key, index, clampPosition({ x: at.x + move[0], y: at.y + move[1] }));
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      onRemovePosition(line.key, index);
      // The button is gone: the drawing's box keeps the focus, so the keyboard stays where the work is.
      box.current?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onSelect(null);
    }
  };

  const srcSet = diagram.variants?.length ? [...diagram.variants.map((v) => `${v.url} ${v.width}w`), `${diagram.url} ${diagram.width}w`].join(', ') : undefined;

  return (
    <div
      ref={box}
      role="region"
      aria-label={`Drawing of ${title}`}
      tabIndex={-1}
      className="max-h-[60vh] overflow-auto rounded-lg border border-zinc-300 bg-white focus-visible:outline-2 focus-visible:outline-amber-500"
    >
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- pointing at the drawing; from the keyboard a line's crosshair button places its callout and the arrows move it */}
      <div
        ref={surface}
        data-testid="diagram-surface"
        className="relative select-none"
        style={{ width: `${zoom * 100}%`, cursor: 'crosshair' }}
        onClick={onSurfaceClick}
      >
        <img
          src={diagram.url}
          srcSet={srcSet}
          sizes={`${Math.round(zoom * 100)}vw`}
          width={diagram.width}
          height={diagram.height}
          alt=""
          draggable={false}
          className="block h-auto w-full"
        />
        {lines.flatMap((line) =>
          line.positions.map((p, index) => {
            const id = `${line.key}:${index}`;
            const isLine = selected?.key === line.key;
            const isThis = isLine && (selected?.index === index || selected?.index === null);
            return (
              <button
                key={id}
                ref={(el) => {
                  if (el) buttons.current.set(id, el);
                  else buttons.current.delete(id);
                }}
                type="button"
                aria-label={hotspotLabel(line, index)}
                aria-pressed={isLine && selected?.index === index}
                aria-describedby={hintId}
                data-hotspot={line.number}
                className={cn(
                  'absolute flex -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full border-2 px-1 text-xs font-bold shadow-sm',
                  'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-amber-500',
                  isThis ? 'z-10 border-ink bg-safety text-ink' : isLine ? 'border-ink bg-amber-100 text-ink' : 'border-ink bg-white/90 text-ink hover:bg-zinc-50',
                  !line.partId && 'border-dashed',
                )}
                // Sized here, and no panning by touch while a finger drags it.
                style={{ left: `${p.x}%`, top: `${p.y}%`, minWidth: '1.75rem', height: '1.75rem', touchAction: 'none' }}
                onClick={(e) => {
                  e.stopPropagation();
                  if (justDragged.current) justDragged.current = false;
                  onSelect({ key: line.key, index });
                }}
                onPointerDown={onPointerDown(line.key, index)}
                onPointerMove={onPointerMove}
                onPointerUp={onPointerUp}
                onPointerCancel={onPointerUp}
                onKeyDown={onHotspotKey(line, index)}
              >
                {line.number || '?'}
              </button>
            );
          }),
        )}
      </div>
    </div>
  );
}
