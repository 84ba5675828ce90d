// Create or edit a short URL or a campaign with every field the API has, in a side panel: the
// destination, title or name, alias and domain (fixed once made), expiry, goal type; UTM
// parameters with the address a click will reach; Open Graph tags with a live share preview; the
// ad page; the apps and in-app paths phones open; tags, a password, a click limit and where
// clicks go after it or after expiry, a note, the archive; routing rules, an A/B test and their
// tester. A refusal names its field where it can.
// A password is never shown: the editor says the link has one, and offers to change or remove it.
import {
  Accordion,
  Autocomplete,
  Badge,
  Button,
  Checkbox,
  Code,
  Drawer,
  Fieldset,
  Group,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  api,
  fieldErrors,
  type Campaign,
  type CustomDomain,
  type GoalType,
  type MobileApp,
  type Page,
  type ShortUrl,
} from '../api';
import {
  bodyOf,
  destinationWithUtm,
  emptyLinkForm,
  formOfCampaign,
  formOfShortUrl,
  type LinkForm,
  type LinkKind,
  UTM_OF,
} from '../link-form';
import { variantsProblem } from '../routing-form';
import { RoutingEditor } from './RoutingEditor';
import { RoutingTester } from './RoutingTester';
import { SharePreview } from './SharePreview';
import { useTags } from './tags';

export type LinkRecord<K extends LinkKind> = K extends 'url' ? ShortUrl : Campaign;

