import type {
  AssignExpr,
  CallNode,
  CompareExpr,
  Expr,
  FieldNode,
  NumberNode,
  Operand,
  OutcomeItem,
  Query,
  Section,
  SectionsByKind,
  VariableNode,
} from './ast';
import { AGGREGATE_NAMES, SECTION_ORDER, isAggregateCall, isIfCall } from './ast';
import {
  FUNCTIONS,
  RENAMED_FUNCTIONS,
  findAggregate,
  findFunction,
  groupFunctionOf,
  parseCidr,
  type ArgType,
} from './functions';
import type { RawDiagnostic } from './parser';
import { DOCUMENTED_KEYWORDS } from './vocabulary';
import type { KnownReferenceLists } from './reference-lists';
import { findRe2Problem, sourceOffsetInLiteral } from './regex';
import {
  childFields,
  enumHas,
  enumName,
  enumValues,
  pathsThroughChild,
  resolvePath,
  suggest,
  typeLabel,
  valueKind,
  type FieldInfo,
  type ResolvedPath,
  type ValueKind,
} from './schema';

/** What the checker learnt about a field path; the evaluator and the editor features use it. */
export interface FieldFacts {
  /** resolved fields, one per segment (a leading `udm.` is dropped) */
  fields: FieldInfo[];
  /** snake_case segments without a leading `udm` */
  path: string[];
  /** the path joined with dots */
  key: string;
  kind: ValueKind;
  type: string;
  /** true when any segment on the path is repeated */
  repeated: boolean;
  /** true when the path could not be resolved against the schema */
  unknown: boolean;
}

export interface CheckResult {
  diagnostics: RawDiagnostic[];
  facts: Map<FieldNode, FieldFacts>;
  placeholders: Map<string, AssignExpr>;
  sectionsByKind: SectionsByKind;
}

export interface CheckOptions {
  /** Lists with their entries (the sandbox's store): an unknown name is an error, entries are checked. */
  referenceLists?: Record<string, string[]>;
  /**
   * What the editor knows of the lists (names, types, sizes), as the server listed them: an unknown
   * name is an error, as the server refuses a query naming a list the instance does not have.
   */
  knownLists?: KnownReferenceLists;
  /** The lists could not be loaded (why): `knownLists` may be out of date, an unknown name is a warning. */
  listsUnavailable?: string;
  /** The document text, so a problem inside a literal (an RE2 error) points at its place. */
  text?: string;
}

/** Documented cap of udmSearch results. */
export const MAX_LIMIT = 10000;

export function check(query: Query, options: CheckOptions = {}): CheckResult {
  return new Checker(options).run(query);
}

interface SharedResolution {
  facts: FieldFacts;
  r: ResolvedPath;
  anyDeprecated: boolean;
}

/**
 * The schema never changes, so resolutions are shared by every node (and document) with the same
 * path. A trie keyed by segment name finds them without building the dotted path per node.
 */
interface ResolutionNode {
  resolution?: SharedResolution;
  children?: Map<string, ResolutionNode>;
}
let resolutionRoot: ResolutionNode = {};
let resolutionCount = 0;
const RESOLUTION_CACHE_SIZE = 20000;

function resolveShared(node: FieldNode): SharedResolution {
  const segs = node.segments;
  const first = segs[0]?.name === 'udm' && segs.length > 1 ? 1 : 0;
  let at = resolutionRoot;
  for (let i = first; i < segs.length; i++) {
    const name = segs[i].name;
    let child = at.children?.get(name);
    if (!child) {
      child = {};
      (at.children ??= new Map()).set(name, child);
    }
    at = child;
  }
  if (at.resolution) return at.resolution;
  const path = fieldPathOf(node);
  const r = resolvePath(path);
  const last = r.fields[r.fields.length - 1];
  const facts: FieldFacts = {
    fields: r.fields,
    path,
    key: path.join('.'),
    kind: r.freeForm || r.errorIndex >= 0 ? 'unknown' : last ? valueKind(last.type) : 'message',
    type: last ? last.type : 'm:UDM',
    repeated: r.fields.some((f) => f.repeated),
    unknown: r.errorIndex >= 0,
  };
  const shared = { facts, r, anyDeprecated: r.fields.some((f) => f.deprecated) };
  if (resolutionCount >= RESOLUTION_CACHE_SIZE) {
    // Unbounded input (fuzzing, pasted garbage) must not grow the cache forever; start over.
    resolutionRoot = {};
    resolutionCount = 0;
    return shared;
  }
  resolutionCount++;
  at.resolution = shared;
  return shared;
}

export function fieldPathOf(node: FieldNode): string[] {
  const names = node.segments.map((s) => s.name);
  return names.length > 1 && names[0] === 'udm' ? names.slice(1) : names;
}

class Checker {
  private readonly diagnostics: RawDiagnostic[] = [];
  private readonly facts = new Map<FieldNode, FieldFacts>();
  private readonly placeholders = new Map<string, AssignExpr>();

  constructor(private readonly options: CheckOptions) {}

  run(query: Query): CheckResult {
    if (query.filter) {
      this.collectPlaceholders(query.filter);
      this.collectRightPlaceholders(query.filter);
      this.visit(query.filter);
      this.findContradictions(query.filter);
    }
    const sectionsByKind = this.checkSections(query.sections);
    return { diagnostics: this.diagnostics, facts: this.facts, placeholders: this.placeholders, sectionsByKind };
  }

  private report(
    severity: RawDiagnostic['severity'],
    message: string,
    start: number,
    end: number,
    code?: string,
    data?: unknown,
  ): void {
    const d: RawDiagnostic = { message, severity, start, end };
    if (code) d.code = code;
    if (data !== undefined) d.data = data;
    this.diagnostics.push(d);
  }

  /**
   * `target.user.userid = $userid` defines $userid as `$userid = target.user.userid` does (a
   * placeholder may stand on either side), unless it is defined elsewhere: then it compares.
   */
  private collectRightPlaceholders(e: Expr): void {
    if (e.type === 'and' || e.type === 'or') {
      for (const i of e.items) this.collectRightPlaceholders(i);
    } else if (e.type === 'not') this.collectRightPlaceholders(e.expr);
    else if (
      e.type === 'compare' &&
      e.op === '=' &&
      e.right?.type === 'variable' &&
      !e.nocase &&
      !e.quantifier &&
      (e.left.type === 'field' || e.left.type === 'call' || e.left.type === 'arith') &&
      !this.placeholders.has(e.right.name)
    ) {
      this.checkVariableName(e.right);
      this.placeholders.set(e.right.name, {
        type: 'assign',
        variable: e.right,
        value: e.left,
        start: e.start,
        end: e.end,
      });
    }
  }

