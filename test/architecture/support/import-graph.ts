// The relative imports between the package's own sources, read as text, so a test can hold the structure to rules.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, whose paths the graph names files by. */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

// `from './x.js'`, `import './x.js'` and `import('./x.js')`, type-only ones too: a type circle still ties files together.
const SPECIFIER = /(?:\bfrom|\bimport|\bimport\()\s*['"](\.{1,2}\/[^'"\n]+)['"]/g;

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(folder, name).replaceAll('\\', '/'));
}

function resolveSpecifier(importer: string, specifier: string): string | undefined {
  const target = relative(ROOT, resolve(ROOT, dirname(importer), specifier)).replaceAll('\\', '/');
  const stem = target.replace(/\.(js|ts)$/, '');
  return [`${stem}.ts`, `${target}/index.ts`, target].find((candidate) => existsSync(join(ROOT, candidate)));
}

/** Each source file under `folders` with the repository files it imports by relative path. */
export function importGraph(folders: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of folders.flatMap(sourcesUnder)) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const targets = [...text.matchAll(SPECIFIER)].map((m) => resolveSpecifier(file, m[1]!));
    graph.set(file, [...new Set(targets.filter((t): t is string => t !== undefined))]);
  }
  return graph;
}

/** Every import circle in `graph`, each as the files on it from its first file back to that file (Tarjan's SCCs). */
export function importCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    const selfImport = graph.get(file)?.includes(file) ?? false;
    if (component.length > 1 || selfImport) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/**
 * The graph of the rooms below the roots, for rules on how they depend on each other: each folder is one room
 * (`mock/messaging` -> `mock/simulators` when a file of one imports a file of the other), and each of the roots' own
 * files is a room of its own (`mock/backend.ts`), so a loop through a root file is a circle too.
 */
export function folderGraph(graph: Map<string, string[]>, roots: readonly string[]): Map<string, string[]> {
  const roomOf = (file: string) => {
    const folder = file.slice(0, file.lastIndexOf('/'));
    return roots.includes(folder) ? file : folder;
  };
  const rooms = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = roomOf(file);
    const edges = rooms.get(from) ?? new Set<string>();
    rooms.set(from, edges);
    for (const target of targets.map(roomOf)) if (target !== from) edges.add(target);
  }
  return new Map([...rooms].map(([room, edges]) => [room, [...edges]]));
}
