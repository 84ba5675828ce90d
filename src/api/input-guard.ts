// The edge's text rule for every route, present and future: one hook that walks the parsed body,
// the query string and the path parameters once, before schema validation, and refuses with a 400
// naming the field: a lone UTF-16 surrogate or NUL/C0 control characters anywhere; in object keys,
// query values and path parameters no control character at all (they are single-line by nature);
// percent-encoded bytes in the query that are not UTF-8; an array of more than MAX_ARRAY_ITEMS;
// and a body nested deeper than MAX_BODY_DEPTH, before anything recursive (validation, handlers,
// JSON.stringify) touches it. The walk is iterative, so depth itself cannot overflow the stack.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidRequestField, type RequestPart } from './schemas/field-errors.js';
import { isWellFormedText, textProblem } from './schemas/text.js';

/** Our own schemas nest a few levels; free-form objects are bounded tighter by their schemas. */
const MAX_BODY_DEPTH = 32;
/**
 * No array of a request holds more, whatever its schema says (bulk bodies take 1,000 items): a
 * list the schema forgot to bound is refused here, before it is validated item by item or stored.
 */
const MAX_ARRAY_ITEMS = 10_000;

interface Frame {
  value: unknown;
  depth: number;
  key: string | number | undefined;
  parent: Frame | undefined;
}

/** The dotted path of a frame's value within its part (`routingRules.0.url`); empty for the part itself. */
function fieldOf(frame: Frame | undefined, extra?: string): string {
  const keys: Array<string | number> = [];
  for (let f = frame; f && f.key !== undefined; f = f.parent) keys.push(f.key);
  return [...keys.reverse(), ...(extra === undefined ? [] : [extra])].join('.');
}

export interface InputProblem {
  /** Dotted path within the part; empty when the part itself is at fault. */
  field: string;
  problem: string;
}

/** A key as a field name in a message: readable, whatever it holds. */
const shownKey = (key: string) =>
  isWellFormedText(key) && !/[^\x20-\x7e]/.test(key) && key.length <= 40
    ? key
    : JSON.stringify(key.slice(0, 40)).slice(1, -1);

/**
 * The first problem in `root`: the field and what is wrong with it, or undefined. `singleLine`
 * applies the strict rule to string values as well as keys (query strings and path parameters).
 */
export function findInputProblem(
  root: unknown,
  singleLine: boolean,
  maxDepth = MAX_BODY_DEPTH,
): InputProblem | undefined {
  const stack: Frame[] = [{ value: root, depth: 0, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value } = frame;
    if (typeof value === 'string') {
      const problem = textProblem(value, singleLine);
      if (problem) return { field: fieldOf(frame), problem };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (frame.depth >= maxDepth)
      return { field: fieldOf(frame), problem: `is nested too deeply (at most ${maxDepth} levels)` };
    if (Array.isArray(value)) {
      if (value.length > MAX_ARRAY_ITEMS)
        return { field: fieldOf(frame), problem: `has ${value.length} items (at most ${MAX_ARRAY_ITEMS})` };
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], depth: frame.depth + 1, key: i, parent: frame });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const problem = textProblem(key, true);
      if (problem) return { field: fieldOf(frame, shownKey(key)), problem: `the key ${problem}` };
      stack.push({
        value: (value as Record<string, unknown>)[key],
        depth: frame.depth + 1,
        key: shownKey(key),
        parent: frame,
      });
    }
  }
  return undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route reads its query string itself and cleans what it keeps (the redirect: a link
     * opened with odd click parameters must still redirect), so the guard leaves the query alone.
     */
    cleansOwnQuery?: boolean;
  }
}

/**
 * The first query parameter whose percent-encoded bytes are not UTF-8 (`%ED%A0%80`, a surrogate's
 * bytes): the parser would hand it on as other text, where the same bytes in the path are refused.
 */
function malformedQueryField(url: string): string | undefined {
  const at = url.indexOf('?');
  if (at < 0 || !url.includes('%', at)) return undefined;
  for (const pair of url.slice(at + 1).split('&')) {
    if (!pair.includes('%')) continue;
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    try {
      decodeURIComponent(pair.replace(/\+/g, ' '));
    } catch {
      let shown = name;
      try {
        shown = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // The name itself is broken: shown as sent.
      }
      return shownKey(shown);
    }
  }
  return undefined;
}

/** The first refused field of a request, as the error the client gets; undefined when all is well. */
function checkRequestInput(
  request: Pick<FastifyRequest, 'body' | 'query' | 'params' | 'routeOptions' | 'url'>,
): Error | undefined {
  if (!request.routeOptions.config?.cleansOwnQuery) {
    const field = malformedQueryField(request.url);
    if (field !== undefined)
      return invalidRequestField(
        'querystring',
        field,
        'must be valid UTF-8 text (percent-encoded bytes that are not UTF-8)',
      );
  }
  const parts: Array<[RequestPart, unknown, boolean]> = [
    ['params', request.params, true],
    ['querystring', request.routeOptions.config?.cleansOwnQuery ? undefined : request.query, true],
    ['body', request.body, false],
  ];
  for (const [part, value, singleLine] of parts) {
    const found = findInputProblem(value, singleLine);
    if (found) return invalidRequestField(part, found.field, found.problem);
  }
  return undefined;
}

/** Registers the hook on the root instance: every route registered after it inherits it. */
export function registerInputGuard(app: FastifyInstance): void {
  // Callback style: this runs on every routed request.
  app.addHook('preValidation', (request, _reply, done) => {
    done(checkRequestInput(request));
  });
}