  private collectPlaceholders(e: Expr): void {
    switch (e.type) {
      case 'assign':
        if (!this.placeholders.has(e.variable.name)) this.placeholders.set(e.variable.name, e);
        break;
      case 'and':
      case 'or':
        for (let i = 0; i < e.items.length; i++) this.collectPlaceholders(e.items[i]);
        break;
      case 'not':
        this.collectPlaceholders(e.expr);
        break;
      default:
        break;
    }
  }

  private visit(e: Expr): void {
    switch (e.type) {
      case 'and':
      case 'or':
        // Indexed: the top-level AND of a long document has one item per line.
        for (let i = 0; i < e.items.length; i++) this.visit(e.items[i]);
        return;
      case 'not':
        this.visit(e.expr);
        return;
      case 'compare':
        this.checkCompare(e);
        return;
      case 'in': {
        const facts = this.operand(e.left);
        if (
          facts &&
          facts.kind !== 'string' &&
          facts.kind !== 'unknown' &&
          facts.kind !== 'struct' &&
          facts.kind !== 'map' &&
          facts.kind !== 'enum'
        ) {
          this.report(
            'error',
            `${facts.key} is ${article(facts)}; reference lists hold strings`,
            e.left.start,
            e.left.end,
            'type-mismatch',
          );
        }
        const lists = this.options.referenceLists;
        const known = this.options.knownLists;
        if (e.list && !lists && known && !known.has(e.list.name)) {
          const s = suggest(e.list.name, known.keys());
          const unavailable = this.options.listsUnavailable;
          this.report(
            unavailable === undefined ? 'error' : 'warning',
            `Unknown reference list %${e.list.name}${s.length ? `. Did you mean %${s[0]}?` : ''}${
              unavailable === undefined ? '' : ` (the reference lists could not be loaded: ${unavailable})`
            }`,
            e.list.start,
            e.list.end,
            'unknown-list',
            s.length ? { replacements: s.map((x) => `%${x}`) } : undefined,
          );
        }
        const knownList = e.list ? known?.get(e.list.name) : undefined;
        if (e.list && knownList) {
          const expected = e.mode === 'regex' ? 'REGEX' : e.mode === 'cidr' ? 'CIDR' : 'CONTENT_TYPE_DEFAULT_STRING';
          if (knownList.contentType !== expected) {
            // `in regex %` / `in cidr %` would read a list's entries as patterns or ranges they are
            // not: an error. A plain `in %` on a regex or CIDR list matches its text literally,
            // which is legal but rarely meant: a warning.
            this.report(
              e.mode === 'exact' ? 'warning' : 'error',
              `%${e.list.name} is a ${listTypeLabel(knownList.contentType)} list; use 'in ${listTypeKeyword(knownList.contentType)}%${e.list.name}'`,
              e.list.start,
              e.list.end,
              'list-type',
            );
          }
        }
        if (e.nocase && e.mode === 'cidr')
          this.report('error', "'nocase' does not apply to CIDR ranges", e.nocase.start, e.nocase.end, 'bad-nocase');
        if (e.list && lists && !Object.prototype.hasOwnProperty.call(lists, e.list.name)) {
          const s = suggest(e.list.name, Object.keys(lists));
          this.report(
            'error',
            `Unknown reference list %${e.list.name}${s.length ? `. Did you mean %${s[0]}?` : ''}`,
            e.list.start,
            e.list.end,
            'unknown-list',
            s.length ? { replacements: s.map((x) => `%${x}`) } : undefined,
          );
        }
        if (e.list && lists && e.mode !== 'exact' && lists[e.list.name]) {
          for (const entry of lists[e.list.name]) {
            if (e.mode === 'cidr' && !parseCidr(entry)) {
              this.report(
                'warning',
                `Reference list %${e.list.name} has an entry that is not a CIDR range: ${entry}`,
                e.list.start,
                e.list.end,
                'bad-list-entry',
              );
              break;
            }
            if (e.mode === 'regex' && findRe2Problem(entry)) {
              this.report(
                'warning',
                `Reference list %${e.list.name} has an entry that is not a valid RE2 expression: ${entry}`,
                e.list.start,
                e.list.end,
                'bad-list-entry',
              );
              break;
            }
          }
        }
        return;
      }
      case 'callExpr': {
        const ret = this.checkCall(e.call);
        if (ret && ret !== 'bool' && ret !== 'any') {
          this.report(
            'error',
            `${e.call.name} returns a ${ret}; compare it with a value, e.g. ${e.call.name}(...) = ...`,
            e.call.start,
            e.call.end,
            'not-a-condition',
          );
        }
        return;
      }
      case 'assign': {
        this.checkVariableName(e.variable);
        if (e.value.type !== 'field' && !readsEvent(e.value))
          this.report(
            'error',
            `$${e.variable.name} must take its value from an event field, e.g. $${e.variable.name} = strings.concat(principal.hostname, "x")`,
            e.value.start,
            e.value.end,
            'placeholder-constant',
          );
        if (e.value.type === 'field') {
          const f = this.operand(e.value);
          if (f && f.kind === 'message') {
            this.report(
              'error',
              `${f.key} is a ${typeLabel(f.type)} message; a placeholder needs a field that holds a value`,
              e.value.start,
              e.value.end,
              'message-compare',
            );
          }
        } else this.operand(e.value);
        return;
      }
      case 'error':
        if (e.operand) this.operand(e.operand);
        return;
    }
  }

  /** Resolves an operand; returns field facts for field paths (and placeholders bound to one). */
  private operand(op: Operand | null): FieldFacts | undefined {
    if (!op) return undefined;
    switch (op.type) {
      case 'field':
        return this.resolveField(op);
      case 'variable': {
        const def = this.placeholders.get(op.name);
        if (!def) return undefined;
        if (def.value.type === 'field') {
          return this.facts.get(def.value) ?? this.resolveField(def.value);
        }
        return undefined;
      }
      case 'call':
        this.checkCall(op);
        return undefined;
      case 'condition':
        if (op.expr.type === 'assign')
          this.report(
            'error',
            `if(...) needs a condition here; $${op.expr.variable.name} = ... defines a placeholder`,
            op.start,
            op.end,
            'not-a-condition',
          );
        else this.visit(op.expr);
        return undefined;
      case 'array':
        for (const item of op.items) this.operand(item);
        return undefined;
      case 'arith':
        for (const side of [op.left, op.right]) {
          const f = this.operand(side);
          if (side && f && !f.unknown && f.kind !== 'number' && f.kind !== 'unknown')
            this.report(
              'error',
              `Arithmetic needs numbers; ${f.key} is ${article(f)}`,
              side.start,
              side.end,
              'type-mismatch',
            );
          else if (side && (side.type === 'string' || side.type === 'regex' || side.type === 'bool'))
            this.report('error', 'Arithmetic needs numbers', side.start, side.end, 'type-mismatch');
        }
        return undefined;
      case 'regex':
        this.checkRegexLiteral(op);
        return undefined;
      default:
        return undefined;
    }
  }

