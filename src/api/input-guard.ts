// The edge's text rule for every route, present and future: one hook that walks the parsed body,
// the query string and the path parameters once, before schema validation, and refuses with a 400
// naming the field: a lone UTF-16 surrogate or NUL/C0 control characters anywhere; in object keys,
// query values and path parameters no control character at all (they are single-line by nature);
// and a body nested deeper than MAX_BODY_DEPTH, before anything recursive (validation, handlers,
// JSON.stringify) touches it. The walk is iterative, so depth itself cannot overflow the stack.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid } from '../shared/errors.js';
import { isWellFormedText, textProblem } from './schemas/text.js';

/** Our own schemas nest a few levels; free-form objects are bounded tighter by their schemas. */
const MAX_BODY_DEPTH = 32;

interface Frame {
  value: unknown;
  depth: number;
  key: string | number | undefined;
  parent: Frame | undefined;
}

function fieldOf(part: string, frame: Frame | undefined, extra?: string): string {
  const keys: Array<string | number> = [];
  for (let f = frame; f && f.key !== undefined; f = f.parent) keys.push(f.key);
  return [part, ...keys.reverse(), ...(extra === undefined ? [] : [extra])].join('.');
}

/** A key as a field name in a message: readable, whatever it holds. */
const shownKey = (key: string) =>
  isWellFormedText(key) && !/[^\x20-\x7e]/.test(key) && key.length <= 40
    ? key
    : JSON.stringify(key.slice(0, 40)).slice(1, -1);

/**
 * The first problem in `root` as "<part>.<field>: <what is wrong>", or undefined. `singleLine`
 * applies the strict rule to string values as well as keys (query strings and path parameters).
 */
export function findInputProblem(
  part: string,
  root: unknown,
  singleLine: boolean,
  maxDepth = MAX_BODY_DEPTH,
): string | undefined {
  const stack: Frame[] = [{ value: root, depth: 0, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value } = frame;
    if (typeof value === 'string') {
      const problem = textProblem(value, singleLine);
      if (problem) return `${fieldOf(part, frame)}: ${problem}`;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (frame.depth >= maxDepth) return `${fieldOf(part, frame)}: is nested too deeply (at most ${maxDepth} levels)`;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], depth: frame.depth + 1, key: i, parent: frame });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const problem = textProblem(key, true);
      if (problem) return `${fieldOf(part, frame, shownKey(key))}: the key ${problem}`;
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

function checkRequestInput(
  request: Pick<FastifyRequest, 'body' | 'query' | 'params' | 'routeOptions'>,
): string | undefined {
  return (
    findInputProblem('params', request.params, true) ??
    (request.routeOptions.config?.cleansOwnQuery ? undefined : findInputProblem('querystring', request.query, true)) ??
    findInputProblem('body', request.body, false)
  );
}

/** Registers the hook on the root instance: every route registered after it inherits it. */
export function registerInputGuard(app: FastifyInstance): void {
  // Callback style: this runs on every routed request.
  app.addHook('preValidation', (request, _reply, done) => {
    const problem = checkRequestInput(request);
    done(problem === undefined ? undefined : invalid('VALIDATION_FAILED', problem));
  });
}
