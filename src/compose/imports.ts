// Wiring of imports: the jobs' repository, the guarded HTTP client the sources read with, the
// runner (worker instances only) and the sink that writes each imported link through the short URL
// service, after the same checks the Service API's create makes of a destination and an alias.
import { createImportsService, type ImportsService } from '../core/imports/index.js';
import { createGuardedGet } from '../core/imports/guarded-get.js';
import { createImportRunner, type ImportRunner, type ImportSink } from '../core/imports/import-runner.js';
import type { SourceName } from '../core/imports/import-source.js';
import { SOURCES } from '../core/imports/source-registry.js';
import type { ShortUrlService } from '../core/links/short-urls.js';
import { MAX_TAGS_PER_LINK } from '../core/links/tags.service.js';
import { aliasSchema, httpsUrlSchema } from '../api/schemas/link.js';
import { createImportJobsRepo } from '../oltp/import-jobs.repo.js';
import { inputFaultOf } from '../oltp/sql-helpers.js';
import type { Config } from '../shared/config.js';
import { isDomainError } from '../shared/errors.js';
import { systemResolve } from '../shared/webhook-url.js';
import type { Wiring } from './wiring.js';

/** The longest title a short URL keeps (as the Service API allows). */
const TITLE_MAX = 200;
const TAG_NAME_MAX = 50;

export interface ComposedImports {
  service: ImportsService;
  /** Runs the jobs; started on worker instances once the app is up, stopped before the stores close. */
  runner: ImportRunner;
}

/** Writes imported links one by one through the short URL service: each gets its own outcome. */
function createShortUrlSink(shortUrls: Pick<ShortUrlService, 'create'>, config: Pick<Config, 'security'>): ImportSink {
  const destination = httpsUrlSchema({
    production: config.security.production,
    allowPrivate: config.security.linkAllowPrivateTargets,
  });
  return {
    async createMany(caller, links) {
      const outcomes: Array<{ id: number } | { error: string }> = [];
      for (const link of links) {
        if (link.passwordProtected) {
          outcomes.push({
            error:
              'it asks for a password, which cannot be read or carried over: not imported, so that it does not open to everyone',
          });
          continue;
        }
        const url = destination.safeParse(link.originalUrl);
        if (!url.success) {
          outcomes.push({
            error: `the destination ${link.originalUrl} ${url.error.issues[0]?.message ?? 'is refused'}`,
          });
          continue;
        }
        const alias = link.customAlias === undefined ? undefined : aliasSchema.safeParse(link.customAlias);
        if (alias && !alias.success) {
          outcomes.push({ error: `the alias ${link.customAlias} ${alias.error.issues[0]?.message ?? 'is refused'}` });
          continue;
        }
        try {
          const created = await shortUrls.create(caller, {
            originalUrl: url.data,
            ...(alias ? { customAlias: alias.data } : {}),
            title: link.title ? link.title.slice(0, TITLE_MAX) : null,
            expiresAt: link.expiresAt ?? null,
            // Tags and click caps come along; names past the limits are cut, not refused.
            tags: link.tags.map((tag) => tag.trim().slice(0, TAG_NAME_MAX)).slice(0, MAX_TAGS_PER_LINK),
            clickLimit: link.clickLimit ?? null,
          });
          outcomes.push({ id: created.id });
        } catch (err) {
          if (isDomainError(err) && err.code === 'ALIAS_TAKEN') {
            outcomes.push({ error: `the alias ${link.customAlias} is already taken by another link` });
          } else if (isDomainError(err)) {
            outcomes.push({ error: err.message });
          } else {
            const fault = inputFaultOf(err);
            if (!fault) throw err;
            outcomes.push({ error: fault.message.replace('in the request', 'of this link') });
          }
        }
      }
      return outcomes;
    },
  };
}

export function composeImports(
  ctx: Pick<Wiring, 'sql' | 'secretBox' | 'log'> & {
    config: Pick<Config, 'imports' | 'security'>;
    repos: Pick<Wiring['repos'], 'organizations'>;
    shortUrls: Pick<ShortUrlService, 'create'>;
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
      SOURCES[job.source as SourceName].create({ baseUrl: new URL(job.baseUrl), token, options: job.options, get }),
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