/** One of the editor's folding sections: its title, and its fields one below the other. */
function EditorSection({
  value,
  label,
  gap = 'xs',
  children,
}: {
  value: string;
  label: string;
  gap?: 'xs' | 'md';
  children: ReactNode;
}) {
  return (
    <Accordion.Item value={value}>
      <Accordion.Control>{label}</Accordion.Control>
      <Accordion.Panel>
        <Stack gap={gap}>{children}</Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

type Platform = 'IOS' | 'ANDROID';
/** Each platform's app and deep-link path: the form's fields and their labels. */
const APP_FIELDS = {
  IOS: { app: 'iosAppId', path: 'iosDeepLinkPath', appLabel: 'editor.iosApp', pathLabel: 'editor.iosPath' },
  ANDROID: {
    app: 'androidAppId',
    path: 'androidDeepLinkPath',
    appLabel: 'editor.androidApp',
    pathLabel: 'editor.androidPath',
  },
} as const satisfies Record<
  Platform,
  { app: keyof LinkForm; path: keyof LinkForm; appLabel: string; pathLabel: string }
>;

export function LinkEditor<K extends LinkKind>({
  kind,
  orgId,
  record,
  readOnly = false,
  onSaved,
  onClose,
}: {
  kind: K;
  orgId: number;
  /** The link being edited; null to make a new one. */
  record: LinkRecord<K> | null;
  /** For a role that may only look: every field shown, none changeable. */
  readOnly?: boolean;
  onSaved: (saved: LinkRecord<K>, created: boolean) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  const editing = record !== null;
  const [form, setForm] = useState<LinkForm>(() =>
    record === null
      ? emptyLinkForm()
      : kind === 'url'
        ? formOfShortUrl(record as ShortUrl)
        : formOfCampaign(record as Campaign),
  );
  const [failure, setFailure] = useState<string | null>(null);

  const apps = useQuery({
    queryKey: ['org', orgId, 'apps'],
    queryFn: () => api<Page<MobileApp>>('GET', `/organizations/${orgId}/mobile-apps?size=100`),
  });
  const domains = useQuery({
    queryKey: ['org', orgId, 'domains'],
    queryFn: () => api<Page<CustomDomain>>('GET', `/organizations/${orgId}/custom-domains?size=100`),
    enabled: !editing,
  });
  const { list: tags } = useTags(orgId);
  const goalTypes = useQuery({
    queryKey: ['org', orgId, 'goal-types'],
    queryFn: () => api<GoalType[]>('GET', `/organizations/${orgId}/goal-types`),
  });

  const path = kind === 'url' ? 'urls' : 'campaigns';
  const save = useMutation({
    mutationFn: () =>
      editing
        ? api<LinkRecord<K>>('PUT', `/organizations/${orgId}/${path}/${record.id}`, bodyOf(kind, form, true))
        : api<LinkRecord<K>>('POST', `/organizations/${orgId}/${path}`, bodyOf(kind, form, false)),
    onSuccess: (saved) => onSaved(saved, !editing),
    onError: (error: Error) => setFailure(error.message),
  });
  const errors = useMemo(() => fieldErrors(save.error), [save.error]);
  const errorOf = (...names: string[]) => names.map((n) => errors[n]).find(Boolean);
  /** The refusal of the field at `path`, or of the first one inside it (routingRules.0.conditions.countries.1). */
  const errorAt = useCallback(
    (path: string) => errors[path] ?? Object.entries(errors).find(([name]) => name.startsWith(`${path}.`))?.[1],
    [errors],
  );
  const updateRouting = useCallback(
    (change: (routing: LinkForm['routing']) => LinkForm['routing']) =>
      setForm((current) => ({ ...current, routing: change(current.routing) })),
    [],
  );
  // The tester reads the form when it runs, so typing in the editor does not render it again.
  const latest = useRef(form);
  latest.current = form;
  const testerInput = useCallback(
    () => ({ originalUrl: latest.current.destination, routing: latest.current.routing }),
    [],
  );

  /** A text field of the form: its value, its change, and the server's refusal of it, found under the
   * field's own name or, where the API calls it otherwise, under the names given. */
  const field = (name: keyof LinkForm, ...apiNames: string[]) => ({
    value: form[name] as string,
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
    error: errorOf(...(apiNames.length > 0 ? apiNames : [name])),
  });
  /** An optional https address of the link's (where clicks go in some case, an image), its refusal beside it. */
  const urlField = (name: keyof LinkForm, label: string, hint?: string) => (
    <TextInput
      type="url"
      label={t(label)}
      description={hint && t(hint)}
      placeholder="https://"
      {...field(name)}
      maxLength={1000}
    />
  );
  /** An on/off field of the form, with its explanation and the refusal of that field, if any. */
  const switchField = (name: 'conversionTracking' | 'showAdPage' | 'archived', label: string, hint: string) => (
    <Switch
      label={t(label)}
      description={t(hint)}
      checked={form[name]}
      onChange={(e) => setForm({ ...form, [name]: e.currentTarget.checked })}
      error={errorOf(name)}
    />
  );
  /** A platform's app, one of the organization's registered ones, and the path the link opens in it. */
  const appFields = (platform: Platform) => {
    const { app, path, appLabel, pathLabel } = APP_FIELDS[platform];
    return (
      <Group grow align="flex-start">
        <Select
          label={t(appLabel)}
          data={(apps.data?.content ?? [])
            .filter((a) => a.platform === platform)
            .map((a) => ({ value: String(a.id), label: `${a.appName} (${a.bundleId})` }))}
          value={form[app] || null}
          onChange={(v) => setForm({ ...form, [app]: v ?? '' })}
          clearable
          error={errorOf(app)}
        />
        <TextInput label={t(pathLabel)} placeholder="product/42" {...field(path)} maxLength={500} />
      </Group>
    );
  };
  const usableDomains = (domains.data?.content ?? []).filter((d) => d.status === 'VERIFIED' || d.status === 'ACTIVE');
  const utmFields = UTM_OF[kind];
  const reached = destinationWithUtm(form.destination, form, utmFields);
  const protectedNow = record?.passwordProtected === true;
  const remaining = record?.remainingClicks ?? null;
  const shortAddress = record
    ? kind === 'url'
      ? (record as ShortUrl).shortUrl
      : (record as Campaign).campaignUrl
    : '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (variantsProblem(form.routing.variants)) {
      setFailure(t('routing.weightsBlock'));
      return;
    }
    save.mutate();
  };

  const title = t(`editor.${readOnly ? 'view' : editing ? 'edit' : 'create'}.${kind}`);
  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'xl'}
      title={title}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form onSubmit={submit} noValidate>
        <Fieldset disabled={readOnly} variant="unstyled">
          <Stack gap="sm">
            {readOnly && (
              <Text size="sm" c="dimmed">
                {t('links.readOnly')}
              </Text>
            )}
            {editing && <Code data-testid="editing-address">{shortAddress}</Code>}
            <TextInput
              type="url"
              required
              label={t('links.destination')}
              placeholder="https://"
              {...field('destination', 'url', 'originalUrl')}
              maxLength={1000}
            />
            <TextInput
              required={kind === 'campaign'}
              label={t(kind === 'url' ? 'links.title' : 'campaigns.name')}
              {...field('title', 'title', 'name')}
              maxLength={kind === 'url' ? 200 : 50}
            />
            <Group grow align="flex-start">
              <TextInput
                label={t('links.alias')}
                description={editing ? t('editor.fixed') : t('editor.aliasHint')}
                {...field('alias', 'customAlias', 'alias')}
                disabled={editing}
                maxLength={50}
              />
              <Select
                label={t('editor.domain')}
                description={editing ? t('editor.fixed') : undefined}
                placeholder={t('editor.defaultDomain')}
                data={
                  editing
                    ? form.customDomainName
                      ? [form.customDomainName]
                      : []
                    : usableDomains.map((d) => d.domainName)
                }
                value={form.customDomainName || null}
                onChange={(v) => setForm({ ...form, customDomainName: v ?? '' })}
                disabled={editing || usableDomains.length === 0}
                clearable
                error={errorOf('customDomainName')}
              />
            </Group>
            <Group grow align="flex-start">
              <TextInput
                type="datetime-local"
                label={t('editor.expires')}
                description={t('editor.expiresHint')}
                {...field('expiresLocal', 'expirationDate', 'expiresAt')}
              />
              <Autocomplete
                label={t('editor.goalType')}
                description={t('editor.goalTypeHint')}
                data={(goalTypes.data ?? []).map((g) => g.name)}
                value={form.goalType}
                onChange={(v) => setForm({ ...form, goalType: v })}
                maxLength={50}
                error={errorOf('goalType')}
              />
            </Group>
            <TagsInput
              label={t('editor.tags')}
              description={t('editor.tagsHint')}
              data={(tags.data?.items ?? []).map((tag) => tag.name)}
              value={form.tags}
              onChange={(v) => setForm({ ...form, tags: v })}
              clearable
              error={errorOf('tags')}
            />
            <Textarea label={t('editor.note')} {...field('note')} maxLength={2000} autosize minRows={2} />

            <Accordion
              multiple
              variant="separated"
              defaultValue={[
                'utm',
                'access',
                ...(form.routing.rules.length + form.routing.variants.length > 0 ? ['routing'] : []),
              ]}
            >
              <EditorSection value="access" label={t('editor.access')}>
                {protectedNow && (
                  <Group gap="xs">
                    <Badge color="teal" variant="light" data-testid="password-protected">
                      {t('editor.protected')}
                    </Badge>
                    <Checkbox
                      label={t('editor.removePassword')}
                      checked={form.removePassword}
                      onChange={(e) => setForm({ ...form, removePassword: e.currentTarget.checked })}
                    />
                  </Group>
                )}
                <PasswordInput
                  label={t(protectedNow ? 'editor.newPassword' : 'editor.password')}
                  description={t(protectedNow ? 'editor.newPasswordHint' : 'editor.passwordHint')}
                  {...field('password')}
                  disabled={form.removePassword}
                  autoComplete="new-password"
                  minLength={4}
                  maxLength={128}
                />
                <Group grow align="flex-start">
                  <TextInput
                    type="number"
                    min={1}
                    step={1}
                    label={t('editor.clickLimit')}
                    description={
                      remaining === null ? t('editor.clickLimitHint') : t('editor.remaining', { count: remaining })
                    }
                    {...field('clickLimit')}
                  />
                  {urlField('clickLimitUrl', 'editor.clickLimitUrl', 'editor.clickLimitUrlHint')}
                </Group>
                {urlField('expiredUrl', 'editor.expiredUrl', 'editor.expiredUrlHint')}
              </EditorSection>

              <EditorSection value="utm" label={t('editor.utm')}>
                <Group grow wrap="wrap">
                  {utmFields.map((name) => (
                    <TextInput
                      key={name}
                      label={`utm_${name.slice(3).toLowerCase()}`}
                      {...field(name)}
                      maxLength={100}
                      miw={140}
                    />
                  ))}
                </Group>
                <Text size="sm" c="dimmed">
                  {t('editor.reaches')}
                </Text>
                <Code data-testid="utm-destination" style={{ overflowWrap: 'anywhere' }}>
                  {reached ?? '—'}
                </Code>
              </EditorSection>

              {kind === 'url' && (
                <EditorSection value="og" label={t('editor.og')}>
                  <TextInput label={t('editor.ogTitle')} {...field('ogTitle')} maxLength={200} />
                  <Textarea
                    label={t('editor.ogDescription')}
                    {...field('ogDescription')}
                    maxLength={500}
                    autosize
                    minRows={2}
                  />
                  {urlField('ogImageUrl', 'editor.ogImageUrl')}
                  <SharePreview
                    title={form.ogTitle || form.title}
                    description={form.ogDescription}
                    imageUrl={form.ogImageUrl}
                    shortUrl={shortAddress}
                    destination={form.destination}
                  />
                </EditorSection>
              )}

              <EditorSection value="routing" label={t('routing.section')} gap="md">
                <RoutingEditor
                  value={form.routing}
                  update={updateRouting}
                  destination={form.destination}
                  errorAt={errorAt}
                  readOnly={readOnly}
                />
                <RoutingTester orgId={orgId} linkId={record?.id} input={testerInput} />
              </EditorSection>

              <EditorSection value="mobile" label={t('editor.mobile')}>
                {apps.data && apps.data.content.length === 0 && (
                  <Text size="sm" c="dimmed">
                    {t('editor.noApps')}
                  </Text>
                )}
                {appFields('IOS')}
                {appFields('ANDROID')}
                {kind === 'url' && urlField('mobileTargetUrl', 'editor.mobileTarget', 'editor.mobileTargetHint')}
              </EditorSection>
            </Accordion>

            {switchField('conversionTracking', 'editor.conversionTracking', 'editor.conversionTrackingHint')}
            {kind === 'url' && switchField('showAdPage', 'editor.adPage', 'editor.adPageHint')}
            {switchField('archived', 'editor.archived', 'editor.archivedHint')}
          </Stack>
        </Fieldset>
        <Stack gap="sm" mt="sm">
          {failure && (
            <Text c="red" role="alert" data-testid="editor-error">
              {failure}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t(readOnly ? 'close' : 'editor.cancel')}
            </Button>
            {!readOnly && (
              <Button type="submit" loading={save.isPending}>
                {t(editing ? 'editor.save' : 'links.createButton')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}
