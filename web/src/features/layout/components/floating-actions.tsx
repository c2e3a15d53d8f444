import { ArrowUp, MessageCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { WHATSAPP_GREETING, whatsappLink } from '@forgeline/site-config/whatsapp';
import { SCROLL_TOP_THRESHOLD_PX } from '../../../config/constants.ts';
import { site } from '../../../config/site.ts';

/** The floating WhatsApp chat button and the scroll-to-top button (shown after 300 px). */
export function FloatingActions({ chatText = WHATSAPP_GREETING }: { chatText?: string }) {
  const [showTop, setShowTop] = useState(false);
  useEffect(() => {
    const onScroll = () => setShowTop(window.scrollY > SCROLL_TOP_THRESHOLD_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return (
    <div className="fixed bottom-4 right-4 z-30 flex flex-col items-end gap-3 sm:bottom-6 sm:right-6">
      {showTop ? (
        <button
          type="button"
          aria-label="Scroll to top"
          onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
          className="grid size-11 place-items-center rounded-full border border-ink-line bg-ink text-safety shadow-lg hover:bg-ink-soft"
        >
          <ArrowUp className="size-5" aria-hidden="true" />
        </button>
      ) : null}
      <a
        href={whatsappLink(chatText, site.whatsappNumber)}
        target="_blank"
        rel="noopener noreferrer"
        aria-label="Chat with us on WhatsApp"
        className="grid size-14 place-items-center rounded-full bg-whatsapp text-white shadow-xl ring-4 ring-white/70 hover:bg-whatsapp-hover"
      >
        <MessageCircle className="size-7" aria-hidden="true" />
      </a>
    </div>
  );
}
