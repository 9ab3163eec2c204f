// What `npm publish` would ship from a clean checkout, and a newcomer who installs that tarball and follows only the
// README.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../runtimes/support/runtime-install.js';
import {
  adapt,
  binScript,
  gitChanges,
  installedPackages,
  newcomerProject,
  node,
  packLinkgate,
  type Running,
  readmeSnippet,
  runNpm,
  start,
} from './support/newcomer-project.js';

const ADMIN_KEY = 'newcomer-admin-key-0123456789';
const MESSAGING_KEY = `gw_live_${'n'.repeat(24)}`;
const WEBHOOK_SECRET = `whsec_live_${'ab'.repeat(16)}`;

let workDir: string;
let packed: Awaited<ReturnType<typeof packLinkgate>>;
/** `git status --porcelain` of the packed checkout right after `npm pack`. */
let changedByPack: string;
/** The tarball's contents, unpacked: `package/` as npm installs it. */
let unpacked: string;
let project: { dir: string } | { missing: string };
/** An app that installs linkgate alone, for the SDK: no msw, no tools. */
let sdkOnly: { dir: string } | { missing: string };

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'linkgate-pack-'));
  packed = await packLinkgate(workDir);
  changedByPack = await gitChanges(packed.checkout);
  unpacked = join(workDir, 'unpacked');
  mkdirSync(unpacked);
  const tar = await runCommand('tar', ['-xzf', packed.tarball, '-C', unpacked], {
    cwd: workDir,
    env: process.env,
    timeoutMs: 60_000,
  });
  if (tar.code !== 0) throw new Error(`tar -xzf ${packed.tarball} failed: ${tar.stderr}`);
  [project, sdkOnly] = await Promise.all([newcomerProject(packed.tarball), newcomerProject(packed.tarball, [])]);
  if ('missing' in project) {
    console.warn(
      `\n!!! test/package newcomer project SKIPPED: ${project.missing}.\n` +
        "!!! The README's snippets were NOT proved against the packed tarball.\n" +
        '!!! Make the npm registry reachable (msw, vitest, typescript and @types/node are installed from it) and run again.\n',
    );
  }
  if ('missing' in sdkOnly) {
    console.warn(
      `\n!!! test/package SDK-only app SKIPPED: ${sdkOnly.missing}.\n` +
        '!!! What installing linkgate alone pulls in was NOT checked.\n' +
        '!!! Make the npm registry reachable (zod is installed from it) and run again.\n',
    );
  }
}, 480_000);

// Three folders with node_modules (the newcomer's has vitest and typescript) take a while to delete on a busy disk.
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  if ('dir' in project) rmSync(project.dir, { recursive: true, force: true });
  if ('dir' in sdkOnly) rmSync(sdkOnly.dir, { recursive: true, force: true });
}, 120_000);

