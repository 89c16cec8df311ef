// The agent tools' pure parts: the manifest declares exactly the specs the code validates against,
// inputs are checked against their schemas, outside text cannot escape its fence, answers stay
// bounded, and the key audit flags what it says it flags (and never a key string).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ANSWER_LIMIT, Answer, bounded, untrusted } from '../../../../src/core/agent/answer';
import { detectionsText, parseEventsText, pickEventsByVariable, searchText } from '../../../../src/core/agent/events';
import { auditKeyList, auditText, keysText } from '../../../../src/core/agent/keys';
import { checkText, describeField, describeFunction, listFields } from '../../../../src/core/agent/language';
import {
  EDITOR_TOOLS,
  LANGUAGE_TOOLS,
  MCP_FILE_TOOLS,
  ToolInputError,
  editorToolName,
  mcpToolName,
  validateInput,
} from '../../../../src/core/agent/specs';
import type { ApiKey } from '../../../../src/core/apikeys/types';

const ROOT = join(__dirname, '..', '..', '..', '..');
const byName = (name: string) => [...LANGUAGE_TOOLS, ...EDITOR_TOOLS, ...MCP_FILE_TOOLS].find((s) => s.name === name)!;

describe('agent tools: specs', () => {
  it('package.json declares every editor tool exactly as the specs say', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const declared = pkg.contributes.languageModelTools as Array<Record<string, unknown>>;
    const specs = [...LANGUAGE_TOOLS, ...EDITOR_TOOLS];
    assert.deepEqual(
      declared.map((t) => t.name),
      specs.map(editorToolName),
    );
    for (const [i, spec] of specs.entries()) {
      assert.equal(declared[i].modelDescription, spec.modelDescription);
      assert.equal(declared[i].displayName, spec.displayName);
      assert.deepEqual(declared[i].inputSchema, spec.inputSchema);
      assert.match(String(declared[i].name), /^[\w-]+$/);
    }
  });

  it('MCP names are snake_case and no service tool is offered over MCP', () => {
    assert.deepEqual([...LANGUAGE_TOOLS, ...MCP_FILE_TOOLS].map(mcpToolName), [
      'check',
      'format',
      'describe_field',
      'list_fields',
      'describe_function',
      'test_rule',
      'stats',
    ]);
    for (const spec of EDITOR_TOOLS) assert.ok(!MCP_FILE_TOOLS.some((m) => m.name === spec.name));
  });

  it('validates inputs and names the first problem', () => {
    assert.deepEqual(validateInput(byName('check'), { language: 'udm', text: 'x' }), { language: 'udm', text: 'x' });
    assert.throws(() => validateInput(byName('check'), { language: 'udm' }), /required property 'text'/);
    assert.throws(() => validateInput(byName('check'), null), ToolInputError);
    assert.throws(
      () => validateInput(byName('runSearch'), { query: 'x', timeRange: { preset: '2y' } }),
      ToolInputError,
    );
    assert.throws(
      () => validateInput(byName('runSearch'), { query: 'x', timeRange: { start: 'yesterday', end: 'now' } }),
      ToolInputError,
    );
    assert.throws(() => validateInput(byName('runSearch'), { query: 'x', timeRange: { preset: '1h' }, limit: 10_001 }));
    assert.throws(
      () => validateInput(byName('testRule'), { rule: 'r', ruleFile: 'a.yaral', eventsFile: 'e.json' }),
      /exactly one of "ruleFile" or "rule"/,
    );
    assert.throws(() => validateInput(byName('testRule'), { rule: 'r' }), /"eventsFile", "timeRange" or "testCase"/);
    assert.ok(validateInput(byName('testRule'), { ruleFile: 'r.yaral', testCase: 'fires' }));
    // A test case lies beside a rule file: with the rule's text there is no test file to read.
    assert.throws(() => validateInput(byName('testRule'), { rule: 'r', testCase: 'fires' }), ToolInputError);
    assert.throws(
      () => validateInput(byName('testRule'), { ruleFile: 'r.yaral', testCase: 'fires', eventsFile: 'e.json' }),
      ToolInputError,
    );
    assert.ok(validateInput(byName('testRule'), { rule: 'r', timeRange: { preset: '7d' } }));
    assert.throws(() => validateInput(byName('listModels'), { location: '../x' }), /"location" must match pattern/);
  });
});

