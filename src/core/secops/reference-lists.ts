// Reference lists (the legacy /v2/lists API beside the Search API): names, content types and the
// checking of lines by content type. Shared by the client, the editor (validation as you type) and
// the sandbox (the server's verification), so all three agree on what a valid line is.
import * as ipaddr from 'ipaddr.js';
import { findRe2Problem } from '../../udm/regex';

export const REFERENCE_LIST_CONTENT_TYPES = ['CONTENT_TYPE_DEFAULT_STRING', 'REGEX', 'CIDR'] as const;
export type ReferenceListContentType = (typeof REFERENCE_LIST_CONTENT_TYPES)[number];

export function isReferenceListContentType(value: unknown): value is ReferenceListContentType {
  return typeof value === 'string' && (REFERENCE_LIST_CONTENT_TYPES as readonly string[]).includes(value);
}

/** Human name of a content type, for views and messages. */
export function contentTypeLabel(type: ReferenceListContentType): string {
  return type === 'REGEX' ? 'Regular expressions' : type === 'CIDR' ? 'CIDR ranges' : 'Strings';
}

/** Names are what a query writes after `%`: letters, digits and underscores. */
export const REFERENCE_LIST_NAME = /^[A-Za-z0-9_]{1,255}$/;

/** Why a list name is unusable, or undefined when it is fine. */
export function checkReferenceListName(name: string): string | undefined {
  if (name.trim() === '') return 'A reference list needs a name.';
  if (name.length > 255) return 'A reference list name has at most 255 characters.';
  if (!REFERENCE_LIST_NAME.test(name))
    return `"${name}" is not a valid list name: use letters, digits and underscores only (queries write it as %name).`;
  return undefined;
}

/** Lines starting with `//` are comments: kept in the list, never matched. */
export function isCommentLine(line: string): boolean {
  return line.trimStart().startsWith('//');
}

/** The entries of a list: its lines without comments and blank lines. */
export function referenceListEntries(lines: readonly string[]): string[] {
  return lines.filter((l) => l.trim() !== '' && !isCommentLine(l));
}

export interface LineError {
  message: string;
  /** Character range inside the line the error is about. */
  start: number;
  end: number;
}

function checkRegex(line: string): LineError | undefined {
  // The engine queries run lists with, so a line the editor accepts is a line a search can use.
  const p = findRe2Problem(line);
  return p && { message: p.message, start: p.index, end: p.index + p.length };
}

function checkCidr(line: string): LineError | undefined {
  const whole = { start: 0, end: line.length };
  const slash = line.indexOf('/');
  if (slash === -1)
    return {
      message: `"${line}" is not a CIDR range: write an address, a slash and a prefix length (10.0.0.0/8, 2001:db8::/32).`,
      ...whole,
    };
  const address = line.slice(0, slash);
  const prefix = line.slice(slash + 1);
  const isV4 = ipaddr.IPv4.isValidFourPartDecimal(address);
  const isV6 = !isV4 && ipaddr.IPv6.isValid(address) && address.includes(':');
  if (!isV4 && !isV6) return { message: `"${address}" is not an IPv4 or IPv6 address.`, start: 0, end: slash };
  const max = isV4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max)
    return {
      message: `The prefix length "${prefix}" must be a number from 0 to ${max} for an IPv${isV4 ? 4 : 6} range.`,
      start: slash + 1,
      end: line.length,
    };
  return undefined;
}

/** The error in one entry (not a comment) for the list's content type, or undefined when it is valid. */
export function checkReferenceListLine(type: ReferenceListContentType, line: string): LineError | undefined {
  if (type === 'REGEX') return checkRegex(line);
  if (type === 'CIDR') return checkCidr(line);
  return undefined;
}

/** A verification error as the API reports it: 1-based line number, -1 for the whole list. */
export interface ReferenceListLineError {
  lineNumber: number;
  errorMessage: string;
}

/** The server-side verification: every entry that is not valid for the type; blank and comment lines pass. */
export function verifyReferenceListLines(
  type: ReferenceListContentType,
  lines: readonly string[],
): ReferenceListLineError[] {
  const errors: ReferenceListLineError[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '' || isCommentLine(line)) return;
    const e = checkReferenceListLine(type, line);
    if (e) errors.push({ lineNumber: i + 1, errorMessage: e.message });
  });
  if (errors.length === 0 && referenceListEntries(lines).length === 0)
    errors.push({
      lineNumber: -1,
      errorMessage: 'The list has no entries: add at least one line that is not a comment.',
    });
  return errors;
}

export interface LineProblem extends LineError {
  /** 0-based line index in the document. */
  line: number;
  severity: 'error' | 'warning';
}

/**
 * Everything the editor shows while a list is edited: errors for invalid entries, warnings for
 * duplicates, blank lines and stray spaces (which would make an exact match fail).
 */
export function lintReferenceList(type: ReferenceListContentType, lines: readonly string[]): LineProblem[] {
  const problems: LineProblem[] = [];
  const seen = new Map<string, number>();
  lines.forEach((line, i) => {
    if (line.trim() === '') {
      // A trailing newline at the end of the document is not a blank entry.
      if (i < lines.length - 1 || line !== '')
        problems.push({
          line: i,
          start: 0,
          end: line.length,
          severity: 'warning',
          message: 'Blank line: it is ignored; remove it.',
        });
      return;
    }
    if (isCommentLine(line)) return;
    const error = checkReferenceListLine(type, line);
    if (error) problems.push({ line: i, severity: 'error', ...error });
    if (line !== line.trim())
      problems.push({
        line: i,
        start: 0,
        end: line.length,
        severity: 'warning',
        message: 'Leading or trailing spaces are part of the entry and will be matched literally.',
      });
    const key = type === 'CIDR' ? line.trim().toLowerCase() : line;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else
      problems.push({
        line: i,
        start: 0,
        end: line.length,
        severity: 'warning',
        message: `Duplicate of line ${first + 1}.`,
      });
  });
  if (referenceListEntries(lines).length === 0)
    problems.push({
      line: 0,
      start: 0,
      end: lines[0]?.length ?? 0,
      severity: 'error',
      message: 'The list has no entries: add at least one line that is not a comment.',
    });
  return problems;
}

/** Splits document text into list lines: CRLF or LF, and the final newline does not add an empty entry. */
export function splitReferenceListText(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function joinReferenceListLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
