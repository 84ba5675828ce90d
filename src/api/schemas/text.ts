// What text and free-form JSON the API accepts. Text that PostgreSQL cannot store (NUL) or that
// ClickHouse refuses (a lone UTF-16 surrogate, which has no UTF-8 form) must stop at the edge with
// a 400 naming the field; past the edge it fails a whole batch or a query for everyone.
// input-guard.ts applies the general rule to every string of every request; the zod helpers here
// add the stricter single-line rule and the bounds of free-form objects where a schema asks.
import { z } from 'zod';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** C0 controls except tab, newline and carriage return. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
/** Every control character (C0, DEL, C1) and the Unicode line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job
const CONTROL_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export const TEXT_MESSAGES = {
  surrogate: 'must be valid Unicode text (it holds a lone UTF-16 surrogate)',
  control: 'must not contain NUL or control characters (tab, newline and carriage return are allowed)',
  line: 'must be a single line without control characters',
} as const;

/** Why `value` is not acceptable text, or undefined when it is. */
const CONTROL_IN_LINE_ALL = new RegExp(CONTROL_IN_LINE.source, 'g');
const LONE_SURROGATE_ALL = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * Text the service takes as it comes rather than refusing (a link's click parameters: the click
 * must still redirect), made safe to store: control characters dropped, lone surrogates replaced.
 */
export const cleanLine = (value: string) =>
  value.replace(CONTROL_IN_LINE_ALL, '').replace(LONE_SURROGATE_ALL, '\ufffd');

export const isWellFormedText = (value: string) => !LONE_SURROGATE.test(value);

export function textProblem(value: string, singleLine: boolean): string | undefined {
  if (LONE_SURROGATE.test(value)) return TEXT_MESSAGES.surrogate;
  if (singleLine) return CONTROL_IN_LINE.test(value) ? TEXT_MESSAGES.line : undefined;
  return CONTROL_IN_TEXT.test(value) ? TEXT_MESSAGES.control : undefined;
}

/**
 * The single-line rule on a string schema: ids, aliases, names, event types, tokens, anything
 * that is one line by nature (no newline or tab either). Checked after the schema's own checks.
 */
export function singleLine<T extends z.ZodType<string | null | undefined>>(schema: T) {
  return schema.superRefine((value, ctx) => {
    if (typeof value !== 'string') return;
    const problem = textProblem(value, true);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}

export interface JsonBounds {
  /** Levels of nesting, the object itself being 1. */
  maxDepth: number;
  /** Keys and array items, all levels together. */
  maxNodes: number;
  /** Length of its JSON text. */
  maxBytes: number;
}

/** What free-form objects (event properties, device info) may hold. */
const FREE_FORM_BOUNDS: JsonBounds = { maxDepth: 8, maxNodes: 1_000, maxBytes: 16_384 };

/**
 * Why a JSON value breaks `bounds`, or undefined. Iterative, so a value nested thousands of levels
 * deep is measured without a stack overflow; depth and node count are checked before JSON.stringify
 * (which recurses) ever sees the value.
 */
export function jsonBoundsProblem(value: unknown, bounds: JsonBounds): string | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > bounds.maxDepth) return `must be nested at most ${bounds.maxDepth} levels deep`;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    nodes += children.length;
    if (nodes > bounds.maxNodes) return `must hold at most ${bounds.maxNodes} keys and items`;
    for (const child of children) stack.push([child, depth + 1]);
  }
  if (JSON.stringify(value).length > bounds.maxBytes) return `must be at most ${bounds.maxBytes} bytes of JSON`;
  return undefined;
}

/** A zod refinement enforcing `bounds` on whatever JSON the schema holds. */
export function withinJsonBounds(bounds: JsonBounds = FREE_FORM_BOUNDS) {
  return (value: unknown, ctx: z.RefinementCtx) => {
    const problem = jsonBoundsProblem(value, bounds);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };
}

/** Any JSON object, bounded: keys up to 100 characters, depth, key count and size capped. */
export function freeFormObject(bounds: JsonBounds = FREE_FORM_BOUNDS) {
  return z
    .record(singleLine(z.string().max(100, 'keys must be at most 100 characters')), z.unknown())
    .superRefine(withinJsonBounds(bounds));
}
