// The page's Content Security Policy, as both shells send it (the app:// protocol and serve mode share the header)
// and as the page carries it in a <meta> (which cannot say frame-ancestors): present, the same in both places, and
// strict by Google's CSP Evaluator (the one Electronegativity uses): no inline or eval'd script, no plugin, no
// <base>, no form posting elsewhere, no framing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { CONTENT_SECURITY_POLICY } from '../../../main/serve/static-files.ts';

interface CspFinding {
  type: number;
  severity: number;
  directive: string;
  description: string;
}

interface CspEvaluatorModule {
  CspParser: new (policy: string) => { csp: unknown };
  CspEvaluator: new (csp: unknown, version: unknown) => { evaluate(): CspFinding[] };
  Version: { CSP3: unknown };
  severities: { INFO: number; MEDIUM_MAYBE: number };
}

// The evaluator Electronegativity itself runs (its dependency, resolved from its folder).
const require = createRequire(import.meta.url);
const evaluator = createRequire(require.resolve('@doyensec/electronegativity/package.json'))('@doyensec/csp-evaluator') as CspEvaluatorModule;

function findings(policy: string): CspFinding[] {
  return new evaluator.CspEvaluator(new evaluator.CspParser(policy).csp, evaluator.Version.CSP3).evaluate();
}

function directives(policy: string): Map<string, string> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', ...values] = d.split(/\s+/);
        return [name, values.join(' ')];
      }),
  );
}

const indexHtml = readFileSync(fileURLToPath(new URL('../../../renderer/index.html', import.meta.url)), 'utf8');
const metaPolicy = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(indexHtml)?.[1] ?? '';

describe('Content Security Policy', () => {
  it('is sent as a header and carried by the page, the same but for what only a header can say', () => {
    expect(metaPolicy).not.toBe('');
    const header = directives(CONTENT_SECURITY_POLICY);
    header.delete('frame-ancestors');
    expect(directives(metaPolicy)).toEqual(header);
  });

  it('allows no inline or evaluated script, no plugins, no <base>, no form target and no framing', () => {
    const policy = directives(CONTENT_SECURITY_POLICY);
    expect(policy.get('default-src')).toBe("'self'");
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('object-src')).toBe("'none'");
    expect(policy.get('base-uri')).toBe("'none'");
    expect(policy.get('form-action')).toBe("'none'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|\*|https?:/);
  });

  it("has no finding of the CSP Evaluator but its note on 'self' (the app serves no JSONP and no uploads)", () => {
    for (const policy of [CONTENT_SECURITY_POLICY, metaPolicy]) {
      const notes = findings(policy).filter((f) => f.severity < evaluator.severities.INFO);
      expect(notes.map((f) => `${f.directive}: ${f.description}`)).toEqual(["script-src: 'self' can be problematic if you host JSONP, Angular or user uploaded files."]);
      expect(notes[0]?.severity).toBe(evaluator.severities.MEDIUM_MAYBE);
    }
  });
});