  private resolveField(node: FieldNode): FieldFacts {
    const cached = this.facts.get(node);
    if (cached) return cached;
    const shared = resolveShared(node);
    let facts = shared.facts;
    const { r } = shared;
    const path = facts.path;
    const offset = node.segments.length - path.length;
    if (r.errorIndex >= 0) {
      const seg = node.segments[r.errorIndex + offset];
      if (seg.name !== '') {
        const parentType = r.errorParentType!;
        const children = childFields(parentType);
        const where =
          r.errorIndex === 0 ? 'a UDM event' : `${typeLabel(parentType)} (${path.slice(0, r.errorIndex).join('.')})`;
        if (!children) {
          this.report(
            'error',
            `${path.slice(0, r.errorIndex).join('.')} is ${article({ kind: valueKind(parentType), type: parentType })} and has no field '${seg.name}'`,
            seg.start,
            seg.end,
            'unknown-field',
          );
        } else {
          const byJson = [...children.values()].find((f) => f.jsonName === seg.name && f.name !== seg.name);
          const candidates = byJson ? [byJson.name] : suggest(seg.name, children.keys());
          if (!candidates.length && this.reportNotInSchema(node, r.errorIndex + offset, path, r.errorIndex, parentType))
            return this.keep(node, facts);
          const hint = candidates.length ? `. Did you mean '${candidates[0]}'?` : '';
          const msg = byJson
            ? `Use the snake_case name '${byJson.name}' (the API's JSON spells it ${seg.name})`
            : `Unknown field '${seg.name}' in ${where}${hint}`;
          this.report(
            'error',
            msg,
            seg.start,
            seg.end,
            'unknown-field',
            candidates.length ? { replacements: candidates } : undefined,
          );
        }
      }
    } else {
      if (shared.anyDeprecated) {
        for (let i = 0; i < r.fields.length; i++) {
          const f = r.fields[i];
          if (f.deprecated) {
            const seg = node.segments[i + offset];
            this.report('warning', `${f.name} is deprecated`, seg.start, seg.end, 'deprecated');
          }
        }
      }
      for (let i = 0; i < r.fields.length; i++) {
        const index = node.segments[i + offset].index;
        if (index) this.checkIndex(index, r.fields[i], path.slice(0, i + 1).join('.'));
      }
      if (node.key) {
        // Keyed access changes the value's kind, so this node gets its own facts.
        facts = { ...facts };
        if (!r.freeForm) {
          const lastField = r.fields[r.fields.length - 1];
          const isLabels = lastField && lastField.type === 'm:Label' && lastField.repeated;
          if (!(isLabels || facts.kind === 'struct' || facts.kind === 'map')) {
            this.report(
              'error',
              `${facts.key} is ${article(facts)}; ["key"] applies to labels, maps and structs`,
              node.key.start,
              node.key.end,
              'bad-key',
            );
          } else if (isLabels) {
            facts.kind = 'string';
            facts.type = 'string';
          }
        }
        if (facts.kind === 'struct' || facts.kind === 'map') facts.kind = 'unknown';
      }
    }
    return this.keep(node, facts);
  }

  private keep(node: FieldNode, facts: FieldFacts): FieldFacts {
    this.facts.set(node, facts);
    return facts;
  }

  /**
   * A segment that is no field of its message but is one a level or two further down
   * (`network.tls.certificate.not_after`, written so on Google's functions page, where the schema
   * reference has `network.tls.server.certificate` and `network.tls.client.certificate`): Google's
   * schema grows faster than the reference, so this is a warning that names the known paths, not
   * an error. The sandbox finds no value there. Returns false when there is no such path.
   */
  private reportNotInSchema(
    node: FieldNode,
    segIndex: number,
    path: string[],
    errorIndex: number,
    parentType: string,
  ): boolean {
    // A bare first segment (`hostname`) stays an error: it is no field path at all.
    if (errorIndex === 0) return false;
    const seg = node.segments[segIndex];
    const paths = pathsThroughChild(parentType, seg.name, path.slice(errorIndex + 1)).map((p) => {
      const full = [...path.slice(0, errorIndex), ...p];
      // a timestamp is compared and computed with as epoch seconds
      const leaf = resolvePath(full).fields.at(-1);
      return leaf?.type === 'timestamp' ? `${full.join('.')}.seconds` : full.join('.');
    });
    if (!paths.length) return false;
    const first = node.segments[segIndex - errorIndex];
    const last = node.segments[node.segments.length - 1];
    const plain = !node.key && !node.segments.some((s) => s.index);
    const shown = paths.slice(0, 3);
    this.report(
      'warning',
      `${path.join('.')} is not in the UDM schema reference (${typeLabel(parentType)} has no field '${seg.name}'); the sandbox finds no value for it. Did you mean ${shown.join(' or ')}?`,
      plain ? first.start : seg.start,
      plain ? last.end : seg.end,
      'not-in-schema',
      plain ? { replacements: shown } : undefined,
    );
    return true;
  }

  private checkCompare(e: CompareExpr): void {
    let leftRet: ArgType | undefined;
    let rightRet: ArgType | undefined;
    const leftFacts = e.left.type === 'call' ? ((leftRet = this.checkCall(e.left)), undefined) : this.operand(e.left);
    const rightFacts = !e.right
      ? undefined
      : e.right.type === 'call'
        ? ((rightRet = this.checkCall(e.right)), undefined)
        : this.operand(e.right);
    const leftLit = isLiteral(e.left);
    if (leftLit && e.right && isLiteral(e.right)) {
      this.report(
        'error',
        'Both sides are literal values; compare a field, a placeholder or a function result with a value',
        e.start,
        e.end,
        'literal-compare',
      );
      return;
    }
    if (leftLit && e.right && (rightFacts || rightRet)) {
      // `1024 < target.port`, `"google.com" = re.capture(...)`: check it the other way round.
      const flipped: CompareExpr = { ...e, left: e.right, right: e.left, op: FLIP[e.op] };
      if (rightFacts && !rightFacts.unknown) this.checkValueAgainst(rightFacts, flipped, e.left);
      else if (rightRet) this.checkReturnAgainst(rightRet, e.left);
      return;
    }
    if (e.left.type === 'variable' && !this.placeholders.has(e.left.name)) {
      this.report(
        'error',
        `Placeholder $${e.left.name} is not defined; define it with $${e.left.name} = <field>`,
        e.left.start,
        e.left.end,
        'undefined-placeholder',
      );
    }
    if (e.right?.type === 'variable' && !this.placeholders.has(e.right.name)) {
      this.report(
        'error',
        `Placeholder $${e.right.name} is not defined`,
        e.right.start,
        e.right.end,
        'undefined-placeholder',
      );
    }
    if (e.quantifier && leftFacts && !leftFacts.repeated && !leftFacts.unknown) {
      this.report(
        'error',
        `'${e.quantifier.kind}' applies to repeated fields; ${leftFacts.key} holds one value: remove '${e.quantifier.kind}'`,
        e.quantifier.start,
        e.quantifier.end,
        'quantifier',
      );
    }
    const right = e.right;
    if (!right) return;
    if (e.nocase && right.type !== 'string' && right.type !== 'regex') {
      this.report(
        'error',
        "'nocase' applies to strings and regular expressions",
        e.nocase.start,
        e.nocase.end,
        'nocase',
      );
    }
    if (leftFacts && !leftFacts.unknown) this.checkValueAgainst(leftFacts, e, right);
    else if (leftRet) this.checkReturnAgainst(leftRet, right);
    if (rightFacts && rightFacts.kind === 'message') {
      this.report(
        'error',
        `${rightFacts.key} is a ${typeLabel(rightFacts.type)} message; compare one of its fields`,
        right.start,
        right.end,
        'message-compare',
      );
    }
  }

