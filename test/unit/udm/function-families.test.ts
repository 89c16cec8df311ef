import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { AGGREGATE_NAMES } from '../../../src/udm/ast';
import {
  AGGREGATES,
  FAMILIES,
  FUNCTIONS,
  RENAMED_FUNCTIONS,
  findFunction,
  type Family,
} from '../../../src/udm/functions';
import { defineFamily, fn, rulesOnly } from '../../../src/udm/functions/types';
import { AGGREGATE_NAMES as PLAN_AGGREGATE_NAMES } from '../../../src/udm/stats/plan';

/**
 * The layout of src/udm/functions: one module per function family holds the family's signatures,
 * argument checks and evaluation, and index.ts registers every family module. These tests keep it
 * so: a function catalogued in one module and evaluated in another, a family module the index
 * forgot, or a search function without an evaluation fails here.
 */
const DIR = join(__dirname, '../../../src/udm/functions');
/** Modules of the folder that are no family: the registry, shared types and value readers, aggregates. */
const NOT_FAMILIES = new Set(['index', 'types', 'values', 'aggregates']);

const familyFiles = readdirSync(DIR)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3))
  .filter((f) => !NOT_FAMILIES.has(f))
  .sort();

const load = createRequire(__filename);

/** The Family objects a module exports (the same module instances the index imports). */
function familiesOf(file: string): Family[] {
  const mod = load(join(DIR, file)) as Record<string, unknown>;
  return Object.values(mod).filter(
    (v): v is Family => !!v && typeof v === 'object' && 'functions' in v && 'renamed' in v && 'name' in v,
  );
}

const namespaceOf = (name: string): string => (name.includes('.') ? name.split('.')[0] : name);

describe('UDM function families: one module per family, one registry', () => {
  it('has a module for every family of the reference, each registered once in the index', () => {
    assert.deepEqual(familyFiles, [
      'arrays',
      'bytes',
      'cast',
      'group',
      'hash',
      'math',
      'metrics',
      'net',
      'optimization',
      're',
      'strings',
      'timestamp',
      'window',
    ]);
    assert.deepEqual(
      FAMILIES.map((f) => f.name),
      familyFiles,
    );
  });

  for (const file of familyFiles) {
    it(`${file}.ts declares the ${file} family alone, and the index registers that very family`, () => {
      const exported = familiesOf(file);
      assert.equal(exported.length, 1, `${file}.ts exports ${exported.length} families`);
      const [family] = exported;
      assert.equal(family.name, file);
      assert.ok(FAMILIES.includes(family), `the index registers another ${file} family than ${file}.ts declares`);
      assert.ok(family.functions.length > 0);
      for (const f of family.functions) {
        assert.equal(namespaceOf(f.name), file, `${f.name} is declared in ${file}.ts`);
        assert.equal(f.family, file);
      }
      for (const [wrong, right] of Object.entries(family.renamed)) {
        assert.equal(namespaceOf(wrong), file, `the misspelling ${wrong} belongs to another family`);
        assert.equal(findFunction(wrong), undefined, `${wrong} is a function and a misspelling`);
        assert.ok(findFunction(right)?.search, `${wrong} points at ${right}, which is no search function`);
      }
    });
  }

  it('evaluates every search function in its family module, and nothing else', () => {
    const searchWithout = FUNCTIONS.filter((f) => f.search && !f.evaluates).map((f) => f.name);
    const rulesWith = FUNCTIONS.filter((f) => !f.search && f.evaluates).map((f) => f.name);
    assert.deepEqual(searchWithout, [], 'search functions without an evaluation');
    // Only a rule function known from Google's own rules evaluates (Test Rule computes it); the
    // documented Rules-only functions need SecOps (metrics, hashes of its own) and have none.
    assert.deepEqual(
      rulesWith,
      FUNCTIONS.filter((f) => !f.documented).map((f) => f.name),
      'Rules-only functions with an evaluation',
    );
    assert.equal(findFunction('strings.starts_with')?.impl(['c:\\windows\\x', 'c:\\windows']), true);
    assert.equal(findFunction('strings.starts_with')?.impl(['xc:\\windows', 'c:\\windows']), false);
    // The evaluation is the one its family module declares: calling it gives a value.
    assert.equal(findFunction('strings.to_upper')?.impl(['abc']), 'ABC');
    assert.equal(findFunction('hash.sha256')?.impl(['']), undefined);
  });

  it('names every function once, across families', () => {
    const names = FUNCTIONS.map((f) => f.name);
    assert.equal(new Set(names).size, names.length);
    assert.equal(
      Object.keys(RENAMED_FUNCTIONS).length,
      FAMILIES.map((f) => Object.keys(f.renamed).length).reduce((a, b) => a + b),
    );
  });

  it('gives every aggregate of outcome: a signature and an accumulator, as the parser and the engine name them', () => {
    // One list of names (the parser's); the statistics plan uses that very list, the catalogue follows it.
    assert.equal(PLAN_AGGREGATE_NAMES, AGGREGATE_NAMES);
    assert.deepEqual(
      AGGREGATES.map((a) => a.name),
      AGGREGATE_NAMES,
    );
    for (const a of AGGREGATES) {
      const acc = a.accumulator();
      acc.add(3);
      acc.add(5);
      assert.notEqual(acc.result(), undefined, a.name);
      assert.notEqual(a.accumulator(), acc, `${a.name} shares one accumulator between groups`);
    }
  });

  it('declares a function from its signature as the functions page writes it', () => {
    const [join, concat, sha] = defineFamily('demo', [
      fn('demo.join(list: ARRAY_STRINGS, delimiter?: STRING): STRING', 'demo.join(["a"], ",") = "a"', ([l]) => l, {
        where: 'Search',
        notes: 'a note',
      }),
      fn('demo.concat(a: STRING|INT, ...): STRING', 'demo.concat("a", 1) = "a1"', (args) => args.join('')),
      rulesOnly('demo.sha(): STRING', 'demo.sha() = ""'),
    ]).functions;
    assert.deepEqual(
      join.params.map((p) => [p.name, p.type, p.googleType, p.optional ?? false]),
      [
        ['list', 'array', 'ARRAY_STRINGS', false],
        ['delimiter', 'string', 'STRING', true],
      ],
    );
    assert.deepEqual(
      [join.returns, join.where, join.search, join.doc, join.evaluates],
      ['string', 'Search', true, 'a note', true],
    );
    assert.deepEqual(
      concat.params.map((p) => [p.name, p.type, p.googleType]),
      [['a', 'any', 'STRING|INT']],
    );
    assert.equal(concat.variadic, true);
    assert.equal(concat.where, 'Search, Rules');
    assert.equal(concat.impl(['a', 1]), 'a1');
    assert.deepEqual([sha.params, sha.where, sha.search, sha.evaluates], [[], 'Rules only', false, false]);
    assert.throws(() => fn('demo.broken(a STRING)', ''), /Not a function signature: demo\.broken/);
    assert.throws(() => fn('demo.broken(a STRING): INT', ''), /Not a parameter \(name: TYPE\): a STRING/);
  });
});
