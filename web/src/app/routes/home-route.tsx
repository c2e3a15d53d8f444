import { useSearchParams } from 'react-router-dom';
import { AboutSection } from '../../features/home/components/about-section.tsx';
import { MachineSelector } from '../../features/fitment/components/machine-selector.tsx';
import { FeaturesSection } from '../../features/home/components/features-section.tsx';
import { HeroSection } from '../../features/home/components/hero-section.tsx';
import { StatsBand } from '../../features/home/components/stats-band.tsx';
import { WhyChooseUs } from '../../features/home/components/why-choose-us.tsx';
import { SearchResults } from '../../features/search/components/search-results.tsx';
import { TestimonialsSection } from '../../features/testimonials/components/testimonials-section.tsx';
import { site } from '../../config/site.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { useAfterFirstCommit } from '../../lib/use-after-first-commit.ts';

/** Home (spec section 2): the sections in order, or the full search results when ?search= is given. */
export default function HomeRoute() {
  const [params] = useSearchParams();
  const search = params.get('search')?.trim();
  // The hero paints first; the sections below the fold follow in an interruptible render (no long task at start).
  const below = useAfterFirstCommit();
  useDocumentTitle(search ? null : site.tagline);
  if (search) return <SearchResults search={search} />;
  return (
    <>
      <h1 className="sr-only">
        {site.name}: {site.tagline}
      </h1>
      <HeroSection />
      <div className="container-page py-8">
        <MachineSelector goTo="/catalog" folded />
      </div>
      {below ? (
        <>
          <FeaturesSection />
          <StatsBand />
          <TestimonialsSection />
          <WhyChooseUs />
          <AboutSection />
        </>
      ) : null}
    </>
  );
}
