// `gpu-lab labs`: the labs, their parameters with defaults, limits and units, and the kernels they run.
import { labDescriptors } from '../labs/index.ts';
import type { ParameterDescriptor } from '../common/lab-descriptor.ts';
import type { CliCommand } from './command.ts';
import { UsageError } from './command.ts';
import { parseArgs } from './cli-options.ts';

function range(p: ParameterDescriptor): string {
  const unit = p.unit ? ` ${p.unit}` : '';
  switch (p.kind) {
    case 'integer':
    case 'number':
      return `${p.default}${unit} (${p.min} … ${p.max})`;
    case 'choice':
      return `${p.default} (${p.choices.join(' | ')})`;
    case 'integer-list':
      return `${p.default.join(',')}${unit} (each ${p.min} … ${p.max}, up to ${p.maxItems})`;
    case 'choice-list':
      return `${p.default.join(',')} (from ${p.choices.join(', ')})`;
  }
}

export const labsCommand: CliCommand = {
  name: 'labs',
  summary: 'List the labs, their parameters and kernels',
  usage: 'Usage: gpu-lab labs [--json]\n\nLists every lab with its parameters (default, limits, unit). --json prints the descriptors.',
  async run(argv, io) {
    const args = parseArgs(argv, [], ['json']);
    if (args.positional.length) throw new UsageError(`unexpected argument "${args.positional[0]}"`);
    const labs = labDescriptors();
    if (args.flags.has('json')) {
      io.out(`${JSON.stringify(labs, null, 2)}\n`);
      return 0;
    }
    for (const lab of labs) {
      io.out(`${lab.id}  —  ${lab.title}\n  ${lab.summary}\n`);
      for (const p of lab.parameters) io.out(`    --param ${p.name}=…  ${range(p)}  ${p.description}\n`);
      io.out(`  kernels: ${lab.kernels.map((k) => `${k.file} [${k.functions.join(', ')}]`).join('; ')}\n\n`);
    }
    return 0;
  },
};
