/**
 * The staff's search rules (#36), as every search reads them: aliases (this text finds these parts: a buyer's own
 * code, a misspelt brand), synonym sets (handed to the engine), and queries marked not stocked (the search page then
 * offers to ask for a quote). Kept in memory, read again from the store when its version moves: at once on the
 * replica that made the change, within seconds on the others (their channel, or the poll).
 */
import type { ProductSummary } from '@forgeline/contracts/products';
import type { SearchNotice } from '@forgeline/contracts/search-insights';
import type { Logger } from '@forgeline/service-kit/logger';
import type { Page, SearchInsightsStore, SearchSynonyms } from '../../ports.ts';
import { searchQueryKey } from '../search-insights.ts';

/** How often a replica asks the store whether the rules changed, when no channel told it. */
export const RULES_POLL_MS = 5_000;

export class SearchRules {
  private version = '';
  private aliases = new Map<string, string[]>();
  private notStocked = new Map<string, string | undefined>();
  private timer: NodeJS.Timeout | null = null;
  private refreshing: Promise<boolean> | null = null;
  synonyms: SearchSynonyms | undefined;

  constructor(
    private readonly store: SearchInsightsStore,
    private readonly logger: Logger,
    /** Runs when rules were read anew (the answers made with the old ones must go). */
    private readonly onChange: () => void = () => {},
  ) {}

  /** Reads the rules again if their version moved; true when it did. */
  refresh(): Promise<boolean> {
    this.refreshing ??= this.load().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async load(): Promise<boolean> {
    const version = await this.store.rulesVersion();
    if (version === this.version) return false;
    const [aliases, synonyms, statuses] = await Promise.all([this.store.listAliases(), this.store.listSynonyms(), this.store.statuses()]);
    this.aliases = new Map(aliases.map((a) => [a.key, a.productIds]));
    this.synonyms = synonyms.length ? { version, sets: synonyms.map((s) => ({ words: s.words, mode: s.mode })) } : undefined;
    this.notStocked = new Map([...statuses].filter(([, s]) => s.status === 'not_stocked').map(([q, s]) => [q, s.note]));
    const first = this.version === '';
    this.version = version;
    if (!first) this.logger.info({ version, aliases: aliases.length, synonyms: synonyms.length, notStocked: this.notStocked.size }, 'search rules read again');
    this.onChange();
    return true;
  }

  /** Polls the store's version (a replica that missed a channel message still follows within RULES_POLL_MS). */
  start(): void {
    this.timer ??= setInterval(() => {
      this.refresh().catch((err: unknown) => this.logger.warn({ err }, 'search rules: reading them again failed; keeping the ones in memory'));
    }, RULES_POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The parts an alias of this query names (none: []). */
  aliasFor(query: string): string[] {
    return this.aliases.size ? (this.aliases.get(searchQueryKey(query)) ?? []) : [];
  }

  /** What a search page says beside this query's results. */
  noticeFor(query: string): SearchNotice | undefined {
    if (this.notStocked.size === 0) return undefined;
    const key = searchQueryKey(query);
    if (!this.notStocked.has(key)) return undefined;
    const note = this.notStocked.get(key);
    return { kind: 'not_stocked', ...(note ? { note } : {}) };
  }
}

/** Most results read ahead to place an alias's parts before the engine's page. */
const MAX_PINNED_WINDOW = 600;

/**
 * The parts an alias names, first (those the page's filters let through), then the search's own results without
 * them: one page of it.
 */
export async function withPinned(
  pinned: readonly ProductSummary[],
  page: { limit: number; offset: number },
  search: (window: { limit: number; offset: number }) => Promise<Page<ProductSummary>>,
): Promise<Page<ProductSummary>> {
  if (pinned.length === 0) return search(page);
  const ids = new Set(pinned.map((p) => p.id));
  if (page.offset + page.limit > MAX_PINNED_WINDOW) {
    // A deep page: the search's own, shifted by the parts shown ahead of it.
    const rest = await search({ limit: page.limit, offset: Math.max(0, page.offset - pinned.length) });
    return { items: rest.items.filter((p) => !ids.has(p.id)), total: rest.total + pinned.length };
  }
  const rest = await search({ limit: page.offset + page.limit + pinned.length, offset: 0 });
  const others = rest.items.filter((p) => !ids.has(p.id));
  const overlap = rest.items.length - others.length;
  return { items: [...pinned, ...others].slice(page.offset, page.offset + page.limit), total: rest.total + pinned.length - overlap };
}
