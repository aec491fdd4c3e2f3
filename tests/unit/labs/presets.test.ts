// Every preset a student can pick must run: its values pass the lab's own schema, it names only parameters the lab
// has, and no two presets of a lab are the same settings under different names.
import { describe, expect, it } from 'vitest';

import { validateParams } from '../../../main/common/params.ts';
import { LABS } from '../../../main/labs/index.ts';

describe('lab presets', () => {
  for (const lab of LABS) {
    const { id, parameters, presets } = lab.descriptor;
    it(`${id}: every preset is valid, known and distinct`, () => {
      expect(presets.length).toBeGreaterThanOrEqual(2);
      const names = new Set(parameters.map((p) => p.name));
      const resolved = presets.map((preset) => {
        for (const name of Object.keys(preset.params)) expect(names, `${id} preset ${preset.id} names "${name}"`).toContain(name);
        return JSON.stringify(validateParams(id, parameters, preset.params));
      });
      expect(new Set(resolved).size).toBe(presets.length);
      expect(new Set(presets.map((p) => p.id)).size).toBe(presets.length);
    });
  }
});