  private checkReturnAgainst(ret: ArgType, right: Operand): void {
    const lit = literalKind(right);
    // a field or placeholder on the other side is compared value by value
    if (!lit || lit === 'field' || ret === 'any') return;
    const okay =
      (ret === 'string' && (lit === 'string' || lit === 'regex')) ||
      (ret === 'number' && lit === 'number') ||
      (ret === 'bool' && lit === 'bool') ||
      (ret === 'timestamp' && lit === 'number');
    if (!okay)
      this.report(
        'error',
        `Type mismatch: the function returns a ${ret} but is compared with a ${lit}`,
        right.start,
        right.end,
        'type-mismatch',
      );
  }

  private checkValueAgainst(f: FieldFacts, e: CompareExpr, right: Operand): void {
    const name = f.key;
    const op = e.op;
    const lit = literalKind(right);
    switch (f.kind) {
      case 'message':
        this.report(
          'error',
          `${name} is a ${typeLabel(f.type)} message; compare one of its fields, e.g. ${name}.${[...(childFields(f.type)?.keys() ?? ['...'])][0]}`,
          e.left.start,
          e.left.end,
          'message-compare',
        );
        return;
      case 'timestamp':
      case 'duration':
        if (lit === 'number' || lit === 'string') {
          this.report(
            'error',
            `${name} is a ${f.kind}; compare ${name}.seconds with epoch seconds`,
            e.left.start,
            e.left.end,
            'timestamp-seconds',
            { replacements: [`${name}.seconds`], replaceRange: { start: e.left.start, end: e.left.end } },
          );
        }
        return;
      case 'enum': {
        const en = enumOfType(f.type);
        if (lit === 'regex') {
          this.report(
            'error',
            `Regular expressions do not apply to enum field ${name}; compare with = and a value such as "${enumValues(en)[1]?.[0] ?? enumValues(en)[0]?.[0] ?? ''}"`,
            right.start,
            right.end,
            'regex-on-enum',
          );
          return;
        }
        if (e.nocase)
          this.report(
            'error',
            `'nocase' does not apply to enum field ${name}: enum values are upper-case names, compared exactly`,
            e.nocase.start,
            e.nocase.end,
            'bad-nocase',
          );
        // Ordering comparisons (`>=`, `<`...) compare enum values by their number in the schema.
        if (lit === 'number' || lit === 'bool') {
          this.report(
            'error',
            `Type mismatch: ${name} is enum ${en}; compare with a value name such as "${enumValues(en)[1]?.[0] ?? ''}"`,
            right.start,
            right.end,
            'type-mismatch',
          );
          return;
        }
        const value = right.type === 'string' ? right.value : right.type === 'enum' ? right.name : undefined;
        if (
          value !== undefined &&
          !(e.nocase ? enumValues(en).some(([n]) => n.toLowerCase() === value.toLowerCase()) : enumHas(en, value))
        ) {
          if (value === '' && op === '!=') return; // "is set" idiom
          const s = suggest(
            value,
            enumValues(en).map(([n]) => n),
          );
          const upper = enumValues(en).find(([n]) => n === value.toUpperCase());
          const cands = upper ? [upper[0]] : s;
          this.report(
            'error',
            `'${value}' is not a value of ${en}${cands.length ? `. Did you mean '${cands[0]}'?` : ''}`,
            right.start,
            right.end,
            'unknown-enum-value',
            cands.length ? { replacements: cands.map((c) => (right.type === 'string' ? `"${c}"` : c)) } : undefined,
          );
        }
        return;
      }
      case 'number': {
        if (lit === 'string') {
          const v = (right as { value: string }).value;
          if (v.trim() === '' || Number.isNaN(Number(v))) {
            this.report(
              'error',
              `Type mismatch: ${name} is a number (${typeLabel(f.type)}) but "${v}" is not a number`,
              right.start,
              right.end,
              'type-mismatch',
            );
          } else {
            this.report(
              'error',
              `Type mismatch: ${name} is a number (${typeLabel(f.type)}); write ${v.trim()} without quotes`,
              right.start,
              right.end,
              'type-mismatch',
              { replacements: [v.trim()] },
            );
          }
          return;
        }
        if (lit === 'regex' || lit === 'bool') {
          this.report(
            'error',
            `Type mismatch: ${name} is a number (${typeLabel(f.type)}); compare it with a number`,
            right.start,
            right.end,
            'type-mismatch',
          );
          return;
        }
        if (lit === 'number' && right.type === 'number') {
          const v = right.value;
          const unsigned = f.type.startsWith('uint') || f.type.startsWith('fixed');
          if (unsigned && ((op === '<' && v <= 0) || ((op === '=' || op === '<=') && v < 0))) {
            this.report(
              'warning',
              `This comparison can never match: ${name} is unsigned (${f.type})`,
              e.start,
              e.end,
              'never-matches',
            );
          }
          const int32 = f.type === 'int32' || f.type === 'uint32' || f.type === 'sint32';
          if (int32 && (op === '=' || op === '>' || op === '>=') && v > 4294967295) {
            this.report(
              'warning',
              `This comparison can never match: ${name} is a 32-bit field`,
              e.start,
              e.end,
              'never-matches',
            );
          }
          if (op === '=' && !Number.isInteger(v) && f.type !== 'double' && f.type !== 'float') {
            this.report(
              'warning',
              `This comparison can never match: ${name} holds whole numbers`,
              e.start,
              e.end,
              'never-matches',
            );
          }
        }
        return;
      }
      case 'bool':
        if (lit && lit !== 'bool' && lit !== 'field') {
          this.report(
            'error',
            `Type mismatch: ${name} is a bool; compare it with true or false`,
            right.start,
            right.end,
            'type-mismatch',
          );
        } else if (op !== '=' && op !== '!=') {
          this.report('error', `Only = and != compare bool values`, e.opSpan.start, e.opSpan.end, 'type-mismatch');
        }
        return;
      case 'string':
      case 'bytes':
        if (lit === 'number') {
          const raw = (right as { raw: string }).raw;
          this.report(
            'error',
            `Type mismatch: ${name} is a string; quote the value: "${raw}"`,
            right.start,
            right.end,
            'type-mismatch',
            { replacements: [`"${raw}"`] },
          );
        } else if (lit === 'bool') {
          this.report(
            'error',
            `Type mismatch: ${name} is a string; compare it with a quoted value`,
            right.start,
            right.end,
            'type-mismatch',
          );
        } else if (lit === 'enum') {
          const n = (right as { name: string }).name;
          this.report(
            'error',
            `Type mismatch: ${name} is a string; quote the value: "${n}"`,
            right.start,
            right.end,
            'type-mismatch',
            { replacements: [`"${n}"`] },
          );
        }
        return;
      default:
        return;
    }
  }

