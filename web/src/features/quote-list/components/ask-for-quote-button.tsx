import { MessageSquarePlus } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../lib/toast.ts';
import { addText } from '../quote-list-store.ts';

/** "Ask for a quote for '…'": what was searched goes on the quote list as a line of its own. */
export function AskForQuoteButton({ search }: { search: string }) {
  const navigate = useNavigate();
  const ask = () => {
    const result = addText(search, 1);
    if (!result.ok) return void toast.error('Quote list full', { description: result.message });
    toast.success('Added to your quote list', { description: `“${search}” × 1`, action: { label: 'View list', onClick: () => void navigate('/quote') } });
  };
  return (
    <Button onClick={ask} variant="outline">
      <MessageSquarePlus className="size-4" aria-hidden="true" /> Ask for a quote for “{search}”
    </Button>
  );
}

