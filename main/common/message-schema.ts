// The schema of a sentence as data (message.ts): an id and named values, nested messages included. Anything a record,
// a device list or a device report says in words that a reader reads in their language is one of these.
import { z } from 'zod';

import type { Message } from './pure/message.ts';

const FORMATTED_NUMBER = z.strictObject({
  num: z.number(),
  as: z.enum(['ms', 'rate', 'times', 'sig', 'count', 'bytes', 'percent', 'int', 'interval']),
  unit: z.enum(['GB/s', 'GFLOP/s', 'GOP/s']).optional(),
  digits: z.int().min(1).max(21).optional(),
  // A median's interval ('interval' only): its ends, in ms.
  low: z.number().optional(),
  high: z.number().optional(),
});

export const MESSAGE: z.ZodType<Message> = z.lazy(() =>
  z.strictObject({
    key: z.string().min(1),
    values: z.record(z.string(), z.union([z.string(), z.number(), FORMATTED_NUMBER, MESSAGE])).optional(),
  }),
);