describe('the published package', () => {
  it('is built by `npm pack` itself: a clean checkout packs every entry and the CLI, not an empty package', () => {
    // The checkout has no dist/ and nothing was built before `npm pack`; prepack has to build it.
    const entries = ['index', 'webhooks', 'mock', 'schemas', 'redis'];
    const wanted = [
      ...entries.flatMap((e) => [`dist/${e}.js`, `dist/${e}.cjs`, `dist/${e}.d.ts`, `dist/${e}.d.cts`]),
      'dist/cli.js',
    ];
    expect(wanted.filter((f) => !packed.files.includes(f))).toEqual([]);
  });

  it('ships no source maps and stays under 2.5 MB unpacked (it was 6.3 MB, two thirds maps)', () => {
    expect(packed.files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(packed.unpackedSize).toBeLessThan(2.5 * 1024 * 1024);
  });

  it('leaves the checkout as it was: `npm pack` (and publint, attw, CI) changes no tracked file', () => {
    // prepack used to write the pending changesets into CHANGELOG.md, leaving every pack with a modified file.
    expect(changedByPack).toBe('');
  });

  it("ships the checkout's CHANGELOG.md as it is", () => {
    const shipped = readFileSync(join(unpacked, 'package', 'CHANGELOG.md'), 'utf8');
    expect(shipped).toBe(readFileSync(join(packed.checkout, 'CHANGELOG.md'), 'utf8'));
  });

  it("writes the release notes of package.json's version on `npm publish`, one line per pending changeset", async () => {
    // A release may write the changelog: prepublishOnly runs on `npm publish` (a dry run here) and never on `npm pack`.
    await runNpm(['publish', '--dry-run'], packed.checkout, 300_000);
    expect(await gitChanges(packed.checkout)).toBe('M CHANGELOG.md');
    const changelog = readFileSync(join(packed.checkout, 'CHANGELOG.md'), 'utf8');
    const { version } = JSON.parse(readFileSync(join(packed.checkout, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(changelog.split('\n').slice(0, 3)).toEqual(['# linkgate', '', `## ${version}`]);
    const changesets = readdirSync(join(packed.checkout, '.changeset')).filter(
      (f) => f.endsWith('.md') && f !== 'README.md',
    );
    const section = changelog.split(/^## /m)[1]!;
    const missing = changesets.filter((f) => {
      const summary = readFileSync(join(packed.checkout, '.changeset', f), 'utf8')
        .split(/^---$/m)[2]!
        .trim();
      return !section.includes(`- ${summary.split('\n')[0]}`);
    });
    expect(changesets.length).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  }, 360_000);

  it('contains only dist/, README.md, CHANGELOG.md, LICENSE and package.json', () => {
    const tops = new Set(packed.files.map((f) => f.split('/')[0]));
    expect([...tops].sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'dist', 'package.json'].sort());
  });

  it('lists every entry of the exports map, with types for import and require', async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as {
      exports: Record<string, { import?: { types: string }; require?: { types: string } } | string>;
    };
    for (const entry of ['.', './webhooks', './mock', './schemas', './redis']) {
      const target = pkg.exports[entry];
      expect(typeof target === 'object' && target.import?.types && target.require?.types).toBeTruthy();
    }
  });

  it("resolves the subpath types under TypeScript's node10 resolution too (typesVersions), as attw checks", async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as {
      exports: Record<string, { require?: { types: string } } | string>;
      typesVersions?: Record<string, Record<string, string[]>>;
    };
    for (const entry of ['./webhooks', './mock', './schemas', './redis']) {
      const target = pkg.exports[entry];
      const types = typeof target === 'object' ? target.require?.types : undefined;
      expect(pkg.typesVersions?.['*']?.[entry.slice(2)]).toEqual([types]);
    }
  });

  it('imports, at run time and in its types, only zod, msw (the optional peer) and node:* modules', () => {
    // Everything else the mock uses (hono's routers, qrcode's core, ulid, @noble/hashes) is bundled into dist/. Only
    // the CLI (dist/cli.js and dist/cli-chunks/), on Node alone, may name a built-in without `node:` (ulid's "crypto").
    const allowed = new Set(['zod', 'zod/mini', 'msw']);
    const bare = /(?:\bfrom|\bimport\(|\brequire\()\s*['"]([@a-z][\w./@-]*)['"]/g;
    const comment = /^\s*(?:\*|\/\/|\/\*)/; // TSDoc examples import 'linkgate' and 'msw/node'
    const foreign = packed.files
      .filter((f) => /\.(?:c?js|d\.c?ts)$/.test(f))
      .flatMap((f) =>
        readFileSync(join(unpacked, 'package', f), 'utf8')
          .split('\n')
          .filter((line) => !comment.test(line))
          .flatMap((line) => [...line.matchAll(bare)].map((m) => m[1]!))
          .filter(
            (name) =>
              !allowed.has(name) &&
              !name.startsWith('node:') &&
              !((f === 'dist/cli.js' || f.startsWith('dist/cli-chunks/')) && isBuiltin(name)),
          )
          .map((name) => `${f}: ${name}`),
      );
    expect(foreign).toEqual([]);
  });
});

describe('an app that installs only linkgate', () => {
  const dir = () => (sdkOnly as { dir: string }).dir;
  const skip = () => 'missing' in sdkOnly;

  it('gets linkgate and zod in node_modules, and nothing else', (ctx) => {
    if (skip()) return ctx.skip();
    expect(installedPackages(dir())).toEqual(['linkgate', 'zod']);
  });

  it.for(['entries.mjs', 'entries.cjs'])(
    'loads linkgate, linkgate/webhooks and linkgate/mock from the tarball (%s)',
    async (file, ctx) => {
      if (skip()) return ctx.skip();
      const load = file.endsWith('.cjs') ? 'require(entry)' : 'await import(entry)';
      const names = {
        linkgate: 'Linkgate',
        'linkgate/webhooks': 'createWebhookHandler',
        'linkgate/mock': 'createMockBackend',
      };
      writeFileSync(
        join(dir(), file),
        `${file.endsWith('.cjs') ? '(async () => {\n' : ''}for (const [entry, name] of Object.entries(${JSON.stringify(names)})) {\n` +
          `  const loaded = ${load};\n  console.log(entry, name, typeof loaded[name]);\n}\n${file.endsWith('.cjs') ? '})();\n' : ''}`,
      );
      const run = await node([file], dir());
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(
        'linkgate Linkgate function\nlinkgate/webhooks createWebhookHandler function\nlinkgate/mock createMockBackend function\n',
      );
    },
  );

  it("shows a body field's rule when an editor hovers it, from the types the package ships", (ctx) => {
    if (skip()) return ctx.skip();
    const file = join(dir(), 'hover.ts');
    const text =
      "import type { DomainCreate } from 'linkgate/schemas';\ndeclare const body: DomainCreate;\nbody.domain;\n";
    writeFileSync(file, text);
    const options = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
    };
    const service = ts.createLanguageService({
      getScriptFileNames: () => [file],
      getScriptVersion: () => '1',
      getScriptSnapshot: (f) => (ts.sys.fileExists(f) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f)!) : undefined),
      getCurrentDirectory: () => dir(),
      getCompilationSettings: () => options,
      getDefaultLibFileName: ts.getDefaultLibFilePath,
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
    });
    const hover = service.getQuickInfoAtPosition(file, text.lastIndexOf('domain') + 1);
    expect(ts.displayPartsToString(hover?.displayParts)).toBe('(property) domain: string');
    expect(ts.displayPartsToString(hover?.documentation)).toMatch(/http or https.*at most 2,048 characters/);
  });

  it.for(['mock-server.mjs', 'mock-server.cjs'])(
    'serves a route and a QR PNG with startMockServer from linkgate/mock, without msw (%s)',
    async (file, ctx) => {
      if (skip()) return ctx.skip();
      writeFileSync(join(dir(), file), mockServerScript(file.endsWith('.cjs') ? 'require' : 'import'));
      const run = await node([file], dir());
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe('200 200 image/png PNG\n');
    },
  );

  it('loads the webhooks.node build on Node, bundlers for browsers and edges the default one, both parsing with zod (its compiler on Node only)', async (ctx) => {
    if (skip()) return ctx.skip();
    writeFileSync(join(dir(), 'which-webhooks.mjs'), "console.log(import.meta.resolve('linkgate/webhooks'));");
    expect((await node(['which-webhooks.mjs'], dir())).stdout).toMatch(/\/dist\/webhooks\.node\.js\n$/);
    writeFileSync(join(dir(), 'receiver.js'), "export { createWebhookHandler } from 'linkgate/webhooks';");
    const shipped = async (platform: 'browser' | 'node', conditions: string[] = []) => {
      const { metafile } = await build({
        entryPoints: ['receiver.js'],
        absWorkingDir: dir(),
        bundle: true,
        platform,
        conditions,
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      // What is left in the output: esbuild also lists the files it shook out.
      const [output] = Object.values(metafile.outputs);
      return Object.entries(output!.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([file]) => file.replace(/^.*node_modules\//, ''));
    };
    for (const conditions of [[], ['workerd', 'worker'], ['edge-light']]) {
      const files = await shipped('browser', conditions);
      expect(files.some((file) => file.startsWith('linkgate/dist/'))).toBe(true);
      expect(files).not.toContain('linkgate/dist/webhooks.node.js');
      expect(files).toContain('zod/v4/mini/schemas.js');
      expect(files).not.toContain('zod/v4/core/compile.js');
    }
    const forNode = await shipped('node');
    expect(forNode.some((file) => file.startsWith('linkgate/dist/'))).toBe(true);
    expect(forNode).toContain('zod/v4/core/compile.js');
  });
});

describe('a newcomer with the packed tarball and only the README', () => {
  const dir = () => (project as { dir: string }).dir;
  const skip = () => 'missing' in project;
  let mock: Running;
  let mockUrl: string;

  beforeAll(async () => {
    if (skip()) return;
    // `linkgate mock` through the bin the package installs, with a key and an online device for the messaging
    // snippet, as the README says under it.
    const ready = /listening on (http:\/\/\S+)/;
    const flags = [
      '--seed',
      'empty',
      '--admin-key',
      ADMIN_KEY,
      '--messaging-key',
      MESSAGING_KEY,
      '--device',
      'phone-1',
    ];
    mock = await start([binScript(dir(), 'linkgate'), 'mock', '--port', '0', ...flags], dir(), ready);
    mockUrl = ready.exec(mock.line)![1]!;
    for (const [name, text] of Object.entries(newcomerFiles(mockUrl))) writeFileSync(join(dir(), name), text);
  }, 30_000);
  afterAll(() => mock?.stop());

  it('quick start 1 calls the management API of the standalone mock', async (ctx) => {
    if (skip()) return ctx.skip();
    const run = await node(['quick-start-1.ts'], dir(), { LINKGATE_API_KEY: ADMIN_KEY });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toEqual(['https://go.example.com', 'no such QR code', '']);
  });

  it('the messaging snippet sends through the gateway API of the standalone mock', async (ctx) => {
    if (skip()) return ctx.skip();
    const run = await node(['messaging.ts'], dir(), { LINKGATE_MESSAGING_KEY: MESSAGING_KEY });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('sent\n');
  });

  it('the pagination snippet reads pages, iterates and collects', async (ctx) => {
    if (skip()) return ctx.skip();
    const run = await node(['pagination.ts'], dir(), { LINKGATE_API_KEY: ADMIN_KEY, LINKGATE_BASE_URL: mockUrl });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('2 0 0\n');
  });

  it('quick start 2 passes as a vitest suite with msw', async (ctx) => {
    if (skip()) return ctx.skip();
    const run = await node([binScript(dir(), 'vitest'), 'run', 'quick-start-2.test.ts'], dir());
    expect(run.stdout + run.stderr).toMatch(/1 passed/);
    expect(run.code).toBe(0);
  });

  it('quick start 3 acknowledges a signed delivery in the route handler, once', async (ctx) => {
    if (skip()) return ctx.skip();
    const run = await node(['deliver.ts'], dir(), { WEBHOOK_SECRET });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('200 200 ["15551234567 hello from the gateway"]\n');
  });

  it('quick start 3 serves the same handler on node:http', async (ctx) => {
    if (skip()) return ctx.skip();
    const server = await start(['server.ts'], dir(), /^listening \d+$/, { WEBHOOK_SECRET });
    try {
      const port = server.line.split(' ')[1]!;
      const run = await node(['post.ts'], dir(), { WEBHOOK_SECRET, RECEIVER_URL: `http://127.0.0.1:${port}/` });
      expect(run.stdout).toBe('200\n');
      expect(server.output()).toContain('hello from the gateway');
    } finally {
      server.stop();
    }
  });

  // A cold tsc over the snippets and the shipped types took over 20 s on a loaded 2-core machine.
  it('type-checks every snippet against the types the package ships, strictly', async (ctx) => {
    if (skip()) return ctx.skip();
    const run = await node([binScript(dir(), 'tsc'), '-p', '.'], dir());
    expect(run.stdout + run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, 60_000);

  it('loads every entry through require() too', async (ctx) => {
    if (skip()) return ctx.skip();
    const run = await node(['require.cjs'], dir());
    expect(run.stdout).toBe('linkgate object\nlinkgate/webhooks object\nlinkgate/mock object\n');
  });
});

/**
 * The newcomer's files: each README snippet as written, with only the origin, the port and a ready line adapted
 * (each adaptation fails loudly if the README changed under it), plus the small drivers that exercise them.
 */
function newcomerFiles(mockUrl: string): Record<string, string> {
  // The route snippet calls the app's own saveMessage and markDelivered; the newcomer's app defines them.
  const app =
    'export const seen: string[] = [];\n' +
    'const saveMessage = async (...args: unknown[]) => void seen.push(args.join(" "));\n' +
    'const markDelivered = (...args: unknown[]) => void seen.push(args.join(" "));\n';
  return {
    'quick-start-1.ts': adapt(readmeSnippet('1. Call the management API', 0), 'https://links.example.com', mockUrl),
    'messaging.ts': `${adapt(readmeSnippet('1. Call the management API', 1), 'https://gateway.example.com', mockUrl)}\nconsole.log('sent');\n`,
    'quick-start-2.test.ts': readmeSnippet('2. Test your app against the mock', 0),
    // The client comes from LINKGATE_API_KEY and LINKGATE_BASE_URL, as the README says it can.
    'pagination.ts': `import { Linkgate } from 'linkgate';\nconst client = new Linkgate();\n${readmeSnippet('Pagination', 0)}console.log(page.page, page.items.length, all.length);\n`,
    'route.ts': app + readmeSnippet('3. Receive webhooks', 0),
    'deliver.ts': deliverTwice('./route.ts'),
    'server.ts': adapt(
      readmeSnippet('3. Receive webhooks', 1),
      '.listen(3000);',
      ".listen(0, '127.0.0.1', function (this: import('node:net').Server) { console.log('listening', (this.address() as import('node:net').AddressInfo).port); });",
    ),
    'post.ts': postDelivery(),
    'require.cjs':
      "for (const entry of ['linkgate', 'linkgate/webhooks', 'linkgate/mock']) console.log(entry, typeof require(entry));\n",
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        types: ['node'],
      },
      include: ['*.ts'],
    }),
  };
}

const EVENT = `{
  event: 'message.received',
  device_id: 'dev-1',
  timestamp: Math.floor(Date.now() / 1000),
  data: {
    message_id: 'm1',
    sender: '15551234567',
    sender_jid: '15551234567@s.whatsapp.net',
    text: 'hello from the gateway',
    has_media: false,
    timestamp: Math.floor(Date.now() / 1000),
  },
} as const`;

/** A script that sends one signed delivery to the route's POST twice (a gateway retry) and prints what happened. */
function deliverTwice(route: string): string {
  return `import { createTestDelivery } from 'linkgate/webhooks';
import { POST, seen } from '${route}';

const delivery = createTestDelivery({ event: ${EVENT}, secret: process.env.WEBHOOK_SECRET! });
const first = await POST(delivery.request);
const retry = await POST(delivery.request);
console.log(first.status, retry.status, JSON.stringify(seen));
`;
}

/** A script that POSTs one signed delivery to `RECEIVER_URL` and prints the status. */
function postDelivery(): string {
  return `import { createTestDelivery } from 'linkgate/webhooks';

const { headers, body } = createTestDelivery({ event: ${EVENT}, secret: process.env.WEBHOOK_SECRET! });
const answer = await fetch(process.env.RECEIVER_URL!, { method: 'POST', headers, body });
console.log(answer.status);
`;
}

/**
 * A script that starts the mock with `startMockServer` (loaded through `import` or `require`), adds a QR code on its
 * management API, fetches the code's PNG and prints the two statuses, the image's type and its signature.
 */
function mockServerScript(load: 'import' | 'require'): string {
  const head =
    load === 'import'
      ? "import { startMockServer } from 'linkgate/mock';\n"
      : "const { startMockServer } = require('linkgate/mock');\n(async () => {\n";
  return `${head}const server = await startMockServer({ seed: 'empty' });
try {
  const add = await fetch(server.url + '/api/qr/add', {
    method: 'POST',
    headers: { authorization: 'Bearer ' + server.backend.adminKey, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'link', data: 'https://example.com' }),
  });
  const { link } = await add.json();
  const image = await fetch(new URL(new URL(link).pathname, server.url));
  const signature = new TextDecoder().decode((await image.bytes()).subarray(1, 4));
  console.log(add.status, image.status, image.headers.get('content-type'), signature);
} finally {
  await server.close();
}
${load === 'import' ? '' : '})();\n'}`;
}