describe('agent tools: answers', () => {
  it('untrusted text cannot close its fence, whatever it holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        const block = untrusted('x', s);
        const lines = block.split('\n');
        const fence = lines[1].replace(/text$/, '');
        assert.ok(/^`{3,}$/.test(fence));
        assert.equal(lines[lines.length - 1], fence);
        assert.ok(!lines.slice(2, -1).some((l) => l.startsWith(fence)), 'the fence appears inside');
      }),
    );
  });

  it('hidden characters are replaced and long text is cut', () => {
    const block = untrusted('x', `a\u202eb${String.fromCharCode(0)}c`.padEnd(10_000, 'z'), 100);
    assert.ok(!block.includes('\u202e') && !block.includes(String.fromCharCode(0)));
    assert.match(block, /more characters left out/);
  });

  it('an Answer stops at its limit and says so', () => {
    const a = new Answer(1000);
    let added = 0;
    while (a.add('x'.repeat(100))) added++;
    assert.ok(added < 10);
    assert.ok(a.text().length <= 1000);
    assert.match(a.text(), /cut at 1000 characters/);
    assert.ok(bounded('y'.repeat(ANSWER_LIMIT * 2)).length <= ANSWER_LIMIT);
  });

  it('search and detection summaries are bounded however many and large the events', () => {
    const huge = Array.from({ length: 5000 }, (_, i) => ({
      udm: { metadata: { eventType: `T${i % 300}` }, principal: { hostname: 'h'.repeat(10_000) } },
    }));
    const s = searchText({
      query: 'q',
      window: { start: 'a', end: 'b' },
      events: huge,
      moreDataAvailable: true,
      rows: 50,
      panelOpened: true,
    });
    assert.ok(s.length <= ANSWER_LIMIT, String(s.length));
    const d = detectionsText({
      ruleName: 'r',
      detections: Array.from({ length: 500 }, () => ({
        match: { host: 'x'.repeat(5000) },
        outcomes: {},
        windowStart: 0,
        windowEnd: 1,
        events: {},
      })),
      eventsRead: 1,
      source: 'f',
      notes: [],
    });
    assert.ok(d.length <= ANSWER_LIMIT, String(d.length));
  });

  it('reads events files as the results view saves them', () => {
    assert.equal(parseEventsText('[{"udm":{}},{"udm":{}}]').length, 2);
    assert.equal(parseEventsText('{"events":[{"udm":{}}],"moreDataAvailable":false}').length, 1);
    assert.equal(parseEventsText('{"a":1}\n{"b":2}\n').length, 2);
    assert.throws(() => parseEventsText('{"a":1}\nnot json'), /line 2 is not JSON/);
  });
});

describe('agent tools: the language service', () => {
  it('check gives positions and the replacement', () => {
    assert.match(
      checkText('udm', 'principal.hostnam = "x"'),
      /error 1:11-1:18 \[unknown-field\].*Replace with: "hostname"/,
    );
  });
  it('describes fields, sub-fields and functions, and suggests for typos', () => {
    assert.match(describeField('principal.ip'), /^principal\.ip: repeated string/);
    assert.match(describeField('network.dns.questions'), /Sub-fields/);
    assert.match(describeField('metadata.evnt_type'), /Did you mean metadata\.event_type\?/);
    assert.match(listFields('', 'metadata'), /- metadata: Metadata/);
    assert.match(describeFunction('count'), /count\(/);
    assert.match(describeFunction('strings.concatt'), /Did you mean strings\.concat/);
  });
});

describe('agent tools: the API key audit', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const keys: ApiKey[] = [
    {
      name: 'projects/p/locations/global/keys/open',
      displayName: 'open',
      createTime: '2025-12-30T00:00:00Z',
      keyString: 'AIzaSECRETSECRETSECRETSECRET',
    },
    {
      name: 'projects/p/locations/global/keys/tight',
      createTime: '2025-12-30T00:00:00Z',
      restrictions: {
        serverKeyRestrictions: { allowedIps: ['10.0.0.1'] },
        apiTargets: [{ service: 'maps.googleapis.com' }],
      },
    },
    {
      name: 'projects/p/locations/global/keys/old',
      createTime: '2024-01-01T00:00:00Z',
      restrictions: { browserKeyRestrictions: { allowedReferrers: ['x'] }, apiTargets: [{ service: 'a' }] },
    },
    { name: 'projects/p/locations/global/keys/deleted', deleteTime: '2025-12-31T00:00:00Z' },
    {
      name: 'projects/p/locations/global/keys/everyapi',
      createTime: '2025-12-30T00:00:00Z',
      restrictions: { iosKeyRestrictions: { allowedBundleIds: ['b'] } },
    },
  ];

  it('flags keys without application restriction, allowing every API, or older than the age', () => {
    const findings = auditKeyList(keys, 90, now);
    assert.deepEqual(
      findings.map((f) => [f.name.split('/').pop(), f.noApplicationRestriction, f.allowsEveryApi, f.old]),
      [
        ['open', true, true, false],
        ['old', false, false, true],
        ['everyapi', false, true, false],
      ],
    );
    assert.equal(findings.find((f) => f.name.endsWith('old'))?.ageDays, 731);
  });

  it('never shows a key string', () => {
    const texts = [keysText(keys, 'p', false), auditText(auditKeyList(keys, 90, now), 4, 90, 'p')];
    for (const t of texts) assert.doesNotMatch(t, /AIza/);
  });
});

describe('agent tools: a rule over saved events', () => {
  it('picks search results ({name, udm}) and bare UDM events alike', () => {
    const rule = `rule r {
  meta:
    author = "t"
  events:
    $e.metadata.event_type = "NETWORK_CONNECTION"
  condition:
    $e
}`;
    const udm = { metadata: { eventType: 'NETWORK_CONNECTION' } };
    const picked = pickEventsByVariable(rule, [
      { name: 'a', udm },
      udm,
      { udm: { metadata: { eventType: 'USER_LOGIN' } } },
    ]);
    assert.equal(picked.get('e')?.length, 2);
  });
});