  private checkCall(call: CallNode, visitArgs = true): ArgType | undefined {
    if (isIfCall(call)) return this.checkIf(call, visitArgs);
    const fn = findFunction(call.name);
    if (visitArgs) for (let i = 0; i < call.args.length; i++) this.operand(call.args[i]);
    if (!fn) {
      if (findAggregate(call.name)) {
        this.report(
          'error',
          `${call.name}() is an aggregate; use it in the outcome: section`,
          call.nameSpan.start,
          call.nameSpan.end,
          'aggregate-in-filter',
        );
        return undefined;
      }
      const renamed = RENAMED_FUNCTIONS[call.name.toLowerCase()];
      const s = renamed
        ? [renamed]
        : suggest(
            call.name,
            FUNCTIONS.filter((f) => f.search).map((f) => f.name),
          );
      this.report(
        'error',
        renamed
          ? `${call.name} does not exist in UDM search; use ${renamed}`
          : `Unknown function ${call.name}${s.length ? `. Did you mean ${s[0]}?` : ''}`,
        call.nameSpan.start,
        call.nameSpan.end,
        'unknown-function',
        s.length ? { replacements: s } : undefined,
      );
      return undefined;
    }
    if (!fn.search) {
      this.report(
        'error',
        `${fn.name} is available in detection rules, not in search`,
        call.nameSpan.start,
        call.nameSpan.end,
        'rules-only',
      );
      return undefined;
    }
    let required = 0;
    for (let i = 0; i < fn.params.length; i++) if (!fn.params[i].optional) required++;
    const max = fn.variadic ? Infinity : fn.params.length;
    if (call.args.length < required || call.args.length > max) {
      const expected = fn.variadic
        ? `at least ${required}`
        : required === fn.params.length
          ? `${required}`
          : `${required} to ${fn.params.length}`;
      this.report(
        'error',
        `${fn.name} takes ${expected} argument${required === 1 && !fn.variadic ? '' : 's'}, got ${call.args.length}`,
        call.start,
        call.end,
        'arity',
      );
    }
    for (let i = 0; i < call.args.length; i++) {
      const arg = call.args[i];
      const param = fn.params[Math.min(i, fn.params.length - 1)];
      if (!param) continue;
      const lit = literalKind(arg);
      if (param.type === 'number' && (lit === 'string' || lit === 'regex' || lit === 'bool')) {
        this.report(
          'error',
          `Argument ${param.name} of ${fn.name} must be a number`,
          arg.start,
          arg.end,
          'type-mismatch',
        );
      } else if (param.type === 'array' && (lit === 'string' || lit === 'number' || lit === 'bool')) {
        this.report(
          'error',
          `Argument ${param.name} of ${fn.name} is an array: pass a repeated field or a list such as ["a", "b"]`,
          arg.start,
          arg.end,
          'type-mismatch',
        );
      } else if ((param.type === 'string' || param.type === 'bool') && arg.type === 'array') {
        this.report(
          'error',
          `Argument ${param.name} of ${fn.name} is a single ${param.type}, not an array`,
          arg.start,
          arg.end,
          'type-mismatch',
        );
      } else if (param.type === 'string' && lit === 'regex') {
        this.report(
          'error',
          `Argument ${param.name} of ${fn.name} is a string: write the pattern in double quotes`,
          arg.start,
          arg.end,
          'type-mismatch',
        );
      }
      if (arg.type === 'field') {
        const facts = this.facts.get(arg);
        if (facts && !facts.unknown && facts.kind === 'message') {
          this.report(
            'error',
            `${facts.key} is a ${typeLabel(facts.type)} message; pass one of its fields`,
            arg.start,
            arg.end,
            'message-compare',
          );
        }
      }
    }
    fn.checkArgs?.(
      call.args,
      (message, at, code) => this.report('error', message, at.start, at.end, code),
      this.options.text,
    );
    return fn.returns;
  }

  /** `principal.ip[0]`: a whole number from 0, on a repeated field. */
  private checkIndex(index: NumberNode, field: FieldInfo, key: string): void {
    if (!Number.isInteger(index.value) || index.value < 0)
      this.report(
        'error',
        `An index counts elements from 0: write a whole number such as [0], not [${index.raw}]`,
        index.start,
        index.end,
        'bad-index',
      );
    else if (!field.repeated)
      this.report(
        'error',
        `${key} holds one value; [${index.raw}] applies to repeated fields: remove it`,
        index.start,
        index.end,
        'bad-index',
      );
  }

  /** Keywords of the language may not name a variable (`$outcome`, `$max`; `$count` is allowed, see VARIABLE_KEYWORDS). */
  private checkVariableName(v: VariableNode): void {
    const lower = v.name.toLowerCase();
    if (VARIABLE_KEYWORDS.has(lower))
      this.report(
        'error',
        `$${v.name} is not a valid name: ${lower} is a keyword of the language; choose another, e.g. $${lower}_value`,
        v.start,
        v.end,
        'keyword-variable',
        { replacements: [`$${lower}_value`] },
      );
  }

  /** `if(condition)` is a bool; `if(condition, then, else)` has the type of its branches. */
  private checkIf(call: CallNode, visitArgs: boolean): ArgType | undefined {
    if (visitArgs) for (const a of call.args) this.operand(a);
    const n = call.args.length;
    if (n !== 1 && n !== 3) {
      this.report(
        'error',
        `if takes a condition, or a condition, a value when it holds and a value otherwise: if(condition) or if(condition, then, else); got ${n} argument${n === 1 ? '' : 's'}`,
        call.start,
        call.end,
        'arity',
      );
      return undefined;
    }
    const cond = call.args[0];
    if (cond.type !== 'condition')
      this.report(
        'error',
        'The first argument of if is a condition, such as if(network.sent_bytes > 1000000, 1, 0)',
        cond.start,
        cond.end,
        'type-mismatch',
      );
    if (n === 1) return 'bool';
    const kinds = [call.args[1], call.args[2]].map((a) => literalKind(a));
    const [a, b] = kinds;
    if (a && b && a !== 'field' && b !== 'field' && a !== b) {
      this.report(
        'error',
        `The two values of if must have the same type; this one is a ${b} and the other a ${a}`,
        call.args[2].start,
        call.args[2].end,
        'type-mismatch',
      );
      return undefined;
    }
    if (a === 'number' || b === 'number') return 'number';
    if (a === 'string' || b === 'string') return 'string';
    if (a === 'bool' || b === 'bool') return 'bool';
    return 'any';
  }

