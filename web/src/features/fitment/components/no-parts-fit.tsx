import { Tractor } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import { machineLabel, type MachineChoice } from '../../../lib/machine.ts';
import { setMachine } from '../../../lib/use-machine.ts';
import { useResetPage } from '../../../lib/use-page-param.ts';

/** A listing's empty state when none of its parts fit the chosen machine, with the way back to every part. */
export function NoPartsFit({ machine, where = 'here' }: { machine: MachineChoice; where?: string }) {
  const resetPage = useResetPage();
  const clear = () => {
    setMachine(null);
    resetPage();
  };
  return (
    <StateMessage
      icon={Tractor}
      title="No Matching Parts"
      actions={
        <Button variant="dark" onClick={clear}>
          Clear machine filter
        </Button>
      }
    >
      No parts fit {machineLabel(machine)} {where}. Clear the machine filter to see every part, or send us the serial number and we
      will find the part for you.
    </StateMessage>
  );
}
