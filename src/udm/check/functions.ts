import { type CallNode, isIfCall } from '../ast';
import { type ArgType, findAggregate, findFunction, FUNCTIONS, RENAMED_FUNCTIONS } from '../functions';
import { suggest, typeLabel } from '../schema';
import type { CheckContext } from './context';
import { literalKind } from './describe';
import { operand } from './filter';

export function checkCall(c: CheckContext, call: CallNode, visitArgs = true): ArgType | undefined {
  if (isIfCall(call)) return checkIf(c, call, visitArgs);
  const fn = findFunction(call.name);
  if (visitArgs) for (let i = 0; i < call.args.length; i++) operand(c, call.args[i]);
  if (!fn) {
    if (findAggregate(call.name)) {
      c.report(
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
    c.report(
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
    // Reported for search (a rule drops it) and the call checked on: in a rule it is at home.
    c.report(
      'error',
      fn.documented
        ? `${fn.name} is available in detection rules, not in search`
        : `${fn.name} is a detection rule function (Google's own rules use it), not one of the search functions; in search, re.regex(value, \`^\\Qprefix\\E\`) tests the same`,
      call.nameSpan.start,
      call.nameSpan.end,
      'rules-only',
    );
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
    c.report(
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
      c.report('error', `Argument ${param.name} of ${fn.name} must be a number`, arg.start, arg.end, 'type-mismatch');
    } else if (param.type === 'array' && (lit === 'string' || lit === 'number' || lit === 'bool')) {
      c.report(
        'error',
        `Argument ${param.name} of ${fn.name} is an array: pass a repeated field or a list such as ["a", "b"]`,
        arg.start,
        arg.end,
        'type-mismatch',
      );
    } else if ((param.type === 'string' || param.type === 'bool') && arg.type === 'array') {
      c.report(
        'error',
        `Argument ${param.name} of ${fn.name} is a single ${param.type}, not an array`,
        arg.start,
        arg.end,
        'type-mismatch',
      );
    } else if (param.type === 'string' && lit === 'regex' && !isPatternParam(param.name)) {
      // A /…/ literal is a pattern: Google's rules pass one where a regular expression is taken
      // (re.capture(x, /…/)), nowhere else.
      c.report(
        'error',
        `Argument ${param.name} of ${fn.name} is a string, not a /…/ pattern: write it in quotes ("…" or \`…\`)`,
        arg.start,
        arg.end,
        'type-mismatch',
      );
    }
    if (arg.type === 'field') {
      const facts = c.facts.get(arg);
      if (facts && !facts.unknown && facts.kind === 'message') {
        c.report(
          'error',
          `${facts.key} is a ${typeLabel(facts.type)} message; pass one of its fields`,
          arg.start,
          arg.end,
          'message-compare',
        );
      }
    }
  }
  fn.checkArgs?.(call.args, (message, at, code) => c.report('error', message, at.start, at.end, code), c.options.text);
  return fn.returns;
}

/** `if(condition)` is a bool; `if(condition, then, else)` has the type of its branches. */
export function checkIf(c: CheckContext, call: CallNode, visitArgs: boolean): ArgType | undefined {
  if (visitArgs) for (const a of call.args) operand(c, a);
  const n = call.args.length;
  if (n !== 1 && n !== 3) {
    c.report(
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
    c.report(
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
    c.report(
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

/** Literal arguments of a function a condition calls (a re.regex pattern) get the checks they get elsewhere. */
export function checkConditionCall(c: CheckContext, call: CallNode): void {
  findFunction(call.name)?.checkArgs?.(
    call.args,
    (message, at, code) => c.report('error', message, at.start, at.end, code),
    c.options.text,
  );
}

/** The regular-expression parameters of the re.* functions (`regex`, `replaceRegex`). */
function isPatternParam(name: string): boolean {
  return /regex$/i.test(name);
}
