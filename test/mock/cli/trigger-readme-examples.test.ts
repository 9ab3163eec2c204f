// The README's and the webhooks guide's `linkgate trigger` and `createTestDelivery` examples, run as written: each
// command line read from the docs is run as the CLI in its own process against the node:http receiver example in
// another (only the receiver's URL and secret are filled in), and each createTestDelivery block in its own `node`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeRun, root, runCli, runProgram, spawnNode } from '../../e2e/support/processes.js';
import { readmeSnippet } from '../../package/support/newcomer-project.js';

const SECRET = 'whsec_live_7a3e0c9b1d2f4a6b8c0d1e2f3a4b5c6d';
const DOCS = ['README.md', 'docs/guides/webhooks.md'];
const GUIDE = 'docs/guides/webhooks.md';

/** Every `npx linkgate trigger …` command in `file`, in code blocks or inline, without its trailing `# comment`. */
function triggerCommands(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:^|`)npx linkgate trigger ([^`\n]*)/gm)].map((m) =>
    (m[1] as string).replace(/\s+#.*$/, '').trim(),
  );
}

/** The command's arguments as a shell passes them, with the receiver's URL and secret where the docs have theirs. */
function argsOf(command: string, url: string): string[] {
  const args = command.split(/\s+/).map((word) => word.replace(/^"(.*)"$/, '$1'));
  return args.map((arg, i) => {
    if (arg === '$WEBHOOK_SECRET' || arg === '$S') return SECRET;
    if (args[i - 1] === '--to') return url;
    return arg;
  });
}

describe("the docs' linkgate trigger examples, each as a user runs it against the node:http receiver example", () => {
  const commands = DOCS.flatMap((file) => triggerCommands(file).map((command) => ({ file, command })));

  it('finds the examples, the README showing a receipt marked read with one --set', () => {
    expect(commands.map((c) => c.command)).toContain(
      'message.ack --set data.status=read --to http://localhost:3000/webhooks --secret "$WEBHOOK_SECRET"',
    );
    expect(commands.filter((c) => c.file === GUIDE).length).toBeGreaterThanOrEqual(8);
  });

  it('every command exits 0: the receiver answered each delivery as the gateway expects', async () => {
    const receiver = spawnNode(['examples/webhook-receiver-node.ts'], { env: { PORT: '0', WEBHOOK_SECRET: SECRET } });
    const [, url] = await receiver.printed(/listening for webhooks on (http:\/\/127\.0\.0\.1:\d+\/webhooks)/);
    for (const { file, command } of commands) {
      const run = await runCli(['trigger', ...argsOf(command, url as string)], { timeoutMs: 30_000 });
      expect(run.code, `${file}: npx linkgate trigger ${command}\n${describeRun(run)}`).toBe(0);
      expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
      if (command.startsWith('message.ack --set data.status=read ')) {
        expect(run.stdout).toContain(
          '  matched  data.status_code=3 to agree with --set data.status (set both to choose both)',
        );
        const id = /"message_id":"(3EB0[0-9A-F]{16})"/.exec(run.stdout)?.[1];
        await receiver.printed(new RegExp(`^device-1: ${id} is read$`, 'm'));
      }
    }
  }, 240_000);
});

describe("the docs' createTestDelivery examples, each run in its own node process", () => {
  it("the README's: the route handler answers the receipt marked read with 200, status_code 3 to match", async () => {
    const route = readmeSnippet('3. Receive webhooks', 0);
    const example = readmeSnippet('3. Receive webhooks', 2);
    expect(example).toContain("set: { 'data.status': 'read' }");
    const source = `const saveMessage = async (sender: string, text?: string) => {};
const markDelivered = (id: string, status: string) => console.log('marked ' + id + ' ' + status);
${route}
${example}
console.log('answer ' + response.status + ' ' + JSON.stringify(delivery.payload.data) + ' ' + JSON.stringify(delivery.paired));
`;
    const run = await runProgram({ source }, { env: { WEBHOOK_SECRET: SECRET } });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toMatch(/^marked 3EB0[0-9A-F]{16} read$/m);
    expect(run.stdout).toMatch(/^answer 200 \{.*"status":"read","status_code":3,/m);
    expect(run.stdout).toContain('[{"path":"data.status_code","value":3,"matches":"data.status"}]');
  });

  it("the guide's: a receipt marked read with one override, and a broken one built on purpose", async () => {
    const example = readmeSnippet('Testing a receiver', 1, GUIDE);
    const source = `${example}
console.log(JSON.stringify(read.payload.data), broken.issues.map((i) => i.path.join('.')).join());
`;
    const run = await runProgram({ source });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toMatch(/"status":"read","status_code":3,.* data\.status_code/);
  });
});
