import Panzoom, { type PanzoomObject } from '@panzoom/panzoom';
import type { Diagram } from '@forgeline/contracts/parts-diagrams';
import { ImageOff, RotateCcw, ZoomIn, ZoomOut } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { calloutLabel, notForSerial, type Hotspot } from '../assembly-lines.ts';

const MAX_SCALE = 6;
/** Hotspots stay tappable on a phone (24 px, WCAG's target size) and cover the drawing's own ring (34 px of 1200) on a wide one. */
const HOTSPOT_SIZE = 'max(1.5rem, 2.9%)';

/** The drawing's copies for `srcset`: the phone-sized variants (raster drawings) and the drawing itself. */
function srcSetOf(d: Diagram): string | undefined {
  if (!d.variants?.length) return undefined;
  return [...d.variants.map((v) => `${v.url} ${v.width}w`), `${d.url} ${d.width}w`].join(', ');
}

/**
 * An assembly's drawing with a numbered button on each callout's place. Zoom and pan (@panzoom/panzoom: buttons,
 * the wheel, a drag, a pinch) move the drawing and its buttons together, since they share the transformed box; the
 * buttons sit at the callouts' percent positions, so they stay on their rings at every size. Hovering or focusing a
 * button highlights its callout (and the table's rows); a click opens its details.
 */
export function AssemblyDrawing({
  diagram,
  alt,
  hotspots,
  active,
  serial,
  interactive,
  onActive,
  onOpen,
}: {
  diagram: Diagram;
  alt: string;
  hotspots: Hotspot[];
  active: string | null;
  serial: string | null;
  /** The app has started: the zoom buttons work (they are left out of the server's HTML). */
  interactive: boolean;
  onActive: (number: string | null) => void;
  onOpen: (number: string) => void;
}) {
  const viewport = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState<PanzoomObject | null>(null);
  const [scale, setScale] = useState(1);

  useEffect(() => {
    const box = content.current;
    const parent = viewport.current;
    if (!box || !parent) return;
    const pz = Panzoom(box, {
      minScale: 1,
      maxScale: MAX_SCALE,
      step: 0.4,
      contain: 'outside',
      panOnlyWhenZoomed: true,
      cursor: 'grab',
      // A press on a hotspot is a click, not the start of a drag.
      excludeClass: 'diagram-hotspot',
      // At full size a swipe scrolls the page; zoomed in, it pans the drawing.
      touchAction: 'pan-y',
    });
    const onChange = (e: Event) => {
      const s = (e as CustomEvent<{ scale: number }>).detail.scale;
      setScale(s);
      pz.setOptions({ touchAction: s > 1.01 ? 'none' : 'pan-y' });
    };
    // The wheel zooms; rolled back at full size it scrolls the page as usual, so the drawing is no trap.
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY > 0 && pz.getScale() <= 1.001) return;
      pz.zoomWithWheel(e);
    };
    box.addEventListener('panzoomchange', onChange);
    parent.addEventListener('wheel', onWheel, { passive: false });
    setZoom(pz);
    return () => {
      box.removeEventListener('panzoomchange', onChange);
      parent.removeEventListener('wheel', onWheel);
      pz.destroy();
      setZoom(null);
    };
  }, [diagram.url]);

  return (
    <div>
      <div ref={viewport} className="relative overflow-hidden rounded-lg border border-zinc-200 bg-white">
        <div ref={content} className="relative">
          <img
            src={diagram.url}
            srcSet={srcSetOf(diagram)}
            sizes={diagram.variants?.length ? '(min-width: 1024px) 60vw, 100vw' : undefined}
            width={diagram.width}
            height={diagram.height}
            alt={alt}
            fetchPriority="high"
            decoding="async"
            draggable={false}
            className="block h-auto w-full select-none"
          />
          {hotspots.map((h) => {
            const on = active === h.number;
            return (
              <button
                key={h.key}
                type="button"
                data-callout={h.number}
                data-active={on || undefined}
                aria-label={`Callout ${h.number}: ${calloutLabel(h.lines)}${!h.fits && serial ? ` (${notForSerial(serial).toLowerCase()})` : ''}`}
                onMouseEnter={() => onActive(h.number)}
                onMouseLeave={() => onActive(null)}
                onFocus={() => onActive(h.number)}
                onBlur={() => onActive(null)}
                onClick={() => onOpen(h.number)}
                style={{ left: `${h.x}%`, top: `${h.y}%`, width: HOTSPOT_SIZE }}
                className={cn(
                  'diagram-hotspot absolute z-10 grid aspect-square -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full border-2 text-xs font-extrabold leading-none transition-colors focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-safety',
                  on
                    ? 'border-ink bg-safety text-ink shadow-md'
                    : h.fits
                      ? 'border-ink bg-white text-ink hover:bg-safety'
                      : 'border-zinc-300 bg-zinc-100 text-zinc-500',
                )}
              >
                {h.number}
              </button>
            );
          })}
        </div>
      </div>
      {interactive ? (
        <div className="mt-2 flex flex-wrap items-center gap-2" role="group" aria-label="Zoom the drawing">
          <Button variant="outline" size="sm" aria-label="Zoom in" title="Zoom in" disabled={!zoom || scale >= MAX_SCALE - 0.01} onClick={() => zoom?.zoomIn()}>
            <ZoomIn className="size-4" aria-hidden="true" />
          </Button>
          <Button variant="outline" size="sm" aria-label="Zoom out" title="Zoom out" disabled={!zoom || scale <= 1.01} onClick={() => zoom?.zoomOut()}>
            <ZoomOut className="size-4" aria-hidden="true" />
          </Button>
          <Button variant="ghost" size="sm" disabled={!zoom || scale <= 1.01} onClick={() => zoom?.reset()}>
            <RotateCcw className="size-4" aria-hidden="true" /> Reset
          </Button>
          <p className="text-xs text-steel">
            {Math.round(scale * 100)}% · <span className="hidden sm:inline">scroll or use the buttons to zoom, drag to move</span>
            <span className="sm:hidden">pinch to zoom</span>
          </p>
        </div>
      ) : null}
    </div>
  );
}

/** In the drawing's place when the assembly has none yet: the table alone is the page. */
export function NoDrawing() {
  return (
    <div className="grid aspect-[4/3] place-items-center rounded-lg border border-dashed border-zinc-300 bg-white p-6 text-center text-steel">
      <div>
        <ImageOff className="mx-auto size-8 text-zinc-400" aria-hidden="true" />
        <p className="mt-2 text-sm">No drawing for this assembly yet. The parts list has every callout.</p>
      </div>
    </div>
  );
}
