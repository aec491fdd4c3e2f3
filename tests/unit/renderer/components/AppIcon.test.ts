// The app's mark in the renderer is the packaged app's drawing, build-resources/icon.svg, not a copy: the tab's icon
// (index.html) and AppIcon, which the rail shows beside the name, decorative there and named where it stands alone.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';

import AppIcon from '../../../../renderer/components/AppIcon.vue';

const root = resolve(import.meta.dirname, '../../../..');
const drawing = readFileSync(resolve(root, 'build-resources/icon.svg'), 'utf8');

// An SVG's markup with the differences that do not change the picture taken out: quotes, spacing between tags.
const markup = (svg: string): string => svg.replace(/'/g, '"').replace(/\s+/g, ' ').replace(/>\s+</g, '><').trim();

// What an <img> shows: the bundler inlines a drawing this small as a data URL, else links to the file.
function shownSvg(src: string): string {
  const inline = 'data:image/svg+xml,';
  return src.startsWith(inline) ? decodeURIComponent(src.slice(inline.length)) : readFileSync(resolve(root, src.replace(/^\//, '')), 'utf8');
}

describe('the app icon', () => {
  it('is the tab’s icon, from the drawing the packaged icons are made from', () => {
    const html = readFileSync(resolve(root, 'renderer/index.html'), 'utf8');
    const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(html)?.[1];
    expect(href).toBeDefined();
    expect(resolve(root, 'renderer', href ?? '')).toBe(resolve(root, 'build-resources/icon.svg'));
  });

  it('is shown by AppIcon from the same drawing, decorative beside the name, named where asked', () => {
    const beside = mount(AppIcon);
    const img = beside.get('img');
    expect(markup(shownSvg(img.attributes('src') ?? ''))).toBe(markup(drawing));
    expect(img.attributes('alt')).toBe('');
    expect([img.attributes('width'), img.attributes('height')]).toEqual(['28', '28']);
    expect(mount(AppIcon, { props: { size: 20, label: 'GPU Lab' } }).get('img').attributes()).toMatchObject({ alt: 'GPU Lab', width: '20', height: '20' });
  });
});