  /** Two different `=` values for the same single-valued field inside one AND can never both hold. */
  private findContradictions(e: Expr): void {
    if (e.type === 'or') {
      for (let i = 0; i < e.items.length; i++) this.findContradictions(e.items[i]);
      return;
    }
    if (e.type === 'not') {
      this.findContradictions(e.expr);
      return;
    }
    if (e.type !== 'and') return;
    // Made on first use: most ANDs compare no field with a literal twice.
    let seen: Map<string, { value: string | number | boolean }> | undefined;
    let bounds: Map<string, { lo: number; loIn: boolean; hi: number; hiIn: boolean }> | undefined;
    for (let i = 0; i < e.items.length; i++) {
      const item = e.items[i];
      if (item.type !== 'compare') {
        this.findContradictions(item);
        continue;
      }
      if (item.left.type === 'field' && item.right?.type === 'number' && item.op !== '!=') {
        const facts = this.facts.get(item.left);
        if (facts && !facts.unknown && !facts.repeated && facts.kind === 'number') {
          bounds ??= new Map();
          const b = bounds.get(facts.key) ?? { lo: -Infinity, loIn: true, hi: Infinity, hiIn: true };
          const v = item.right.value;
          if (item.op === '=' || item.op === '>' || item.op === '>=') {
            const incl = item.op !== '>';
            if (v > b.lo || (v === b.lo && !incl)) {
              b.lo = v;
              b.loIn = incl;
            }
          }
          if (item.op === '=' || item.op === '<' || item.op === '<=') {
            const incl = item.op !== '<';
            if (v < b.hi || (v === b.hi && !incl)) {
              b.hi = v;
              b.hiIn = incl;
            }
          }
          bounds.set(facts.key, b);
          if (b.lo > b.hi || (b.lo === b.hi && !(b.loIn && b.hiIn))) {
            this.report(
              'warning',
              `This can never match: together with the conditions before, no value of ${facts.key} satisfies this`,
              item.start,
              item.end,
              'never-matches',
            );
            bounds.delete(facts.key);
          }
        }
      }
      if (item.op !== '=' || item.nocase || item.left.type !== 'field' || !item.right) continue;
      const facts = this.facts.get(item.left);
      if (!facts || facts.unknown || facts.repeated || item.left.key) continue;
      const r = item.right;
      // A string and an unquoted enum name with the same text are the same value.
      const value =
        r.type === 'string' || r.type === 'number' || r.type === 'bool'
          ? r.value
          : r.type === 'enum'
            ? r.name
            : undefined;
      if (value === undefined) continue;
      const key = facts.key;
      seen ??= new Map();
      const prev = seen.get(key);
      if (prev && prev.value !== value) {
        this.report(
          'warning',
          `This can never match: ${key} cannot equal two different values at once (see the condition before); use OR`,
          item.start,
          item.end,
          'never-matches',
        );
      } else if (!prev) seen.set(key, { value });
    }
  }

  private checkSections(sections: Section[]): SectionsByKind {
    const byKind: SectionsByKind = {};
    let lastRank = -1;
    for (const s of sections) {
      const rank = SECTION_ORDER.indexOf(s.kind);
      if (byKind[s.kind]) {
        this.report('error', `Duplicate ${s.kind}: section`, s.keyword.start, s.keyword.end, 'duplicate-section');
        continue;
      }
      // select:/unselect: have no place in the documented order; Google's page writes select: after limit:.
      const free = s.kind === 'select' || s.kind === 'unselect';
      if (!free && rank < lastRank) {
        this.report(
          'error',
          `Section ${s.kind}: must come before ${SECTION_ORDER[lastRank]}: (the order is match:, outcome:, condition:, dedup:, order:, limit:)`,
          s.keyword.start,
          s.keyword.end,
          'section-order',
        );
      }
      if (!free) lastRank = Math.max(lastRank, rank);
      (byKind as Record<string, Section>)[s.kind] = s;
    }
    const groupNames = new Set<string>();
    const match = byKind.match;
    if (match) {
      if (match.keys.length === 0)
        this.report(
          'error',
          'match: needs at least one field or placeholder to group by',
          match.keyword.start,
          match.keyword.end,
          'empty-section',
        );
      for (const k of match.keys) {
        if (k.type === 'variable') {
          if (!this.placeholders.has(k.name)) this.undefinedPlaceholder(k);
          groupNames.add(k.name);
        } else {
          const f = this.resolveField(k);
          if (!f.unknown && f.kind === 'message')
            this.report(
              'error',
              `${f.key} is a message; group by one of its fields`,
              k.start,
              k.end,
              'message-compare',
            );
          groupNames.add(fieldPathOf(k).join('.'));
        }
      }
      const w = match.window;
      if (w && w.kind === 'over' && !w.every) {
        this.report(
          'error',
          `'over ${w.raw}' is a detection rule's sliding window, not valid in search; use 'by ${w.raw || '1h'}' or 'over every ${w.unit ?? 'day'}'`,
          w.start,
          w.end,
          'rule-window',
          { replacements: [`by ${w.raw || '1h'}`] },
        );
      }
    }
    const outcomeNames = new Set<string>();
    const outcome = byKind.outcome;
    // Without match:, outcome: is one row per event (plain values) or one row for all events
    // (aggregates), never both.
    let aggregated: OutcomeItem | undefined;
    const plain: OutcomeItem[] = [];
    if (outcome) {
      if (outcome.outcomes.length === 0)
        this.report(
          'error',
          'outcome: needs at least one $name = aggregate(...)',
          outcome.keyword.start,
          outcome.keyword.end,
          'empty-section',
        );
      for (const o of outcome.outcomes) {
        if (outcomeNames.has(o.variable.name) || groupNames.has(o.variable.name)) {
          this.report(
            'error',
            `$${o.variable.name} is already defined`,
            o.variable.start,
            o.variable.end,
            'duplicate-variable',
          );
        } else if (this.placeholders.has(o.variable.name)) {
          this.report(
            'error',
            `$${o.variable.name} is already a placeholder of the filter; choose another name`,
            o.variable.start,
            o.variable.end,
            'duplicate-variable',
          );
        }
        outcomeNames.add(o.variable.name);
        this.checkVariableName(o.variable);
        if (!o.value) continue;
        const aggregates = this.outcomeValue(o.value, false);
        const perEvent = eventValueOutsideAggregate(o.value, this.placeholders, groupNames);
        if (aggregates > 0) aggregated ??= o;
        if (perEvent) plain.push(o);
        if (match && perEvent) {
          this.report(
            'error',
            `With match:, an outcome aggregates each group: wrap the value in an aggregate such as max(...) or array_distinct(...)`,
            o.value.start,
            o.value.end,
            'missing-aggregate',
          );
        }
      }
    }
    if (outcome && !match && aggregated) {
      const agg = aggregated;
      for (const o of plain)
        this.report(
          'error',
          o === agg
            ? `Without match:, an outcome is one value per event or one aggregate over all events, not both: $${o.variable.name} mixes a per-event value with an aggregate. Add a match: section to group by, or put the per-event value inside the aggregate`
            : `Without match:, outcome: gives one row per event (plain values) or one row for all events (aggregates), not both: $${o.variable.name} is a per-event value and $${agg.variable.name} an aggregate. Add a match: section to group by, or wrap the value of $${o.variable.name} in an aggregate such as max(...) or array_distinct(...)`,
          o.value!.start,
          o.value!.end,
          'mixed-outcome',
        );
    }
    const condition = byKind.condition;
    if (condition) {
      if (!condition.expr)
        this.report(
          'error',
          'condition: needs a test of an outcome variable, e.g. $event_count > 5',
          condition.keyword.start,
          condition.keyword.end,
          'empty-section',
        );
      else this.checkCondition(condition.expr, groupNames, outcomeNames);
    }
    for (const d of [byKind.dedup, byKind.select, byKind.unselect]) {
      if (!d) continue;
      if (d.keys.length === 0)
        this.report(
          'error',
          `${d.kind}: needs at least one field, e.g. ${d.kind}: target.hostname`,
          d.keyword.start,
          d.keyword.end,
          'empty-section',
        );
      for (const k of d.keys) {
        if (k.type === 'variable') {
          if (!this.placeholders.has(k.name) && !outcomeNames.has(k.name) && !groupNames.has(k.name))
            this.undefinedPlaceholder(k);
        } else {
          const f = this.resolveField(k);
          if (!f.unknown && f.kind === 'message')
            this.report('error', `${f.key} is a message; name one of its fields`, k.start, k.end, 'message-compare');
        }
      }
    }
    const order = byKind.order;
    if (order) {
      if (!match && !outcome)
        this.report(
          'error',
          'order: sorts the rows of match: and outcome:; add those sections first',
          order.keyword.start,
          order.keyword.end,
          'order-without-stats',
        );
      for (const item of order.order) {
        const name = item.variable.type === 'variable' ? item.variable.name : fieldPathOf(item.variable).join('.');
        if (!groupNames.has(name) && !outcomeNames.has(name)) {
          this.report(
            'error',
            `order: can only sort by a match: or outcome: variable; ${item.variable.type === 'variable' ? '$' : ''}${name} is neither`,
            item.variable.start,
            item.variable.end,
            'order-unknown',
          );
        }
      }
      if (order.order.length === 0)
        this.report(
          'error',
          'order: needs a variable, e.g. $event_count desc',
          order.keyword.start,
          order.keyword.end,
          'empty-section',
        );
    }
    const limit = byKind.limit;
    if (limit?.limit) {
      const v = limit.limit.value;
      if (!Number.isInteger(v) || v < 1 || v > MAX_LIMIT) {
        this.report(
          'error',
          `limit: must be a whole number from 1 to ${MAX_LIMIT}`,
          limit.limit.start,
          limit.limit.end,
          'limit-range',
        );
      }
    }
    return byKind;
  }

