// The OpenAPI document as other people's tools read it: Redocly CLI's `lint` with its recommended rules (what users
// run before feeding the document to a code generator or Postman) finds no error and no warning, in the document the
// standalone mock serves and in the committed docs/openapi.json. The CLI runs as its own process, as users run it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMockBackend, startMockServer } from 'linkgate/mock';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../mock/openapi/openapi-document.js';
import { OpenApiValidator } from '../support/openapi-validator.js';

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const COMMITTED = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));
const TOKEN = 'ctl-openapi-lint';
// An empty folder to run in, so no redocly.yaml of the checkout or a parent changes the rules.
const workDir = mkdtempSync(join(tmpdir(), 'linkgate-redocly-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Sends a GET declaring a body of `bytes` (none follows): the server answers from the headers alone. */
function getWithDeclaredBody(url: string, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { 'content-length': String(bytes) } }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => {
        // The declared body never follows: drop the connection rather than leave the server waiting for it.
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

/** Runs `redocly lint <file> --extends recommended --format json` and returns its problems, one line each. */
function redoclyLint(file: string): Promise<{ code: number | null; problems: string[]; output: string }> {
  const args = [REDOCLY, 'lint', file, '--extends', 'recommended', '--format', 'json'];
  // No telemetry or update check leaves this machine.
  const env = { ...process.env, NODE_OPTIONS: '', REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: workDir, env, timeout: 50_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      const output = `exit ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}`;
      const start = stdout.indexOf('{');
      if (start < 0) return reject(new Error(`redocly printed no JSON report\n${output}`));
      const report = JSON.parse(stdout.slice(start)) as { problems: LintProblem[] };
      const problems = report.problems.map(
        (p) => `${p.severity} ${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`,
      );
      resolve({ code, problems, output });
    });
  });
}

describe("Redocly CLI's recommended rules on the OpenAPI document", () => {
  it('find no error and no warning in the document the standalone mock serves at /openapi.json', async () => {
    const server = await startMockServer({ port: 0, host: '127.0.0.1' });
    let served: string;
    try {
      served = await (await fetch(`${server.url}/openapi.json`)).text();
    } finally {
      await server.close();
    }
    const file = join(workDir, 'served-openapi.json');
    writeFileSync(file, served);
    const lint = await redoclyLint(file);
    expect(lint.problems, lint.output).toEqual([]);
    expect(lint.code, lint.output).toBe(0);
  }, 60_000);

  it('find no error and no warning in the committed docs/openapi.json', async () => {
    const lint = await redoclyLint(COMMITTED);
    expect(lint.problems, lint.output).toEqual([]);
    expect(lint.code, lint.output).toBe(0);
  }, 60_000);
});

describe('what the lint-clean document says is what the mock does', () => {
  const doc = buildOpenApiDocument();
  const validator = new OpenApiValidator(doc);

  it('documents the control index as /__mock, and the mock answers it with and without the trailing slash', async () => {
    expect(Object.keys(doc.paths)).toContain('/__mock');
    expect(Object.keys(doc.paths)).not.toContain('/__mock/');
    const backend = createMockBackend({ gateway: { controlToken: TOKEN } });
    const pointer = validator.responsePointer(validator.match('GET', '/__mock')!, 'GET', 200)!;
    for (const path of ['/__mock', '/__mock/']) {
      const res = await backend.fetch(path, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status, path).toBe(200);
      expect(validator.check(pointer, await res.json()), path).toEqual([]);
    }
  });

  it('says which endpoints need no credentials (security: []) and which need which', () => {
    const security = (path: string, method = 'get') =>
      (doc.paths[path]?.[method] as { security?: unknown } | undefined)?.security;
    for (const path of ['/api/qr/image/{token}.png', '/__mock/media/tmp/{id}/{file}', '/openapi.json', '/']) {
      expect(security(path), path).toEqual([]);
    }
    expect(security('/__mock')).toEqual([{ controlToken: [] }]);
    expect(security('/api/domains')).toEqual([{ apiKey: [] }]);
    for (const item of Object.values(doc.webhooks)) {
      expect((item.post as { security: unknown }).security).toEqual([{ webhookSecret: [] }]);
    }
    expect(doc.components.securitySchemes.webhookSecret).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Service-Secret',
    });
  });

  it('serves the QR image at /api/qr/image/{token}.png, and answers 404 for a file that is not a token', async () => {
    const backend = createMockBackend({ seed: 'demo' });
    const qr = (await (
      await backend.fetch('/api/qr/add', {
        method: 'POST',
        headers: { authorization: `Bearer ${backend.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'link', data: 'https://example.com' }),
      })
    ).json()) as { link: string };
    const path = new URL(qr.link).pathname;
    expect(validator.match('GET', path)?.template).toBe('/api/qr/image/{token}.png');
    const image = await backend.fetch(path);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const missing = await backend.fetch('/api/qr/image/update');
    expect(missing.status).toBe(404);
    const notFound = validator.responsePointer(
      {
        template: '/api/qr/image/{token}.png',
        operation: doc.paths['/api/qr/image/{token}.png']!.get as Record<string, unknown>,
      },
      'GET',
      404,
    )!;
    expect(validator.check(notFound, await missing.json())).toEqual([]);
  });

  it('answers the documented 4xx of the document and the inspector page', async () => {
    const inProcess = createMockBackend();
    const page = await inProcess.fetch('/');
    expect(page.status).toBe(404);
    const pagePointer = validator.responsePointer(validator.match('GET', '/')!, 'GET', 404)!;
    expect(validator.check(pagePointer, await page.json())).toEqual([]);

    const server = await startMockServer({ port: 0, host: '127.0.0.1' });
    try {
      const answer = await getWithDeclaredBody(`${server.url}/openapi.json`, 2 * 1024 * 1024);
      expect(answer.status).toBe(413);
      const pointer = validator.responsePointer(validator.match('GET', '/openapi.json')!, 'GET', 413)!;
      expect(validator.check(pointer, JSON.parse(answer.body))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
