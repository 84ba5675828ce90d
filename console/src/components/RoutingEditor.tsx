// The link editor's routing section: ordered rules (add, delete, reorder by dragging or by the up
// and down buttons, which keep the keyboard focus on the rule moved), each with its conditions
// (countries and languages by name in the console's language, regions and cities, devices,
// systems, browsers, referrer hosts, a time window, query parameters) and its address; then the A/B test's variants, whose weights must total 100
// (the sum is shown, and the editor will not save otherwise). Refusals land beside the field
// the server names (routingRules.1.url, variants.0.weight).
import {
  ActionIcon,
  Button,
  Card,
  Checkbox,
  Group,
  MultiSelect,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { type DragEvent, memo, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  pathsConsoleApiOrganizationsOrgIdRoutingTestPostRequestBodyContentApplicationJsonVisitorBrowserValues as BROWSERS,
  pathsConsoleApiOrganizationsOrgIdRoutingTestPostRequestBodyContentApplicationJsonVisitorDeviceTypeValues as DEVICE_TYPES,
  pathsConsoleApiOrganizationsOrgIdRoutingTestPostRequestBodyContentApplicationJsonVisitorOsValues as OPERATING_SYSTEMS,
} from '../../generated/api-schema';
import { countryOptions, languageOptions, type NamedCode } from '../locale-names';
import {
  addVariant,
  emptyRule,
  evenWeights,
  MAX_RULES,
  MAX_VARIANTS,
  MIN_VARIANTS,
  moved,
  type RoutingForm,
  type RuleForm,
  referrerHostOf,
  removeVariant,
  startVariants,
  variantName,
  variantsProblem,
  weightSum,
} from '../routing-form';

export { BROWSERS, DEVICE_TYPES, OPERATING_SYSTEMS };

/** The browser families, each named as the API names it (brand names need no translation). */
const BROWSER_OPTIONS = BROWSERS.map((b) => ({ value: b, label: b }));

/** Hundreds of countries and languages per rule: rendered only while a list is open. */
const UNMOUNTED_WHEN_CLOSED = { keepMounted: false };

/** A list's options, with any value the link already has that the browser cannot name. */
const withValues = (options: readonly NamedCode[], values: readonly string[]) => [
  ...options,
  ...values.filter((v) => !options.some((o) => o.value === v)).map((v) => ({ value: v, label: v })),
];

/**
 * Memoised with its rule cards: every option list of every rule stays mounted (hidden), so a
 * keystroke elsewhere in the editor must not render them again. `update` and `errorAt` are stable.
 */
export const RoutingEditor = memo(function RoutingEditor({
  value,
  update,
  destination,
  errorAt,
  readOnly,
}: {
  value: RoutingForm;
  /** Applies a change to the routing as it is then (stable across renders). */
  update: (change: (routing: RoutingForm) => RoutingForm) => void;
  /** The link's destination: the first variant of a new A/B test. */
  destination: string;
  /** The refusal of the field at a path, or of one inside it. */
  errorAt: (path: string) => string | undefined;
  readOnly: boolean;
}) {
  const { t, i18n } = useTranslation();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const languages = useMemo(() => languageOptions(i18n.language), [i18n.language]);
  const dragged = useRef<number | null>(null);
  /** After a move by button: the button to give the focus back to, and what to announce. */
  const [focusAfter, setFocusAfter] = useState<{ id: string; position: number } | null>(null);
  const { rules, variants } = value;
  const onChange = (routing: RoutingForm) => update(() => routing);

  useEffect(() => {
    if (!focusAfter) return;
    const button = document.getElementById(focusAfter.id) as HTMLButtonElement | null;
    // At the top or bottom the button is disabled: the one moving the other way takes the focus.
    const other = focusAfter.id.endsWith('-up')
      ? focusAfter.id.replace(/-up$/, '-down')
      : focusAfter.id.replace(/-down$/, '-up');
    (button?.disabled ? document.getElementById(other) : button)?.focus();
  }, [focusAfter]);

  const setRules = (next: RuleForm[]) => onChange({ ...value, rules: next });
  const setVariants = (next: RoutingForm['variants']) => onChange({ ...value, variants: next });
  const changeRule = useCallback(
    (key: string, change: Partial<RuleForm>) =>
      update((r) => ({ ...r, rules: r.rules.map((rule) => (rule.key === key ? { ...rule, ...change } : rule)) })),
    [update],
  );
  const move = useCallback(
    (from: number, to: number, direction: 'up' | 'down') => {
      update((r) => {
        const key = r.rules[from]?.key;
        if (key) setFocusAfter({ id: `${key}-${direction}`, position: to + 1 });
        return { ...r, rules: moved(r.rules, from, to) };
      });
    },
    [update],
  );
  const deleteRule = useCallback(
    (key: string) => update((r) => ({ ...r, rules: r.rules.filter((rule) => rule.key !== key) })),
    [update],
  );
  const startDrag = useCallback((index: number) => {
    dragged.current = index;
  }, []);
  const drop = useCallback(
    (to: number) => {
      const from = dragged.current;
      dragged.current = null;
      if (from !== null) update((r) => ({ ...r, rules: moved(r.rules, from, to) }));
    },
    [update],
  );
  const problem = variantsProblem(variants);

  return (
    <Stack gap="md">
      <EditorPart title={t('routing.rules')} hint={rules.length === 0 ? t('routing.noRules') : t('routing.rulesHint')}>
        <VisuallyHidden aria-live="polite">
          {focusAfter ? t('routing.movedTo', { n: focusAfter.position }) : ''}
        </VisuallyHidden>
        {rules.map((rule, index) => (
          <RuleCard
            key={rule.key}
            rule={rule}
            index={index}
            count={rules.length}
            countries={countries}
            languages={languages}
            onChange={changeRule}
            onMove={move}
            onDelete={deleteRule}
            onDragStart={startDrag}
            onDrop={drop}
            errorAt={errorAt}
            readOnly={readOnly}
          />
        ))}
        {errorAt('routingRules') && !rules.some((_, n) => errorAt(`routingRules.${n}`)) && (
          <Text c="red" size="sm">
            {errorAt('routingRules')}
          </Text>
        )}
        {!readOnly && (
          <Group>
            <Button
              variant="light"
              size="xs"
              disabled={rules.length >= MAX_RULES}
              onClick={() => setRules([...rules, emptyRule()])}
            >
              {t('routing.addRule')}
            </Button>
          </Group>
        )}
      </EditorPart>

      <EditorPart
        title={t('routing.variants')}
        hint={variants.length === 0 ? t('routing.noVariants') : t('routing.variantsHint')}
      >
        {variants.map((variant, index) => {
          const name = variantName(index);
          return (
            <Group key={variant.key} align="flex-start" wrap="nowrap">
              <TextInput
                type="url"
                required
                placeholder="https://"
                label={t('routing.variantUrl', { name })}
                value={variant.url}
                onChange={(e) => {
                  const url = e.currentTarget.value;
                  setVariants(variants.map((v, n) => (n === index ? { ...v, url } : v)));
                }}
                error={errorAt(`variants.${index}.url`)}
                maxLength={1000}
                style={{ flex: 1 }}
              />
              <TextInput
                type="number"
                min={0}
                max={100}
                step={1}
                w={130}
                label={t('routing.weight', { name })}
                value={String(variant.weight)}
                onChange={(e) => {
                  const weight = Number(e.currentTarget.value);
                  const whole = Number.isInteger(weight) && weight >= 0 ? weight : 0;
                  setVariants(variants.map((v, n) => (n === index ? { ...v, weight: whole } : v)));
                }}
                error={errorAt(`variants.${index}.weight`)}
              />
              {!readOnly && (
                <ActionIcon
                  mt={26}
                  variant="subtle"
                  color="red"
                  aria-label={t('routing.removeVariant', { name })}
                  disabled={variants.length <= MIN_VARIANTS}
                  onClick={() => setVariants(removeVariant(variants, index))}
                >
                  ✕
                </ActionIcon>
              )}
            </Group>
          );
        })}
        {variants.length > 0 && (
          <Text size="sm" data-testid="weight-sum" c={problem ? 'red' : 'dimmed'}>
            {t('routing.sum', { sum: weightSum(variants) })}
          </Text>
        )}
        {problem && (
          <Text size="sm" c="red" role="alert" data-testid="weight-error">
            {t('routing.sumWrong', { sum: problem.sum })}
          </Text>
        )}
        {errorAt('variants') && !problem && (
          <Text size="sm" c="red">
            {errorAt('variants')}
          </Text>
        )}
        {!readOnly && (
          <Group gap="xs">
            {variants.length === 0 ? (
              <Button variant="light" size="xs" onClick={() => setVariants(startVariants(destination))}>
                {t('routing.startVariants')}
              </Button>
            ) : (
              <>
                <Button
                  variant="light"
                  size="xs"
                  disabled={variants.length >= MAX_VARIANTS}
                  onClick={() => setVariants(addVariant(variants))}
                >
                  {t('routing.addVariant')}
                </Button>
                <Button
                  variant="default"
                  size="xs"
                  onClick={() => {
                    const weights = evenWeights(variants.length);
                    setVariants(variants.map((v, n) => ({ ...v, weight: weights[n]! })));
                  }}
                >
                  {t('routing.evenly')}
                </Button>
                <Button variant="subtle" color="red" size="xs" onClick={() => setVariants([])}>
                  {t('routing.stopVariants')}
                </Button>
              </>
            )}
          </Group>
        )}
      </EditorPart>
    </Stack>
  );
});

/** One part of the routing (the rules, the A/B test): its title, a line on what it does now, its fields. */
function EditorPart({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={4} size="h6">
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {hint}
      </Text>
      {children}
    </Stack>
  );
}

const RuleCard = memo(function RuleCard({
  rule,
  index,
  count,
  countries,
  languages,
  onChange,
  onMove,
  onDelete,
  onDragStart,
  onDrop,
  errorAt,
  readOnly,
}: {
  rule: RuleForm;
  index: number;
  count: number;
  countries: NamedCode[];
  languages: NamedCode[];
  onChange: (key: string, change: Partial<RuleForm>) => void;
  onMove: (from: number, to: number, direction: 'up' | 'down') => void;
  onDelete: (key: string) => void;
  onDragStart: (index: number) => void;
  onDrop: (index: number) => void;
  /** The refusal at a path of the form ('routingRules.0.url'). */
  errorAt: (path: string) => string | undefined;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const n = index + 1;
  const title = t('routing.rule', { n });
  const at = (path: string) => errorAt(`routingRules.${index}${path}`);
  const condition = (name: string) => at(`.conditions.${name}`);
  const change = (fields: Partial<RuleForm>) => onChange(rule.key, fields);
  const setQuery = (query: RuleForm['query']) => change({ query });
  const countryList = useMemo(() => withValues(countries, rule.countries), [countries, rule.countries]);
  const languageList = useMemo(() => withValues(languages, rule.languages), [languages, rule.languages]);
  const browserList = useMemo(() => withValues(BROWSER_OPTIONS, rule.browsers), [rule.browsers]);
  /** A searchable list of countries or languages, by name. */
  const codes = (
    name: 'countries' | 'languages',
    data: NamedCode[],
    hint: { placeholder?: string; description?: string },
  ) => (
    <MultiSelect
      label={t(`routing.${name}`)}
      {...hint}
      data={data}
      value={rule[name]}
      onChange={(values) => change({ [name]: values })}
      searchable
      clearable
      nothingFoundMessage="—"
      comboboxProps={UNMOUNTED_WHEN_CLOSED}
      error={condition(name)}
    />
  );
  /** Typed values, one tag each: regions, cities, referrer hosts. */
  const tags = (name: 'regions' | 'cities' | 'referrers', normalise: (text: string) => string, maxLength: number) => (
    <TagsInput
      label={t(`routing.${name}`)}
      description={t(`routing.${name}Hint`)}
      value={rule[name]}
      onChange={(values) => change({ [name]: [...new Set(values.map(normalise).filter((v) => v !== ''))] })}
      maxTags={50}
      maxLength={maxLength}
      clearable
      error={condition(name)}
    />
  );
  /** Devices or systems, each a checkbox. */
  const choices = (name: 'deviceTypes' | 'os', values: readonly string[], labelOf: (value: string) => string) => (
    <Checkbox.Group
      label={t(`routing.${name}`)}
      value={rule[name]}
      onChange={(picked) => change({ [name]: picked })}
      error={condition(name)}
    >
      <Group gap="sm" mt={4}>
        {values.map((v) => (
          <Checkbox key={v} value={v} label={labelOf(v)} />
        ))}
      </Group>
    </Checkbox.Group>
  );
  /** The name or the value of the query row at `q`. */
  const queryPart = (q: number, part: 'name' | 'value', maxLength: number) => {
    const label = t(part === 'name' ? 'routing.queryName' : 'routing.queryValue');
    return (
      <TextInput
        aria-label={`${label} ${q + 1}`}
        placeholder={label}
        value={rule.query[q]![part]}
        onChange={(e) => {
          const text = e.currentTarget.value;
          setQuery(rule.query.map((r, m) => (m === q ? { ...r, [part]: text } : r)));
        }}
        maxLength={maxLength}
        style={{ flex: 1 }}
      />
    );
  };
  const instant = (name: 'after' | 'before') => (
    <TextInput
      type="datetime-local"
      label={t(`routing.${name}`)}
      value={rule[name]}
      onChange={(e) => change({ [name]: e.currentTarget.value })}
      error={condition(name)}
    />
  );
  const drag = readOnly
    ? {}
    : {
        draggable: true,
        onDragStart: (e: DragEvent) => {
          // Firefox starts a drag only with data set.
          e.dataTransfer.effectAllowed = 'move';
          e.dataTransfer.setData('text/plain', rule.key);
          onDragStart(index);
        },
        onDragOver: (e: DragEvent) => e.preventDefault(),
        onDrop: (e: DragEvent) => {
          e.preventDefault();
          onDrop(index);
        },
      };
  const noConditions =
    rule.countries.length +
      rule.regions.length +
      rule.cities.length +
      rule.deviceTypes.length +
      rule.os.length +
      rule.browsers.length +
      rule.referrers.length +
      rule.languages.length +
      rule.query.length ===
      0 &&
    !rule.after &&
    !rule.before;

  return (
    <Card withBorder component="section" aria-label={title} padding="sm" data-testid="routing-rule" {...drag}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Group gap="xs">
          {!readOnly && (
            <Text component="span" c="dimmed" style={{ cursor: 'grab' }} title={t('routing.dragHandle')} aria-hidden>
              ⠿
            </Text>
          )}
          <Text fw={500}>{title}</Text>
        </Group>
        {!readOnly && (
          <Group gap={4}>
            <ActionIcon
              id={`${rule.key}-up`}
              variant="subtle"
              aria-label={t('routing.moveUp', { n })}
              disabled={index === 0}
              onClick={() => onMove(index, index - 1, 'up')}
            >
              ↑
            </ActionIcon>
            <ActionIcon
              id={`${rule.key}-down`}
              variant="subtle"
              aria-label={t('routing.moveDown', { n })}
              disabled={index === count - 1}
              onClick={() => onMove(index, index + 1, 'down')}
            >
              ↓
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('routing.deleteRule', { n })}
              onClick={() => onDelete(rule.key)}
            >
              ✕
            </ActionIcon>
          </Group>
        )}
      </Group>
      <Stack gap="xs">
        {codes('countries', countryList, { placeholder: t('routing.countriesHint') })}
        <Group grow align="flex-start">
          {tags('regions', (v) => v.trim().toUpperCase(), 6)}
          {tags('cities', (v) => v.trim(), 100)}
        </Group>
        <Group grow align="flex-start">
          {choices('deviceTypes', DEVICE_TYPES, (d) => t(`routing.device.${d}`))}
          {choices('os', OPERATING_SYSTEMS, (o) => t(`routing.osName.${o}`))}
        </Group>
        <MultiSelect
          label={t('routing.browsers')}
          placeholder={t('routing.browsersHint')}
          data={browserList}
          value={rule.browsers}
          onChange={(values) => change({ browsers: values })}
          searchable
          clearable
          nothingFoundMessage="—"
          comboboxProps={UNMOUNTED_WHEN_CLOSED}
          error={condition('browsers')}
        />
        {tags('referrers', referrerHostOf, 253)}
        {codes('languages', languageList, { description: t('routing.languagesHint') })}
        <Group grow align="flex-start">
          {instant('after')}
          {instant('before')}
        </Group>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('routing.query')}
          </Text>
          {rule.query.map((row, q) => (
            // Rows have no identity of their own; their position is what the server's refusals name.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <Group key={q} gap="xs" wrap="nowrap" align="flex-start">
              {queryPart(q, 'name', 100)}
              <Text mt={6}>=</Text>
              {queryPart(q, 'value', 500)}
              {!readOnly && (
                <ActionIcon
                  mt={4}
                  variant="subtle"
                  color="red"
                  aria-label={t('routing.removeQuery', { name: row.name || q + 1 })}
                  onClick={() => setQuery(rule.query.filter((_, m) => m !== q))}
                >
                  ✕
                </ActionIcon>
              )}
            </Group>
          ))}
          {condition('query') && (
            <Text size="sm" c="red">
              {condition('query')}
            </Text>
          )}
          {!readOnly && (
            <Group>
              <Button
                variant="subtle"
                size="compact-xs"
                onClick={() => setQuery([...rule.query, { name: '', value: '' }])}
              >
                {t('routing.addQuery')}
              </Button>
            </Group>
          )}
        </Stack>
        {noConditions && (
          <Text size="xs" c="dimmed">
            {t('routing.anyone')}
          </Text>
        )}
        <TextInput
          type="url"
          required
          placeholder="https://"
          label={t('routing.ruleUrl')}
          value={rule.url}
          onChange={(e) => change({ url: e.currentTarget.value })}
          error={at('.url')}
          maxLength={1000}
        />
      </Stack>
    </Card>
  );
});
