// `kernel run --ptx/--sass`: the listing as `objdump -S` prints one, each run of lines headed by the line of the
// source it came from, as FILE:LINE and the line's text, so that an editor can jump to it.
import { listingBlocks } from '../common/pure/listing-blocks.ts';
import type { Listing } from '../common/playground.ts';
import type { CliText } from './cli-text.ts';

export function listingText(listing: Listing, source: string, fileName: string, t: CliText): string {
  const sourceLines = source.split('\n');
  const out = [t('kernel.listing.heading', { kind: listing.kind.toUpperCase(), tool: listing.tool ?? '?' })];
  for (const block of listingBlocks(listing)) {
    if (block.source !== null) out.push(`// ${fileName}:${block.source}  ${(sourceLines[block.source - 1] ?? '').trim()}`);
    out.push(...block.lines);
  }
  if (listing.truncated > 0) out.push(t('kernel.listing.truncated', { count: listing.truncated }));
  return out.join('\n');
}
