// A compiler listing as a reader follows it beside the source: runs of consecutive lines that came from the same
// line of the source (or from none), in the listing's order. A line of the source may head several runs (a loop's
// body is scheduled around its neighbours). Shared by the CLI's `kernel run --ptx/--sass` and the app.
import type { Listing } from '../playground.ts';

export interface ListingBlock {
  // The source line these lines came from; null for lines from no line of the source (directives, labels).
  source: number | null;
  lines: string[];
}

export function listingBlocks(listing: Pick<Listing, 'lines'>): ListingBlock[] {
  const blocks: ListingBlock[] = [];
  for (const { text, source } of listing.lines) {
    const last = blocks[blocks.length - 1];
    // A label or a blank line between two instructions of one source line does not split their run.
    if (last && (last.source === source || (source === null && last.source !== null && !/\S/.test(text)))) last.lines.push(text);
    else blocks.push({ source, lines: [text] });
  }
  return blocks;
}
