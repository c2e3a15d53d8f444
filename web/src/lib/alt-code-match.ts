import type { AltCodeMatch } from '@forgeline/contracts/products';

/**
 * How a search hit was found when not by its own number or words (the catalogue's `match`): "Replaces 1R-0716" for an
 * older number it supersedes, "Cross-ref: Fleetguard LF9080" for another maker's number (the value is "Brand Number").
 */
export function altCodeMatchLabel(match: AltCodeMatch | undefined): string | null {
  const value = match?.value.trim();
  if (!match || !value) return null;
  return match.kind === 'superseded' ? `Replaces ${value}` : `Cross-ref: ${value}`;
}
