import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { AssemblyEditor } from './assembly-editor.tsx';
import { AssemblyList } from './assembly-list.tsx';
import { DiagramCsv } from './diagram-csv.tsx';
import { NewAssemblyForm } from './new-assembly-form.tsx';

/**
 * Diagrams (#38): machine models' parts books. The list of assemblies (with "New assembly" and the CSV export and
 * import), or one assembly open in the editor.
 */
export default function DiagramsTab() {
  const id = useId();
  const [open, setOpen] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  if (open) return <AssemblyEditor key={open} id={open} onClose={() => setOpen(null)} />;
  return (
    <section aria-labelledby={`${id}-h`} className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-h`} className="font-display text-2xl font-bold uppercase">
            Parts diagrams
          </h2>
          <p className="max-w-2xl text-sm text-steel">
            Each machine model's assemblies: a drawing with numbered callouts, and the part, quantity and serial range of each. Buyers find them on the
            machine's page.
          </p>
        </div>
        {creating ? null : (
          <Button variant="primary" size="sm" onClick={() => setCreating(true)}>
            <Plus className="size-4" aria-hidden="true" /> New assembly
          </Button>
        )}
      </div>
      {creating ? (
        <NewAssemblyForm
          onCancel={() => setCreating(false)}
          onCreated={(a) => {
            toast.success(`"${a.name}" created for ${a.make} ${a.model}`);
            setCreating(false);
            setOpen(a.id);
          }}
        />
      ) : null}
      <AssemblyList onOpen={setOpen} />
      <DiagramCsv />
    </section>
  );
}
