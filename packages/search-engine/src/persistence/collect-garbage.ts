import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | null | undefined;
/**
 * A full garbage collection now, when V8 allows one to be asked for: after dropping a whole index and before loading
 * the next, so that the process holds one of them, not both until V8 gets round to it.
 */
export function collectGarbage(): void {
  if (gc === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      gc = vm.runInNewContext('gc') as () => void;
    } catch {
      gc = null;
    }
  }
  gc?.();
}