  /** Checks an outcome value; returns how many aggregate calls it holds. */
  private outcomeValue(v: Operand, insideAggregate: boolean): number {
    switch (v.type) {
      case 'call': {
        if (v.name === 'group')
          this.report(
            'error',
            'group(...) belongs in the filter, assigned to a placeholder that match: then groups by: $ip = group(principal.ip, target.ip)',
            v.nameSpan.start,
            v.nameSpan.end,
            'group-placement',
          );
        if (isAggregateCall(v)) {
          if (insideAggregate)
            this.report('error', 'Aggregates cannot be nested', v.nameSpan.start, v.nameSpan.end, 'nested-aggregate');
          this.checkAggregate(v);
          return 1;
        }
        if (!findFunction(v.name) && !isIfCall(v)) {
          if (v.name.includes('.')) {
            let n = 0;
            for (const a of v.args) n += this.outcomeValue(a, insideAggregate);
            this.checkCall(v, false);
            // unknown: do not also ask for an aggregate around it
            return Math.max(n, 1);
          }
          // An undotted unknown name in outcome: is most likely a misspelt aggregate.
          const s = suggest(v.name, AGGREGATE_NAMES);
          this.report(
            'error',
            `Unknown aggregate ${v.name}${s.length ? `. Did you mean ${s[0]}?` : ''} (aggregates: ${AGGREGATE_NAMES.join(', ')})`,
            v.nameSpan.start,
            v.nameSpan.end,
            'bad-aggregate',
            s.length ? { replacements: s } : undefined,
          );
          for (const a of v.args) this.outcomeValue(a, true);
          return 1;
        }
        let n = 0;
        for (const a of v.args) n += this.outcomeValue(a, insideAggregate);
        // the arguments were visited above
        this.checkCall(v, false);
        // window.range(network.sent_bytes, false) is computed over the group, as an aggregate is
        return groupFunctionOf(v) ? Math.max(n, 1) : n;
      }
      case 'arith': {
        let n = this.outcomeValue(v.left, insideAggregate);
        if (v.right) n += this.outcomeValue(v.right, insideAggregate);
        return n;
      }
      case 'variable':
        this.outcomeArg(v);
        return 0;
      default:
        this.operand(v);
        return 0;
    }
  }

  private checkAggregate(call: CallNode): void {
    const agg = findAggregate(call.name)!;
    if (call.args.length !== 1) {
      this.report('error', `${agg.name} takes 1 argument, got ${call.args.length}`, call.start, call.end, 'arity');
    }
    for (const a of call.args) {
      if (a.type === 'call' && isAggregateCall(a)) {
        this.outcomeValue(a, true);
        continue;
      }
      const f = a.type === 'call' || a.type === 'arith' ? (this.outcomeValue(a, true), undefined) : this.outcomeArg(a);
      if (f && !f.unknown && agg.params[0].type === 'number' && f.kind !== 'number' && f.kind !== 'unknown') {
        this.report(
          'error',
          `${agg.name} needs a numeric field; ${f.key} is ${article(f)}`,
          a.start,
          a.end,
          'type-mismatch',
        );
      }
    }
  }

  /** A `/…/` literal must be valid RE2; the error points inside the pattern. */
  private checkRegexLiteral(op: { pattern: string; start: number; end: number }): void {
    const p = findRe2Problem(op.pattern);
    if (!p) return;
    const literal = this.options.text?.slice(op.start, op.end);
    const from = literal ? op.start + sourceOffsetInLiteral(literal, p.index) : op.start + 1 + p.index;
    const to = literal ? op.start + sourceOffsetInLiteral(literal, p.index + p.length) : from + p.length;
    this.report('error', p.message, from, Math.max(to, from + 1), 're2');
  }

