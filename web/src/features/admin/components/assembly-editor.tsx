import { assemblyPath, DIAGRAM_LIMITS, type Assembly, type Position } from '@forgeline/contracts/parts-diagrams';
import { ArrowLeft, ExternalLink, Loader2, Plus, RotateCcw, Save, Trash2, TriangleAlert } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { serverMessage, statusOf } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format-date-time.ts';
import { useAssembly, useDeleteAssembly, useSaveAssembly, type AssemblyPartLabel, type AssemblyWithParts } from '../api/assemblies.ts';
import { useLeaveGuard } from '../hooks/use-leave-guard.ts';
import { AssemblyHistory } from './assembly-history.tsx';
import {
  bodyOf,
  canAddLine,
  canAddPosition,
  clampPosition,
  contentOf,
  draftOf,
  emptyLine,
  errorsFromIssues,
  nextFreeNumber,
  type Draft,
  type DraftLine,
  type FieldErrors,
} from './callout-draft.ts';
import { CalloutTable } from './callout-table.tsx';
import { DiagramCanvas, KEY_STEP, KEY_STEP_BIG, type HotspotRef } from './diagram-canvas.tsx';
import { DiagramUpload } from './diagram-upload.tsx';

const ZOOMS = [
  [1, 'Fit the width'],
  [1.5, '150 %'],
  [2, '200 %'],
  [3, '300 %'],
] as const;

/** The `issues` of a 400 answer ("400: {message, issues}"), or none. */
function issuesOf(err: unknown): { path: string; message: string }[] {
  if (!(err instanceof Error)) return [];
  try {
    const body = JSON.parse(err.message.replace(/^\d{3}: /, '')) as { issues?: { path: string; message: string }[] };
    return Array.isArray(body.issues) ? body.issues : [];
  } catch {
    return [];
  }
}

const labelsOf = (draft: Draft): AssemblyPartLabel[] => draft.lines.flatMap((l) => (l.part ? [l.part] : []));

/**
 * One assembly's parts diagram (#38), as staff edit it: the drawing with its hotspots, the table of lines, the name,
 * save (with the version it was read at: a change made meanwhile is not overwritten), the drawing's upload, the
 * history, delete, and the buyer's page. Reads the assembly, then edits a working copy of it.
 */
export function AssemblyEditor({ id, onClose }: { id: string; onClose: () => void }) {
  const query = useAssembly(id);
  if (query.isPending) return <Spinner />;
  if (query.isError) {
    const gone = statusOf(query.error) === 404;
    return (
      <div role="alert" className="space-y-3 rounded-lg border border-red-300 bg-red-50 p-5 text-sm text-red-800">
        <p>{gone ? 'This assembly no longer exists (someone deleted it).' : `The assembly could not be read: ${serverMessage(query.error) ?? 'please try again'}.`}</p>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={onClose}>
            <ArrowLeft className="size-4" aria-hidden="true" /> Back to the list
          </Button>
          {gone ? null : (
            <Button variant="dark" size="sm" onClick={() => void query.refetch()}>
              <RotateCcw className="size-4" aria-hidden="true" /> Try again
            </Button>
          )}
        </div>
      </div>
    );
  }
  return <Editor read={query.data} reload={async () => (await query.refetch()).data} onClose={onClose} />;
}

