// `gpu-lab labs`: the labs, their parameters with defaults, limits and units, and the kernels they run, in the CLI's
// language. The values are written as --param takes them (a decimal point, commas between list items), whatever the
// language; --json prints the English descriptors, the same in any language.
import { labDescriptors } from '../labs/index.ts';
import type { ParameterDescriptor } from '../common/lab-descriptor.ts';
import type { CliCommand } from './command.ts';
import { UsageError } from './command.ts';
import { parseArgs } from './cli-options.ts';
import { wrap, type CliText } from './cli-text.ts';

function range(p: ParameterDescriptor, t: CliText): string {
  const unit = p.unit ? ` ${p.unit}` : '';
  switch (p.kind) {
    case 'integer':
    case 'number':
      return t('labs.range', { default: `${p.default}${unit}`, min: p.min, max: p.max });
    case 'choice':
      return t('labs.choice', { default: p.default, choices: p.choices.join(' | ') });
    case 'integer-list':
      return t('labs.list', { default: `${p.default.join(',')}${unit}`, min: p.min, max: p.max, count: p.maxItems });
    case 'choice-list':
      return t('labs.choices', { default: p.default.join(','), choices: p.choices.join(', ') });
  }
}

export const labsCommand: CliCommand = {
  name: 'labs',
  usage: (t) => t('commands.labs.usage'),
  async run(argv, io, { t, locale }) {
    const args = parseArgs(argv, [], ['json']);
    if (args.positional.length > 1) throw new UsageError('usage.unexpected', { value: args.positional[1] ?? '' });
    // `gpu-lab labs matmul`: that lab alone, with what it explains and what to look for in its results.
    const wanted = args.positional[0];
    const all = labDescriptors(locale);
    if (wanted !== undefined && !all.some((l) => l.id === wanted)) throw new UsageError('usage.unknownLab', { lab: wanted, labs: all.map((l) => l.id).join(', ') });
    if (args.flags.has('json')) {
      const english = labDescriptors().filter((l) => wanted === undefined || l.id === wanted);
      io.out(`${JSON.stringify(wanted === undefined ? english : english[0], null, 2)}\n`);
      return 0;
    }
    for (const lab of all.filter((l) => wanted === undefined || l.id === wanted)) {
      if (wanted !== undefined) {
        io.out(`${lab.id}  —  ${lab.title}\n\n${lab.explanation.map((para) => wrap(para, '  ')).join('\n\n')}\n\n${t('labs.lookFor')}\n${lab.lookFor.map((item) => `  • ${wrap(item, '    ').trimStart()}`).join('\n')}\n\n`);
        for (const p of lab.parameters) io.out(`    --param ${p.name}=…  ${range(p, t)}  ${p.description}\n`);
        io.out(`  ${t('labs.kernels', { kernels: lab.kernels.map((k) => `${k.file} [${k.functions.join(', ')}]`).join('; ') })}\n`);
        continue;
      }
      io.out(`${lab.id}  —  ${lab.title}\n  ${lab.summary}\n`);
      for (const p of lab.parameters) io.out(`    --param ${p.name}=…  ${range(p, t)}  ${p.description}\n`);
      io.out(`  ${t('labs.kernels', { kernels: lab.kernels.map((k) => `${k.file} [${k.functions.join(', ')}]`).join('; ') })}\n\n`);
    }
    return 0;
  },
};
