// The routing tester: "a visitor from [country] on [device, system, browser] coming from
// [referrer] speaking [language] at [time] with [query] goes to …". The answer is the server's (POST /routing/test), decided by the
// redirect's own routing over the rules and variants in the editor, saved or not.
import { Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { memo, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../api';
import type { operations } from '../../generated/api-schema';
import { countryOptions, languageOptions } from '../locale-names';
import { instantOf } from '../local-time';
import { type RoutingForm, routingBody, variantName } from '../routing-form';
import { BROWSERS, DEVICE_TYPES, OPERATING_SYSTEMS } from './RoutingEditor';

type TestOperation = operations['consoleTestRouting'];
type TestBody = TestOperation['requestBody']['content']['application/json'];
type TestAnswer = TestOperation['responses'][200]['content']['application/json'];

export const RoutingTester = memo(function RoutingTester({
  orgId,
  linkId,
  input,
}: {
  orgId: number;
  /** The link being edited (its id keeps the variant choice as on the redirect); none for a new one. */
  linkId: number | undefined;
  /** The destination and routing in the editor when the test runs (stable: the tester renders on its own). */
  input: () => { originalUrl: string; routing: RoutingForm };
}) {
  const { t, i18n } = useTranslation();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const languages = useMemo(() => languageOptions(i18n.language), [i18n.language]);
  const [visitor, setVisitor] = useState({
    country: '',
    deviceType: '',
    os: '',
    browser: '',
    referrer: '',
    language: '',
    at: '',
    query: '',
  });
  const set = (name: keyof typeof visitor) => (v: string | null) => setVisitor((cur) => ({ ...cur, [name]: v ?? '' }));

  const test = useMutation({
    mutationFn: () => {
      const { originalUrl, routing } = input();
      const at = instantOf(visitor.at);
      const query = Object.fromEntries(new URLSearchParams(visitor.query.trim().replace(/^\?/, '')));
      const body: TestBody = {
        ...(linkId === undefined ? {} : { linkId }),
        originalUrl: originalUrl.trim(),
        ...routingBody(routing),
        visitor: {
          ...(visitor.country ? { country: visitor.country } : {}),
          ...(visitor.deviceType ? { deviceType: visitor.deviceType as TestBody['visitor']['deviceType'] } : {}),
          ...(visitor.os ? { os: visitor.os as TestBody['visitor']['os'] } : {}),
          ...(visitor.browser ? { browser: visitor.browser as TestBody['visitor']['browser'] } : {}),
          ...(visitor.referrer.trim() ? { referrer: visitor.referrer.trim() } : {}),
          ...(visitor.language ? { language: visitor.language } : {}),
          ...(at ? { at: at.toISOString() } : {}),
          ...(Object.keys(query).length > 0 ? { query } : {}),
        },
      };
      return api<TestAnswer>('POST', `/organizations/${orgId}/routing/test`, body);
    },
  });

  /** One trait of the visitor from a list; left empty, the server works it out or leaves it out. */
  const one = (
    name: 'country' | 'language' | 'deviceType' | 'os' | 'browser',
    label: string,
    data: Array<{ value: string; label: string }>,
    searchable: boolean,
  ) => (
    <Select
      label={t(label)}
      data={data}
      value={visitor[name] || null}
      onChange={set(name)}
      searchable={searchable}
      clearable
      nothingFoundMessage="—"
    />
  );
  /** One trait of the visitor as typed; left empty, it is not sent. */
  const typed = (name: 'referrer' | 'query', label: string, placeholder: string, maxLength: number) => (
    <TextInput
      label={t(label)}
      placeholder={placeholder}
      value={visitor[name]}
      onChange={(e) => set(name)(e.currentTarget.value)}
      maxLength={maxLength}
    />
  );
  const routeName = (route: string) => {
    const [kind, position] = route.split(':');
    const n = Number(position);
    if (kind === 'rule') return t('routing.route.rule', { n: n + 1 });
    if (kind === 'variant') return t('routing.route.variant', { name: variantName(n) });
    return t('routing.route.original');
  };
  const refusal = test.error instanceof ApiError && test.error.details.length > 0 ? test.error.details : null;

  return (
    <Card withBorder padding="sm" component="section" aria-label={t('routing.tester')}>
      <Stack gap="xs">
        <Title order={4} size="h6">
          {t('routing.tester')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('routing.testerHint')}
        </Text>
        <Group grow align="flex-start">
          {one('country', 'routing.visitorCountry', countries, true)}
          {one('language', 'routing.visitorLanguage', languages, true)}
        </Group>
        <Group grow align="flex-start">
          {one(
            'deviceType',
            'routing.visitorDevice',
            DEVICE_TYPES.map((d) => ({ value: d, label: t(`routing.device.${d}`) })),
            false,
          )}
          {one(
            'os',
            'routing.visitorOs',
            OPERATING_SYSTEMS.map((o) => ({ value: o, label: t(`routing.osName.${o}`) })),
            false,
          )}
        </Group>
        <Group grow align="flex-start">
          {one(
            'browser',
            'routing.visitorBrowser',
            BROWSERS.map((b) => ({ value: b, label: b })),
            true,
          )}
          {typed('referrer', 'routing.visitorReferrer', 'https://t.co/…', 2000)}
        </Group>
        <Group grow align="flex-start">
          <TextInput
            type="datetime-local"
            label={t('routing.visitorAt')}
            description={t('routing.visitorAtHint')}
            value={visitor.at}
            onChange={(e) => set('at')(e.currentTarget.value)}
          />
          {typed('query', 'routing.visitorQuery', 'promo=spring', 1000)}
        </Group>
        <Group>
          <Button variant="light" size="xs" loading={test.isPending} onClick={() => test.mutate()}>
            {t('routing.test')}
          </Button>
        </Group>
        <div role="status" data-testid="routing-test-result">
          {test.data && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {t('routing.goesTo', { url: test.data.url, route: routeName(test.data.route) })}
            </Text>
          )}
          {test.error &&
            (refusal ? (
              refusal.map((d) => (
                <Text key={d.field} size="sm" c="red">
                  {d.field}: {d.message}
                </Text>
              ))
            ) : (
              <Text size="sm" c="red">
                {test.error.message}
              </Text>
            ))}
        </div>
      </Stack>
    </Card>
  );
});