function Editor({ read, reload, onClose }: { read: AssemblyWithParts; reload: () => Promise<AssemblyWithParts | undefined>; onClose: () => void }) {
  const ids = useId();
  const save = useSaveAssembly();
  const remove = useDeleteAssembly();
  /** The assembly the working copy was made from (its version goes with the save). */
  const [base, setBase] = useState<Assembly>(read.assembly);
  const [draft, setDraft] = useState<Draft>(() => draftOf(read.assembly, read.parts));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [selected, setSelected] = useState<HotspotRef | null>(null);
  const [mode, setMode] = useState<'new' | 'add'>('new');
  const [zoom, setZoom] = useState(1);
  const [focus, setFocus] = useState<{ key: string; index: number; seq: number } | null>(null);
  /** Someone else's change was found (a 409, or a newer version read): the copy can only be reloaded. */
  const [conflict, setConflict] = useState(false);

  const baseContent = useMemo(() => contentOf(draftOf(base, [])), [base]);
  const dirty = contentOf(draft) !== baseContent;
  useLeaveGuard(dirty, `You have unsaved changes to "${base.name}". Leave without saving them?`);

  const selectedLine = selected ? draft.lines.find((l) => l.key === selected.key) : undefined;
  const adding = mode === 'add' && selectedLine !== undefined;

  /** Take what the catalog now holds: the working copy starts again from it. */
  const adopt = useCallback((fresh: AssemblyWithParts) => {
    setBase(fresh.assembly);
    setDraft(draftOf(fresh.assembly, fresh.parts));
    setErrors({});
    setSelected(null);
    setConflict(false);
  }, []);

  // A newer version read (after the drawing's upload, or a reload): taken as it is when nothing is unsaved; kept under
  // the edits when only the drawing changed; otherwise someone else changed the lines, and saving would lose theirs.
  // Decided while rendering the new read (React's way to follow a prop), not in an effect a render later.
  const [seen, setSeen] = useState(read);
  if (read !== seen) {
    setSeen(read);
    const fresh = read.assembly;
    if (fresh.version > base.version) {
      if (!dirty) adopt(read);
      else if (contentOf(draftOf(fresh, [])) === baseContent) setBase(fresh);
      else setConflict(true);
    }
  }

  // Focus after the render that shows it: a line added from the keyboard (its number field), or after a refused save
  // the first field marked (it scrolls into view, and its message is read with it).
  const form = useRef<HTMLFormElement>(null);
  const focusLine = useRef<string | null>(null);
  const focusInvalid = useRef(false);
  useEffect(() => {
    if (focusLine.current) form.current?.querySelector<HTMLInputElement>(`tr[data-key="${focusLine.current}"] input`)?.focus();
    if (focusInvalid.current) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    focusLine.current = null;
    focusInvalid.current = false;
  });
  const showErrors = (next: FieldErrors) => {
    setErrors(next);
    focusInvalid.current = true;
  };

  const updateLines = (fn: (lines: DraftLine[]) => DraftLine[]) => setDraft((d) => ({ ...d, lines: fn(d.lines) }));
  const updateLine = (key: string, change: Partial<DraftLine>) => {
    updateLines((lines) => lines.map((l) => (l.key === key ? { ...l, ...change } : l)));
    setErrors((e) => {
      const next = { ...e };
      for (const f of Object.keys(change)) delete next[`${key}.${f === 'part' ? 'partId' : f}`];
      return next;
    });
  };
  const focusHotspot = (key: string, index: number) => setFocus((f) => ({ key, index, seq: (f?.seq ?? 0) + 1 }));

  const addPosition = (line: DraftLine, p: Position) => {
    if (!canAddPosition(line)) return void toast.error(`Callout ${line.number} has ${DIAGRAM_LIMITS.positions} places already`);
    const index = line.positions.length;
    updateLine(line.key, { positions: [...line.positions, p] });
    setSelected({ key: line.key, index });
    focusHotspot(line.key, index);
  };
  const addLine = (p?: Position) => {
    if (!canAddLine(draft)) return void toast.error(`An assembly has at most ${DIAGRAM_LIMITS.callouts} lines`);
    const line = emptyLine(nextFreeNumber(draft.lines), p ? [p] : []);
    updateLines((lines) => [...lines, line]);
    setSelected({ key: line.key, index: p ? 0 : null });
    if (p) focusHotspot(line.key, 0);
    else focusLine.current = line.key;
  };
  const onPlace = (p: Position) => (selectedLine && mode === 'add' ? addPosition(selectedLine, p) : addLine(p));

  const onSave = () => {
    const checked = bodyOf(draft, base.version);
    if ('errors' in checked) {
      showErrors(checked.errors);
      return;
    }
    setErrors({});
    const parts = labelsOf(draft);
    save.mutate(
      { id: base.id, body: checked.body },
      {
        onSuccess: (saved) => {
          adopt({ assembly: saved, parts });
          toast.success(`Saved: version ${saved.version}`);
        },
        onError: (err) => {
          const status = statusOf(err);
          if (status === 409) {
            setConflict(true);
          } else if (status === 400) {
            const issues = issuesOf(err);
            showErrors(issues.length ? errorsFromIssues(issues, draft.lines) : { form: serverMessage(err) ?? 'The catalog refused the changes' });
          } else if (status !== 401) {
            toast.error('Not saved', { description: serverMessage(err) ?? 'Please try again.' });
          }
        },
      },
    );
  };

  const onReload = async () => {
    const fresh = await reload();
    if (fresh) adopt(fresh);
  };
  const leave = () => {
    if (!dirty || window.confirm(`You have unsaved changes to "${base.name}". Leave without saving them?`)) onClose();
  };

  const errorCount = Object.keys(errors).length;
  return (
    <section aria-labelledby={`${ids}-h`} className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <button type="button" onClick={leave} className="inline-flex items-center gap-1 text-sm font-semibold text-steel hover:text-ink focus-visible:outline-2 focus-visible:outline-amber-500">
            <ArrowLeft className="size-4" aria-hidden="true" /> All assemblies
          </button>
          <h2 id={`${ids}-h`} className="font-display text-2xl font-bold uppercase break-words">
            {base.name}
          </h2>
          <p className="text-sm text-steel">
            {base.make} {base.model} · version {base.version}, {formatDateTime(base.updatedAt)} by {base.updatedBy}
            {dirty ? <strong className="ml-2 text-amber-800">Unsaved changes</strong> : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={assemblyPath(base)} target="_blank" rel="noopener noreferrer" className={buttonClass('outline', 'sm')}>
            <ExternalLink className="size-4" aria-hidden="true" /> Preview as the buyer sees it<span className="sr-only"> (saved version, opens in a new tab)</span>
          </a>
          <ConfirmDialog
            trigger={
              <button
                type="button"
                className="inline-flex h-9 items-center gap-2 rounded-md border-2 border-red-300 px-3 text-sm font-semibold text-red-700 hover:bg-red-50 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-safety"
              >
                <Trash2 className="size-4" aria-hidden="true" /> Delete
              </button>
            }
            title={`Delete "${base.name}"?`}
            description={`The assembly and its ${base.callouts.length} lines go from ${base.make} ${base.model}'s parts book; buyers' links to it will find nothing. Its history is kept.`}
            confirmLabel="Delete assembly"
            pendingLabel="Deleting…"
            pending={remove.isPending}
            onConfirm={(close) =>
              remove.mutate(base.id, {
                onSuccess: () => {
                  close();
                  toast.success(`"${base.name}" deleted`);
                  onClose();
                },
                onError: (err) => toast.error('Not deleted', { description: serverMessage(err) ?? 'Please try again.' }),
              })
            }
          />
        </div>
      </div>

      {conflict ? (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-ink">
          <p className="flex items-start gap-2">
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-800" aria-hidden="true" />
            Someone else changed this assembly since you opened it. Reload it to see their changes; your unsaved changes here will be lost.
          </p>
          <div className="flex gap-2">
            <Button variant="dark" size="sm" onClick={() => void onReload()}>
              <RotateCcw className="size-4" aria-hidden="true" /> Reload the assembly
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConflict(false)}>
              Keep editing
            </Button>
          </div>
        </div>
      ) : null}

      <form
        ref={form}
        className="space-y-5"
        aria-label={`Edit ${base.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          onSave();
        }}
      >
        <div className="flex flex-wrap items-end gap-3">
          <div className="min-w-0 flex-1">
            <label className="block text-sm font-semibold text-ink" htmlFor={`${ids}-name`}>
              Assembly name
            </label>
            <input
              id={`${ids}-name`}
              value={draft.name}
              maxLength={DIAGRAM_LIMITS.name}
              onChange={(e) => {
                setDraft((d) => ({ ...d, name: e.target.value }));
                setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'name')));
              }}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? `${ids}-name-error` : undefined}
              className={`${formControlClass} w-full`}
            />
            {errors.name ? (
              <span id={`${ids}-name-error`} className="mt-0.5 block text-xs text-red-700">
                {errors.name}
              </span>
            ) : null}
          </div>
          <Button type="submit" variant="primary" disabled={!dirty || save.isPending || conflict}>
            {save.isPending ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Save className="size-4" aria-hidden="true" />}
            {save.isPending ? 'Saving…' : 'Save changes'}
          </Button>
          <Button variant="ghost" disabled={!dirty || save.isPending} onClick={() => adopt({ assembly: base, parts: [...labelsOf(draft), ...read.parts] })}>
            <RotateCcw className="size-4" aria-hidden="true" /> Discard changes
          </Button>
        </div>
        {errorCount ? (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
            Not saved: {errors.form ?? `${errorCount === 1 ? 'one field needs' : `${errorCount} fields need`} a look (marked below).`}
          </p>
        ) : null}

        <div className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
              <legend className="sr-only">A click on the drawing</legend>
              <span className="font-semibold text-ink" aria-hidden="true">
                Click on the drawing:
              </span>
              <label className="flex items-center gap-1.5">
                <input type="radio" name={`${ids}-mode`} checked={!adding} onChange={() => setMode('new')} className="size-4" />
                places callout {nextFreeNumber(draft.lines)} (a new line)
              </label>
              <label className="flex items-center gap-1.5">
                <input type="radio" name={`${ids}-mode`} checked={adding} disabled={!selectedLine} onChange={() => setMode('add')} className="size-4" />
                {selectedLine ? `adds a place for callout ${selectedLine.number || '(no number)'}` : 'adds a place for the chosen callout'}
              </label>
            </fieldset>
            <label className="flex items-center gap-2 text-sm">
              Zoom
              <select value={zoom} onChange={(e) => setZoom(Number(e.target.value))} className={`${formControlClass} mt-0`}>
                {ZOOMS.map(([z, label]) => (
                  <option key={z} value={z}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <p id={`${ids}-hint`} className="text-xs text-steel">
            Drag a hotspot to move it. From the keyboard: Tab to a hotspot, move it with the arrow keys ({KEY_STEP} % a step, {KEY_STEP_BIG} % with Shift),
            Delete removes that place. A line's crosshair button places its callout in the middle of the drawing.
          </p>
          <DiagramCanvas
            diagram={base.diagram}
            title={base.name}
            hintId={`${ids}-hint`}
            lines={draft.lines}
            selected={selected}
            zoom={zoom}
            focus={focus}
            onPlace={onPlace}
            onSelect={setSelected}
            onMove={(key, index, p) => updateLines((lines) => lines.map((l) => (l.key === key ? { ...l, positions: l.positions.map((q, i) => (i === index ? p : q)) } : l)))}
            onRemovePosition={(key, index) => {
              updateLines((lines) => lines.map((l) => (l.key === key ? { ...l, positions: l.positions.filter((_q, i) => i !== index) } : l)));
              setSelected({ key, index: null });
            }}
          />
        </div>

        <CalloutTable
          lines={draft.lines}
          errors={errors}
          selectedKey={selected?.key ?? null}
          canPlace={Boolean(base.diagram)}
          onSelect={(key) => setSelected({ key, index: null })}
          onChange={updateLine}
          onPlace={(key) => {
            const line = draft.lines.find((l) => l.key === key);
            if (line) addPosition(line, clampPosition({ x: 50 + line.positions.length * 2, y: 50 + line.positions.length * 2 }));
          }}
          onRemove={(key) => {
            updateLines((lines) => lines.filter((l) => l.key !== key));
            setSelected((s) => (s?.key === key ? null : s));
          }}
          footer={
            <Button variant="outline" size="sm" onClick={() => addLine()}>
              <Plus className="size-4" aria-hidden="true" /> Add a line
            </Button>
          }
        />
      </form>

      <div className="grid gap-5 lg:grid-cols-2">
        {/* Afresh for each drawing: once the assembly has the new one, the form is empty again. */}
        <DiagramUpload key={base.diagram?.url ?? 'none'} assemblyId={base.id} hasDrawing={Boolean(base.diagram)} onDone={() => void reload()} />
        <AssemblyHistory id={base.id} version={base.version} />
      </div>
    </section>
  );
}