  /** Literal arguments of a function a condition calls (a re.regex pattern) get the checks they get elsewhere. */
  private checkConditionCall(call: CallNode): void {
    findFunction(call.name)?.checkArgs?.(
      call.args,
      (message, at, code) => this.report('error', message, at.start, at.end, code),
      this.options.text,
    );
  }

  /** condition: tests match:/outcome: variables. */
  private checkCondition(e: Expr, groupNames: Set<string>, outcomeNames: Set<string>): void {
    const variable = (op: Operand | null): void => {
      if (!op) return;
      if (op.type === 'variable') {
        if (!outcomeNames.has(op.name) && !groupNames.has(op.name))
          this.report(
            'error',
            `condition: tests outcome: or match: variables; $${op.name} is neither`,
            op.start,
            op.end,
            'condition-unknown',
          );
      } else if (op.type === 'field') {
        this.report(
          'error',
          'condition: tests outcome: variables, not event fields; define one in outcome: first',
          op.start,
          op.end,
          'condition-field',
        );
      } else if (op.type === 'arith') {
        variable(op.left);
        variable(op.right);
      } else if (op.type === 'call') {
        for (const a of op.args) variable(a);
        this.checkConditionCall(op);
      } else if (op.type === 'regex') this.checkRegexLiteral(op);
    };
    switch (e.type) {
      case 'and':
      case 'or':
        for (const i of e.items) this.checkCondition(i, groupNames, outcomeNames);
        return;
      case 'not':
        this.checkCondition(e.expr, groupNames, outcomeNames);
        return;
      case 'compare':
        variable(e.left);
        variable(e.right);
        return;
      case 'assign':
        this.report(
          'error',
          'condition: compares values; it cannot define a placeholder',
          e.start,
          e.end,
          'condition-assign',
        );
        return;
      case 'in':
        variable(e.left);
        return;
      case 'callExpr':
        for (const a of e.call.args) variable(a);
        this.checkConditionCall(e.call);
        return;
      case 'error':
        return;
    }
  }

  private outcomeArg(a: Operand): FieldFacts | undefined {
    if (a.type === 'variable') {
      if (!this.placeholders.has(a.name)) {
        this.undefinedPlaceholder(a);
        return undefined;
      }
      return this.operand(a);
    }
    if (a.type === 'field') return this.resolveField(a);
    if (a.type === 'call') {
      this.checkCall(a);
      return undefined;
    }
    return undefined;
  }

  private undefinedPlaceholder(v: VariableNode): void {
    const s = suggest(v.name, this.placeholders.keys());
    this.report(
      'error',
      `Placeholder $${v.name} is not defined; define it in the filter with $${v.name} = <field>${s.length ? `. Did you mean $${s[0]}?` : ''}`,
      v.start,
      v.end,
      'undefined-placeholder',
      s.length ? { replacements: s.map((x) => `$${x}`) } : undefined,
    );
  }
}

/** Enum names by field type (`e:Metadata.EventType` → `Metadata.EventType`), one string each. */
const ENUM_OF_TYPE = new Map<string, string>();

function enumOfType(type: string): string {
  let name = ENUM_OF_TYPE.get(type);
  if (name === undefined) {
    name = enumName(type) ?? type;
    ENUM_OF_TYPE.set(type, name);
  }
  return name;
}

/** Keeps the Checker's hidden class alive between documents (see keepCursorShape in parse/cursor.ts). */
export const keepCheckerShape = new Checker({});

/** The keywords udm-syntax.md lists; none may name a variable. */
const VARIABLE_KEYWORDS: ReadonlySet<string> = new Set(DOCUMENTED_KEYWORDS);

/** True when a value reads an event field or a placeholder somewhere inside. */
function readsEvent(v: Operand | null): boolean {
  if (!v) return false;
  switch (v.type) {
    case 'field':
    case 'variable':
    case 'condition':
      return true;
    case 'call':
      return v.args.some(readsEvent);
    case 'arith':
      return readsEvent(v.left) || readsEvent(v.right);
    case 'array':
      return v.items.some(readsEvent);
    default:
      return false;
  }
}

/** True when an outcome value reads event fields (directly or through a filter placeholder) outside any aggregate. */
function eventValueOutsideAggregate(
  v: Operand,
  placeholders: Map<string, AssignExpr>,
  groupNames: Set<string>,
): boolean {
  const walk = (op: Operand | null): boolean => {
    if (!op) return false;
    switch (op.type) {
      case 'field':
        return true;
      case 'variable':
        return placeholders.has(op.name) && !groupNames.has(op.name);
      case 'call':
        return !isAggregateCall(op) && !groupFunctionOf(op) && op.args.some(walk);
      case 'arith':
        return walk(op.left) || walk(op.right);
      case 'array':
        return op.items.some(walk);
      case 'condition':
        return exprOperands(op.expr).some(walk);
      default:
        return false;
    }
  };
  return walk(v);
}

function exprOperands(e: Expr): Operand[] {
  switch (e.type) {
    case 'and':
    case 'or':
      return e.items.flatMap(exprOperands);
    case 'not':
      return exprOperands(e.expr);
    case 'compare':
      return e.right ? [e.left, e.right] : [e.left];
    case 'in':
      return [e.left];
    case 'callExpr':
      return [e.call];
    case 'assign':
      return [e.value];
    case 'error':
      return e.operand ? [e.operand] : [];
  }
}

const FLIP: Record<CompareExpr['op'], CompareExpr['op']> = {
  '=': '=',
  '!=': '!=',
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
};

function isLiteral(op: Operand): boolean {
  return (
    op.type === 'string' ||
    op.type === 'number' ||
    op.type === 'bool' ||
    op.type === 'regex' ||
    op.type === 'bytes' ||
    (op.type === 'array' && op.items.every(isLiteral))
  );
}

function listTypeLabel(t: string): string {
  return t === 'REGEX' ? 'regular expression' : t === 'CIDR' ? 'CIDR' : 'string';
}

function listTypeKeyword(t: string): string {
  return t === 'REGEX' ? 'regex ' : t === 'CIDR' ? 'cidr ' : '';
}

function literalKind(op: Operand): 'string' | 'number' | 'bool' | 'regex' | 'enum' | 'field' | undefined {
  switch (op.type) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'bool':
      return 'bool';
    case 'regex':
      return 'regex';
    case 'enum':
      return 'enum';
    case 'field':
    case 'variable':
      return 'field';
    default:
      return undefined;
  }
}

function article(f: { kind: ValueKind; type: string }): string {
  switch (f.kind) {
    case 'message':
      return `a ${typeLabel(f.type)} message`;
    case 'enum':
      return `enum ${typeLabel(f.type)}`;
    case 'number':
      return `a number (${f.type})`;
    default:
      return `a ${f.kind}`;
  }
}
