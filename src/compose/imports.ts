// Wiring of imports: the jobs' repository, the guarded HTTP client the sources read with, the
// runner (worker instances only) and the sink that writes imported links through the short URL
// service's bulk create, after the same checks the Service API's create makes of a destination and an alias.
import { createImportsService, type ImportsService } from '../core/imports/index.js';
import { createGuardedGet } from '../core/imports/guarded-get.js';
import { createImportRunner, type ImportRunner, type ImportSink } from '../core/imports/import-runner.js';
import type { ImportedLink, SourceName } from '../core/imports/import-source.js';
import { createCsvSource } from '../core/imports/sources/csv.js';
import { SOURCES } from '../core/imports/source-registry.js';
import type { NewShortUrl, ShortUrlService } from '../core/links/short-urls.js';
import { MAX_TAGS_PER_LINK } from '../core/links/tags.service.js';
import { aliasSchema, httpsUrlSchema } from '../api/schemas/link.js';
import { createImportJobsRepo } from '../oltp/import-jobs.repo.js';
import type { Config } from '../shared/config.js';
import { systemResolve } from '../shared/webhook-url.js';
import type { Wiring } from './wiring.js';

/** The longest title a short URL keeps (as the Service API allows). */
const TITLE_MAX = 200;
const TAG_NAME_MAX = 50;
const NOTE_MAX = 2000;
/** The longest link password the Service API takes; a shorter one than it asks of a new link is kept as it was. */
const PASSWORD_MAX = 128;

export interface ComposedImports {
  service: ImportsService;
  /** Runs the jobs; started on worker instances once the app is up, stopped before the stores close. */
  runner: ImportRunner;
}

/**
 * Writes imported links through the short URL service's bulk create (the rules of a create, a page
 * in a few multi-row inserts); each link gets its own outcome.
 */
function createShortUrlSink(
  shortUrls: Pick<ShortUrlService, 'createManyIds'>,
  config: Pick<Config, 'security'>,
): ImportSink {
  const destination = httpsUrlSchema({
    production: config.security.production,
    allowPrivate: config.security.linkAllowPrivateTargets,
  });
  /** A link as a create's input, or why it is not imported. */
  function inputOf(link: ImportedLink): NewShortUrl | { error: string } {
    if (link.refused) return { error: link.refused };
    if (link.passwordProtected)
      return {
        error:
          'it asks for a password, which cannot be read or carried over: not imported, so that it does not open to everyone',
      };
    if (link.password !== undefined && link.password.length > PASSWORD_MAX)
      return {
        error: `its password is longer than ${PASSWORD_MAX} characters: not imported, so that it does not open to everyone`,
      };
    const url = destination.safeParse(link.originalUrl);
    if (!url.success)
      return { error: `the destination ${link.originalUrl} ${url.error.issues[0]?.message ?? 'is refused'}` };
    const alias = link.customAlias === undefined ? undefined : aliasSchema.safeParse(link.customAlias);
    if (alias && !alias.success)
      return { error: `the alias ${link.customAlias} ${alias.error.issues[0]?.message ?? 'is refused'}` };
    return {
      originalUrl: url.data,
      ...(alias ? { customAlias: alias.data } : {}),
      title: link.title ? link.title.slice(0, TITLE_MAX) : null,
      expiresAt: link.expiresAt ?? null,
      // Tags and click caps come along; names past the limits are cut, not refused.
      tags: link.tags.map((tag) => tag.trim().slice(0, TAG_NAME_MAX)).slice(0, MAX_TAGS_PER_LINK),
      clickLimit: link.clickLimit ?? null,
      ...(link.note ? { note: link.note.slice(0, NOTE_MAX) } : {}),
      ...(link.password ? { password: link.password } : {}),
      ...(link.conversionTracking ? { conversionTracking: true } : {}),
    };
  }
  return {
    async createMany(caller, links) {
      const outcomes: Array<{ id: number } | { error: string }> = new Array(links.length);
      const accepted: Array<{ at: number; input: NewShortUrl }> = [];
      links.forEach((link, at) => {
        const input = inputOf(link);
        if ('error' in input) outcomes[at] = input;
        else accepted.push({ at, input });
      });
      const created =
        accepted.length === 0
          ? []
          : await shortUrls.createManyIds(
              caller,
              accepted.map((a) => a.input),
            );
      created.forEach((result, n) => {
        const { at, input } = accepted[n]!;
        if (!('error' in result)) outcomes[at] = { id: result.id };
        else if (result.error.code === 'ALIAS_TAKEN')
          outcomes[at] = { error: `the alias ${input.customAlias} is already taken by another link` };
        else outcomes[at] = { error: result.error.message.replace('in the request', 'of this link') };
      });
      return outcomes;
    },
  };
}

export function composeImports(
  ctx: Pick<Wiring, 'sql' | 'secretBox' | 'log'> & {
    config: Pick<Config, 'imports' | 'security'>;
    repos: Pick<Wiring['repos'], 'organizations'>;
    shortUrls: Pick<ShortUrlService, 'createManyIds'>;
  },
): ComposedImports {
  const { config, sql, secretBox, log } = ctx;
  const { allowInsecure, pollMs, timeoutMs, concurrency } = config.imports;
  const repo = createImportJobsRepo({ sql });
  const get = createGuardedGet({ allowInsecure, resolve: systemResolve, timeoutMs });
  const runner = createImportRunner({
    repo,
    secretBox,
    organizations: ctx.repos.organizations,
    sourceOf: (job, token) =>
      job.source === 'csv'
        ? createCsvSource(job, repo.rowsAt)
        : SOURCES[job.source as SourceName].create({ baseUrl: new URL(job.baseUrl), token, options: job.options, get }),
    sink: createShortUrlSink(ctx.shortUrls, config),
    log,
    pollMs,
    concurrency,
  });
  const service = createImportsService({
    repo,
    secretBox,
    resolve: systemResolve,
    allowInsecure,
    organizations: ctx.repos.organizations,
    nudge: () => runner.nudge(),
  });
  return { service, runner };
}
