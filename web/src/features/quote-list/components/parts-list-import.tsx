import type { MatchKind, PartsMatchLine, PartsMatchResponse } from '@forgeline/contracts/parts-match';
import type { ProductSummary } from '@forgeline/contracts/products';
import { CheckCircle2, CircleHelp, FileUp, Loader2, TextSearch, TriangleAlert } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { FieldLabel } from '../../../components/ui/field-label.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { serverMessage } from '../../../lib/api-error.ts';
import { displayBrand } from '../../../lib/brand.ts';
import { useMatchParts } from '../api/match-parts.ts';
import { addProduct, addText, productOfSummary, type AddResult } from '../quote-list-store.ts';

/** The match call's limits (PARTS_LIST_MAX_LINES and the file limit of the catalog), checked here to answer at once. */
const MAX_LINES = 500;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const FILE_TYPES = '.csv,.txt,.tsv,.xlsx,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const KIND_LABEL: Record<MatchKind, string> = {
  exact: 'exact part number',
  normalized: 'same number, written differently',
  typo: 'closest number (check it)',
  superseded: 'replaced by this part',
  cross_reference: 'cross-reference',
  name: 'by name',
};

type Outcome = { line: PartsMatchLine; state: 'added' | 'text' | 'choose' | 'full'; chosen?: string };

const partLabel = (p: ProductSummary) => `${p.partNumber || p.sku} · ${p.name} · ${displayBrand(p.brandName)}`;

/**
 * Paste a parts list or drop a CSV/XLSX: each line is matched to the catalogue (POST /api/parts/match). Matched
 * lines go straight onto the quote list; for an ambiguous one the buyer picks among the alternatives (or keeps
 * their words); an unmatched line goes on as the buyer's text with its quantity, so nothing typed is lost.
 */
