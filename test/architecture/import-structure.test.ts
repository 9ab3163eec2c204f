import { describe, expect, it } from 'vitest';
import { folderGraph, importCircles, importGraph } from './support/import-graph.js';

describe('the import structure of src/ and mock/', () => {
  const graph = importGraph(['src', 'mock']);

  it('reads the sources it walks (a walker that found nothing would prove nothing)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('mock/backend.ts')).toContain('mock/management/group.ts');
    expect(graph.get('src/webhooks/node-handler.ts')).toContain('src/webhooks/node-body.ts');
  });

  it('holds no import circle, type-only imports included', () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it('holds no circle between folders and root files: where one imports another, nothing leads back', () => {
    const folders = folderGraph(graph, ['src', 'mock']);
    expect(folders.get('mock/simulators')).toContain('mock/messaging');
    expect(importCircles(folders)).toEqual([]);
  });

  it('keeps the delivery engine (mock/delivery/) free of the messaging side, the simulators and the control API', () => {
    const outward = [...graph].flatMap(([file, targets]) =>
      file.startsWith('mock/delivery/')
        ? targets
            .filter((t) => /^mock\/(messaging|simulators|control|management)\//.test(t))
            .map((t) => `${file} -> ${t}`)
        : [],
    );
    expect(outward).toEqual([]);
  });

  it('keeps the messaging side free of the control API, which drives it from above', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      /^mock\/(messaging|simulators)\//.test(file)
        ? targets.filter((t) => t.startsWith('mock/control/')).map((t) => `${file} -> ${t}`)
        : [],
    );
    expect(upward).toEqual([]);
  });

  it('keeps the routes off the backend: route files see it only through their narrow host types', () => {
    const onBackend = [...graph].filter(
      ([file, targets]) => file !== 'mock/index.ts' && targets.includes('mock/backend.ts'),
    );
    expect(
      onBackend.map(([file]) => file).filter((f) => /^mock\/(management|control|messaging|http)\//.test(f)),
    ).toEqual([]);
  });
});

describe('folderGraph', () => {
  it('joins the files of each folder, and keeps each file of a root as a room of its own', () => {
    const graph = new Map([
      ['mock/a/x.ts', ['mock/b/y.ts', 'mock/a/z.ts']],
      ['mock/b/y.ts', ['mock/c/w.ts']],
      ['mock/c/w.ts', ['mock/glue.ts']],
      ['mock/glue.ts', ['mock/a/x.ts']],
      ['mock/backend.ts', ['mock/a/x.ts']],
    ]);
    const folders = folderGraph(graph, ['mock']);
    expect(folders).toEqual(
      new Map([
        ['mock/a', ['mock/b']],
        ['mock/b', ['mock/c']],
        ['mock/c', ['mock/glue.ts']],
        ['mock/glue.ts', ['mock/a']],
        ['mock/backend.ts', ['mock/a']],
      ]),
    );
    // A loop through a root file (here mock/glue.ts) is a circle of folders too.
    expect(importCircles(folders)).toEqual([['mock/a', 'mock/b', 'mock/c', 'mock/glue.ts']]);
  });
});

describe('importCircles', () => {
  it('names each circle once, by its files', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });
});
