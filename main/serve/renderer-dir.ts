// Where the built renderer is: dist/web, two folders up from dist/main/serve/ once compiled, or under dist/ from the
// sources' main/serve/.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function rendererDir(): string | null {
  const here = fileURLToPath(new URL('.', import.meta.url));
  for (const dir of [join(here, '..', '..', 'web'), join(here, '..', '..', 'dist', 'web')]) {
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return null;
}