export function PartsListImport() {
  const uid = useId();
  const [text, setText] = useState('');
  const [outcomes, setOutcomes] = useState<Outcome[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const match = useMatchParts();

  const apply = (res: PartsMatchResponse) => {
    let full = false;
    const outcome = (line: PartsMatchLine, result: () => AddResult, state: Outcome['state']): Outcome => {
      if (full) return { line, state: 'full' };
      const r = result();
      if (!r.ok) full = true;
      return { line, state: r.ok ? state : 'full' };
    };
    setOutcomes(
      res.lines.map((line) => {
        if (line.status === 'matched' && line.match) return outcome(line, () => addProduct(productOfSummary(line.match!.product), line.quantity), 'added');
        if (line.status === 'unmatched') return outcome(line, () => addText(line.input, line.quantity), 'text');
        return { line, state: 'choose' };
      }),
    );
  };

  const run = (input: { text: string } | { file: File }) => {
    setProblem(null);
    setOutcomes(null);
    match.mutate(input, {
      onSuccess: (res) => {
        apply(res);
        if ('text' in input) setText('');
      },
      onError: (err) => setProblem(serverMessage(err) ?? 'The list could not be matched just now. Please try again in a moment.'),
    });
  };

  const submitText = () => {
    const lines = text.split(/\r\n|\r|\n/).filter((l) => l.trim()).length;
    if (lines === 0) return setProblem('Paste at least one line: a part number, with a quantity if more than one.');
    if (lines > MAX_LINES) return setProblem(`The list has ${lines} lines; at most ${MAX_LINES} can be matched at once. Send it in parts.`);
    run({ text });
  };

  const submitFile = (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) return setProblem(`"${file.name}" is larger than 2 MB; a parts list file may be at most 2 MB.`);
    run({ file });
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    submitFile(e.dataTransfer.files[0]);
  };

  const choose = (index: number, productId: string | null) => {
    const o = outcomes?.[index];
    if (!o || o.state !== 'choose') return;
    const product = o.line.alternatives.find((p) => p.id === productId);
    const r = product ? addProduct(productOfSummary(product), o.line.quantity) : addText(o.line.input, o.line.quantity);
    if (!r.ok) return setProblem(r.message);
    setOutcomes((list) => list && list.map((x, i) => (i === index ? { ...x, state: product ? 'added' : 'text', chosen: product ? partLabel(product) : undefined } : x)));
  };

  const counts = outcomes && {
    added: outcomes.filter((o) => o.state === 'added').length,
    text: outcomes.filter((o) => o.state === 'text').length,
    choose: outcomes.filter((o) => o.state === 'choose').length,
    full: outcomes.filter((o) => o.state === 'full').length,
  };

  return (
    <section
      aria-labelledby={`${uid}-heading`}
      className={`rounded-lg border-2 border-dashed p-4 sm:p-6 ${dragging ? 'border-safety bg-safety/10' : 'border-zinc-300 bg-white'}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h2 id={`${uid}-heading`} className="font-display text-xl font-extrabold uppercase text-ink">
        Paste or upload a parts list
      </h2>
      <p className="mt-1 text-sm text-steel">
        One part per line, as you have it: <span className="font-mono">2 x 1R-0750</span>, <span className="font-mono">1R0750 qty 2</span>, a column copied
        from Excel, a parts book. Or drop a CSV or XLSX file here. At most {MAX_LINES} lines.
      </p>
      <div className="mt-4">
        <FieldLabel htmlFor={`${uid}-text`}>Your list</FieldLabel>
        <textarea
          id={`${uid}-text`}
          rows={6}
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={260_000}
          placeholder={'Part No;Qty\n1R-0750;2\n2 x 6I-2503 seal kit'}
          className={`${formControlClass} w-full font-mono text-sm`}
          aria-describedby={problem ? `${uid}-problem` : undefined}
        />
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button variant="dark" onClick={submitText} disabled={match.isPending}>
          {match.isPending ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <TextSearch className="size-4" aria-hidden="true" />}
          {match.isPending ? 'Matching...' : 'Match parts'}
        </Button>
        <input
          ref={fileInput}
          id={`${uid}-file`}
          type="file"
          accept={FILE_TYPES}
          className="sr-only"
          onChange={(e) => {
            submitFile(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <Button variant="outline" onClick={() => fileInput.current?.click()} disabled={match.isPending}>
          <FileUp className="size-4" aria-hidden="true" /> Upload CSV or XLSX
        </Button>
      </div>
      {problem ? (
        <p id={`${uid}-problem`} role="alert" className="mt-3 flex items-start gap-2 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" /> {problem}
        </p>
      ) : null}

      {outcomes && counts ? (
        <div className="mt-5">
          <p role="status" className="text-sm font-semibold text-ink">
            {outcomes.length} line{outcomes.length === 1 ? '' : 's'} read: {counts.added} matched and added
            {counts.choose ? `, ${counts.choose} need${counts.choose === 1 ? 's' : ''} your choice` : ''}
            {counts.text ? `, ${counts.text} not found (added as your text)` : ''}
            {counts.full ? `, ${counts.full} not added: the list is full` : ''}.
          </p>
          <ol className="mt-3 divide-y divide-zinc-200 rounded-md border border-zinc-200 bg-white text-sm">
            {outcomes.map((o, i) => (
              <li key={o.line.line} className="p-3">
                <div className="flex flex-wrap items-baseline gap-x-2">
                  <span className="text-xs text-steel">Line {o.line.line}</span>
                  <span className="font-mono text-ink">{o.line.input}</span>
                  <span className="text-steel">× {o.line.quantity}</span>
                </div>
                {o.state === 'added' ? (
                  <p className="mt-1 flex items-start gap-1.5 text-emerald-800">
                    <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                    <span>
                      {o.chosen ?? `${partLabel(o.line.match!.product)} (${KIND_LABEL[o.line.match!.kind]})`}
                    </span>
                  </p>
                ) : o.state === 'text' ? (
                  <p className="mt-1 text-steel">Not in the catalogue: added as your text, we will look it up.</p>
                ) : o.state === 'full' ? (
                  <p className="mt-1 text-red-700">Not added: the quote list is full.</p>
                ) : (
                  <fieldset className="mt-2">
                    <legend className="flex items-center gap-1.5 font-semibold text-ink">
                      <CircleHelp className="size-4 text-safety-deep" aria-hidden="true" /> Which part do you mean?
                    </legend>
                    <div className="mt-2 flex flex-col gap-2">
                      {o.line.alternatives.map((p) => (
                        <button
                          key={p.id}
                          type="button"
                          onClick={() => choose(i, p.id)}
                          className="rounded-md border border-zinc-300 px-3 py-2 text-left hover:border-ink focus-visible:outline-3 focus-visible:outline-safety"
                        >
                          <span className="font-mono font-semibold">{p.partNumber || p.sku}</span> · {p.name} · {displayBrand(p.brandName)}
                        </button>
                      ))}
                      <button
                        type="button"
                        onClick={() => choose(i, null)}
                        className="rounded-md px-3 py-2 text-left text-steel underline hover:text-ink"
                      >
                        None of these: keep my text
                      </button>
                    </div>
                  </fieldset>
                )}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </section>
  );
}
