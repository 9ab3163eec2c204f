// `linkgate trigger`'s command line, run in-process: every mistake is refused with exit code 2 before anything is
// sent (the receiver URL below has nothing listening, so a delivery sent by mistake would fail with exit code 1).
import { describe, expect, it } from 'vitest';
import { runTrigger } from '../../../mock/cli/trigger-command.js';
import { TRIGGER_HELP } from '../../../mock/cli/trigger-options.js';

const SECRET = 'whsec_live_0123456789abcdef0123456789abcdef';
const NOWHERE = 'http://127.0.0.1:9/webhooks';

async function trigger(args: string[], env: Record<string, string | undefined> = {}) {
  let out = '';
  let err = '';
  const toOut = (text: string) => {
    out += text;
  };
  const toErr = (text: string) => {
    err += text;
  };
  const code = await runTrigger(args, { out: toOut, err: toErr, env });
  return { code, out, err };
}

/** Sends `args` with --json to NOWHERE (nothing listens: exit 1 once sent) and returns the delivery it reports. */
async function sentDelivery(args: string[]) {
  const run = await trigger([...args, '--to', NOWHERE, '--secret', SECRET, '--timeout', '2s', '--json']);
  return JSON.parse(run.out).deliveries[0];
}

describe('linkgate trigger refuses a wrong command line with exit code 2, naming the flag and the rule', () => {
  it.each([
    [['--to', NOWHERE, '--secret', SECRET], /No event given; pass one of message\.received, .*, or --all/],
    [['message.read', '--to', NOWHERE, '--secret', SECRET], /Unknown event "message\.read"; the events are/],
    [['message.ack', '--secret', SECRET], /--to is required: the receiver's URL/],
    [['message.ack', '--to', 'localhost:3000', '--secret', SECRET], /--to must be an http:\/\/ or https:\/\/ URL/],
    [['message.ack', '--to', 'not a url', '--secret', SECRET], /--to must be a full http:\/\/ or https:\/\/ URL/],
    [['message.ack', '--to', NOWHERE], /--secret is required: .* or set WEBHOOK_SECRET/],
    [
      ['message.ack', '--to', NOWHERE, '--secret', SECRET, '--bogus'],
      /Unknown option --bogus; the options of trigger are --to, --secret, --set/,
    ],
    [['message.ack', 'extra', '--to', NOWHERE, '--secret', SECRET], /Unexpected argument "extra"/],
    [['message.ack', '--all', '--to', NOWHERE, '--secret', SECRET], /Pass an event or --all, not both/],
    [['--all', '--set', 'device_id=x', '--to', NOWHERE, '--secret', SECRET], /--set changes one event's payload/],
    [['--all', '--unset', 'data.text', '--to', NOWHERE, '--secret', SECRET], /--unset changes one event's payload/],
    [['--all', '--delivery-id', 'd1', '--to', NOWHERE, '--secret', SECRET], /--delivery-id names one delivery/],
    [
      ['message.ack', '--stale', '--duplicate', '--to', NOWHERE, '--secret', SECRET],
      /--duplicate and --stale each send their own kind/,
    ],
    [
      ['message.ack', '--timeout', '0', '--to', NOWHERE, '--secret', SECRET],
      /--timeout must be a time from 1ms to 600s/,
    ],
    [['message.ack', '--timeout', '2m', '--to', NOWHERE, '--secret', SECRET], /--timeout must be .*got "2m"/],
    [
      ['message.ack', '--device', 'front desk', '--to', NOWHERE, '--secret', SECRET],
      /--device must be 1-200 visible characters/,
    ],
    [
      ['message.ack', '--set', 'data.status', '--to', NOWHERE, '--secret', SECRET],
      /--set takes path=value, e\.g\. --set data\.status=read; got "data\.status"/,
    ],
    [
      ['message.ack', '--set', '__proto__.x=1', '--to', NOWHERE, '--secret', SECRET],
      /--set __proto__\.x: the path must be field names/,
    ],
    [
      ['message.ack', '--set', 'data.status.x=1', '--to', NOWHERE, '--secret', SECRET],
      /--set data\.status\.x: data\.status is a string, so it has no field "x"/,
    ],
    [
      ['message.received', '--unset', 'data..text', '--to', NOWHERE, '--secret', SECRET],
      /--unset data\.\.text: the path must be field names separated by single dots/,
    ],
    [
      ['message.received', '--unset', 'data.text.x', '--to', NOWHERE, '--secret', SECRET],
      /--unset data\.text\.x: data\.text is a string, so it has no field "x"/,
    ],
    [
      ['message.received', '--unset', 'data.txt', '--to', NOWHERE, '--secret', SECRET],
      /--unset makes the message\.received payload invalid: data\.txt: "txt" is not a field of data/,
    ],
  ])('refuses %j', async (args, message) => {
    const run = await trigger(args);
    expect(run.err).toMatch(message);
    expect(run.err).toContain('Run "linkgate trigger --help" for usage.');
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
  });

  it('sets a field that must agree with the one --set changed, and says so; both set are sent as given', async () => {
    const read = await sentDelivery(['message.ack', '--set', 'data.status=read']);
    expect(read).toMatchObject({
      check: 'delivery',
      issues: [],
      payload: { data: { status: 'read', status_code: 3 } },
    });
    expect(read.paired).toEqual([{ path: 'data.status_code', value: 3, matches: 'data.status' }]);
    const lines = await trigger(['message.ack', '--set', 'data.status_code=2', '--to', NOWHERE, '--secret', SECRET]);
    expect(lines.out).toContain(
      '  matched  data.status="delivered" to agree with --set data.status_code (set both to choose both)',
    );
    const both = await sentDelivery([
      'message.ack',
      '--set',
      'data.status=read',
      '--set',
      'data.status_code=2',
      '--allow-invalid',
    ]);
    expect(both).toMatchObject({ check: 'invalid', paired: [], payload: { data: { status: 'read', status_code: 2 } } });
  });

  it('refuses an override that makes the payload invalid, naming the field and the rule, and says how to send it anyway', async () => {
    const run = await trigger([
      'message.ack',
      '--set',
      'data.status=read',
      '--set',
      'data.status_code=2',
      '--to',
      NOWHERE,
      '--secret',
      SECRET,
    ]);
    expect(run.code).toBe(2);
    expect(run.err).toContain(
      'linkgate: --set makes the message.ack payload invalid: data.status_code: status_code must match status (1 sent, 2 delivered, 3 read, 4 played). Fix the value, or pass --allow-invalid',
    );
  });

  it('refuses a misspelt field instead of adding a field every receiver ignores', async () => {
    const run = await trigger(['message.ack', '--set', 'data.stauts=read', '--to', NOWHERE, '--secret', SECRET]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/data\.stauts: "stauts" is not a field of data; its fields are message_id, chat_jid/);
  });

  it('sends a field the schema does not know with --allow-invalid as a delivery to acknowledge, since receivers must accept it', async () => {
    const refused = await trigger(['message.ack', '--set', 'data.reaction=👍', '--to', NOWHERE, '--secret', SECRET]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      'pass --allow-invalid to add the field anyway (receivers must accept fields they do not know)',
    );
    const delivery = await sentDelivery(['message.ack', '--set', 'data.reaction=👍', '--allow-invalid']);
    expect(delivery).toMatchObject({
      check: 'delivery',
      expected: 'acknowledged',
      payload: { data: { reaction: '👍' } },
    });
    expect(delivery.issues).toEqual([expect.stringMatching(/^data\.reaction: "reaction" is not a field of data/)]);
  });

  it('refuses removing a required field, naming it, and says how to send it anyway', async () => {
    const run = await trigger(['message.received', '--unset', 'data.sender', '--to', NOWHERE, '--secret', SECRET]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(
      /--unset makes the message\.received payload invalid: data\.sender: is required\. Keep the field, or pass --allow-invalid to send it anyway/,
    );
    const both = await trigger([
      'message.ack',
      '--set',
      'data.status=read',
      '--unset',
      'data.chat_jid',
      '--to',
      NOWHERE,
      '--secret',
      SECRET,
    ]);
    expect(both.err).toMatch(/--set and --unset make the message\.ack payload invalid: .*data\.chat_jid/);
  });

  it('removes fields with --unset: an optional one leaves a delivery to acknowledge, a required one (with --allow-invalid) one to refuse', async () => {
    const textless = await sentDelivery(['message.received', '--unset', 'data.text']);
    expect(textless).toMatchObject({ check: 'delivery', expected: 'acknowledged', issues: [] });
    expect(textless.payload.data).not.toHaveProperty('text');
    expect(textless.payload.data.sender).toEqual(expect.any(String));
    const senderless = await sentDelivery(['message.received', '--unset', 'data.sender', '--allow-invalid']);
    expect(senderless).toMatchObject({ check: 'invalid', expected: 'refused' });
    expect(senderless.payload.data).not.toHaveProperty('sender');
    expect(senderless.issues).toEqual([expect.stringMatching(/^data\.sender: /)]);
  });

  it('names the rule of a bad secret without printing the secret', async () => {
    const run = await trigger(['message.ack', '--to', NOWHERE], { WEBHOOK_SECRET: 'whsec_live_ has spaces' });
    expect(run.code).toBe(2);
    expect(run.err).toContain('WEBHOOK_SECRET must be 1-200 visible characters without spaces');
    expect(run.err).not.toContain('has spaces');
  });

  it('prints its help with every flag and exit code 0', async () => {
    const run = await trigger(['--help']);
    expect(run.code).toBe(0);
    expect(run.out).toBe(TRIGGER_HELP);
    for (const flag of [
      '--to',
      '--secret',
      '--set',
      '--unset',
      '--device',
      '--delivery-id',
      '--duplicate',
      '--stale',
      '--wrong-secret',
      '--all',
      '--allow-invalid',
      '--timeout',
      '--json',
    ]) {
      expect(TRIGGER_HELP).toContain(`  ${flag}`);
    }
  });
});

describe('linkgate trigger reads --set values as JSON, and as text where the schema wants text', () => {
  it('keeps digits typed for a text field as text, and sends to the receiver (nothing listens: exit 1)', async () => {
    const run = await trigger([
      'message.received',
      '--set',
      'data.sender=628111222333',
      '--set',
      'data.has_media=false',
      '--set',
      'data.push_name="Budi"',
      '--to',
      NOWHERE,
      '--secret',
      SECRET,
      '--timeout',
      '2s',
      '--json',
    ]);
    const report = JSON.parse(run.out);
    expect(report.deliveries[0].payload.data).toMatchObject({
      sender: '628111222333',
      has_media: false,
      push_name: 'Budi',
    });
    expect(report.deliveries[0].answers[0]).toMatchObject({ status: null });
    expect(run.code).toBe(1);
  });
});
