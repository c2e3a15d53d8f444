import { AssemblyCreateSchema, DIAGRAM_LIMITS, type Assembly } from '@forgeline/contracts/parts-diagrams';
import { Loader2, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { serverMessage, statusOf } from '../../../lib/api-error.ts';
import { useFitmentMakes } from '../../fitment/api/get-fitment-makes.ts';
import { useFitmentModels } from '../../fitment/api/get-fitment-models.ts';
import { useCreateAssembly } from '../api/assemblies.ts';

type Field = 'make' | 'model' | 'name';

/**
 * A new assembly for a machine model (#38): make and model as the fitment data names them (offered from
 * /api/fitment/makes and /models, any other may be typed), and its name. Checked with the contract's schema first;
 * the catalog's 409 (the model has that name already) is shown at the name.
 */
export function NewAssemblyForm({ onCreated, onCancel }: { onCreated: (a: Assembly) => void; onCancel: () => void }) {
  const id = useId();
  const [values, setValues] = useState<Record<Field, string>>({ make: '', model: '', name: '' });
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});
  const create = useCreateAssembly();
  const makes = useFitmentMakes();
  const models = useFitmentModels(makes.data?.makes.some((m) => m.make === values.make.trim()) ? values.make.trim() : '');

  const submit = () => {
    const parsed = AssemblyCreateSchema.safeParse(values);
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const i of parsed.error.issues) next[(i.path[0] as Field) ?? 'form'] ??= i.message;
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: onCreated,
      onError: (err) => {
        const message = serverMessage(err) ?? 'Please try again.';
        setErrors(statusOf(err) === 409 ? { name: message } : { form: message });
      },
    });
  };

  // The message sits beside the label, not in it: it describes the field and is not part of its name.
  const field = (name: Field, label: string, list?: string[]) => (
    <div>
      <label className="block text-sm font-semibold text-ink" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        value={values[name]}
        maxLength={DIAGRAM_LIMITS.name}
        list={list ? `${id}-${name}-list` : undefined}
        autoComplete="off"
        required
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
        onChange={(e) => {
          const value = e.target.value;
          setValues((v) => ({ ...v, [name]: value }));
          setErrors((e) => ({ ...e, [name]: undefined }));
        }}
        className={`${formControlClass} w-full`}
      />
      {list ? (
        <datalist id={`${id}-${name}-list`}>
          {list.map((o) => (
            <option key={o} value={o} />
          ))}
        </datalist>
      ) : null}
      {errors[name] ? (
        <span id={`${id}-${name}-error`} className="mt-0.5 block text-xs text-red-700">
          {errors[name]}
        </span>
      ) : null}
    </div>
  );

  return (
    <form
      aria-labelledby={`${id}-h`}
      noValidate
      className="space-y-3 rounded-lg border border-zinc-300 bg-white p-4"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h3 id={`${id}-h`} className="font-semibold text-ink">
        New assembly
      </h3>
      <div className="grid gap-3 sm:grid-cols-3">
        {field('make', 'Machine make', makes.data?.makes.map((m) => m.make))}
        {field('model', 'Machine model', models.data?.models.map((m) => m.model))}
        {field('name', 'Assembly name (e.g. Track roller frame)')}
      </div>
      {makes.isError ? <p className="text-xs text-steel">The machine makes could not be read; type the make as the parts' fitment names it.</p> : null}
      {errors.form ? (
        <p role="alert" className="text-sm text-red-700">
          Not created: {errors.form}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={create.isPending}>
          {create.isPending ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Plus className="size-4" aria-hidden="true" />}
          Create and open
        </Button>
        <Button variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
