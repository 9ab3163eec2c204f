// What `npm publish` would ship: the built entries and the three documents, nothing else.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the published package', () => {
  it('contains only dist/, README.md, CHANGELOG.md, LICENSE and package.json', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
    });
    const [pack] = JSON.parse(out) as [{ files: { path: string }[] }];
    const tops = new Set(pack.files.map((f) => f.path.split('/')[0]));
    expect([...tops].sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'dist', 'package.json'].sort());
  });

  it('lists every entry of the exports map, with types for import and require', async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as {
      exports: Record<string, { import?: { types: string }; require?: { types: string } } | string>;
    };
    for (const entry of ['.', './webhooks', './mock']) {
      const target = pkg.exports[entry];
      expect(typeof target === 'object' && target.import?.types && target.require?.types).toBeTruthy();
    }
  });

  it("resolves the subpath types under TypeScript's node10 resolution too (typesVersions), as attw checks", async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as {
      exports: Record<string, { require?: { types: string } } | string>;
      typesVersions?: Record<string, Record<string, string[]>>;
    };
    for (const entry of ['./webhooks', './mock']) {
      const target = pkg.exports[entry];
      const types = typeof target === 'object' ? target.require?.types : undefined;
      expect(pkg.typesVersions?.['*']?.[entry.slice(2)]).toEqual([types]);
    }
  });
});
