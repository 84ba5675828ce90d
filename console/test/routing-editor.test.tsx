// The link editor's routing section as a person uses it: rules built from named countries,
// devices, languages, browsers, referrer hosts, regions, cities and query parameters become the
// API's routingRules, in the order shown; the
// order changes from the keyboard; an A/B test saves only when its weights total 100; a refusal
// lands beside the rule's field the server names; the tester shows where the server says a
// described visitor goes.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ShortUrl } from '../src/api';
import { LinkEditor } from '../src/components/LinkEditor';
import { shortUrl } from './fixtures';
import { describedBy, refused, renderConsole, serveApi } from './render';

const empty = { content: [], page: 0, size: 100, totalElements: 0, totalPages: 0 };
const lists = {
  'GET /organizations/1/tags': { status: 200, body: { items: [] } },
  'GET /organizations/1/mobile-apps': { status: 200, body: empty },
  'GET /organizations/1/custom-domains': { status: 200, body: empty },
  'GET /organizations/1/goal-types': { status: 200, body: [] },
};

async function enter(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.click(field);
  await user.paste(text);
}

const rule = (n: number) => screen.getByRole('region', { name: `규칙 ${n}` });
const ruleUrls = () =>
  screen
    .getAllByTestId('routing-rule')
    .map((card) => (within(card).getByLabelText(/이동할 주소/) as HTMLInputElement).value);

const withRules = shortUrl('spring', {
  id: 42,
  routingRules: [
    { conditions: { countries: ['KR'] }, url: 'https://example.com/kr' },
    { conditions: { deviceTypes: ['mobile'] }, url: 'https://example.com/phone' },
    { conditions: { languages: ['ja'] }, url: 'https://example.com/ja' },
  ],
});

function editorOn(record: ShortUrl | null, routes: Parameters<typeof serveApi>[0] = {}) {
  const sent = serveApi({
    ...lists,
    'POST /organizations/1/urls': (r) => ({ status: 201, body: { ...withRules, id: 43, ...(r.body as object) } }),
    'PUT /organizations/1/urls/42': (r) => ({ status: 200, body: { ...record, ...(r.body as object) } }),
    ...routes,
  });
  const saved = vi.fn();
  renderConsole(<LinkEditor kind="url" orgId={1} record={record} onSaved={saved} onClose={() => {}} />);
  return { sent, saved, user: userEvent.setup() };
}

/** Opens the editor's routing section (its panel unfolds with a transition, even in tests). */
async function openRouting(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: '라우팅 규칙과 A/B 테스트' }));
  await screen.findByRole('button', { name: /규칙 추가/ });
}

/** Picks `name` from the searchable list labelled `label` inside `scope`. */
async function pick(user: UserEvent, scope: HTMLElement, label: string, search: string, name: string) {
  await user.click(within(scope).getByLabelText(label, { selector: 'input' }));
  await user.paste(search);
  await user.click(await within(scope).findByRole('option', { name }));
}

// Each test drives the whole editor, whose every keystroke renders it again: slow on a busy machine.
describe('routing rules in the link editor', { timeout: 90_000 }, () => {
  it('says what happens without rules or a test, then sends two rules built from names, in order', async () => {
    const { sent, saved, user } = editorOn(null);
    await enter(user, screen.getByLabelText(/원본 URL/), 'https://example.com/home');
    await openRouting(user);
    expect(screen.getByText(/규칙이 없습니다. 모든 방문자가 원본 URL/)).toBeTruthy();
    expect(screen.getByText(/A\/B 테스트가 없습니다/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: '규칙 추가' }));
    await pick(user, rule(1), '국가', '일본', '일본');
    await user.click(within(rule(1)).getByRole('checkbox', { name: '휴대폰' }));
    await pick(user, rule(1), '언어', '일본어', '일본어');
    await enter(user, within(rule(1)).getByLabelText(/이동할 주소/), 'https://example.com/jp');

    await user.click(screen.getByRole('button', { name: '규칙 추가' }));
    await user.click(within(rule(2)).getByRole('button', { name: '매개변수 추가' }));
    await enter(user, within(rule(2)).getByLabelText('매개변수 이름 1'), 'promo');
    await enter(user, within(rule(2)).getByLabelText('값 1'), 'spring');
    await user.click(within(rule(2)).getByRole('checkbox', { name: 'Android' }));
    await enter(user, within(rule(2)).getByLabelText(/이동할 주소/), 'https://example.com/spring');

    await user.click(screen.getByRole('button', { name: '만들기' }));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(sent.find((r) => r.method === 'POST' && r.path === '/organizations/1/urls')?.body).toEqual({
      url: 'https://example.com/home',
      showAdPage: false,
      routingRules: [
        {
          conditions: { countries: ['JP'], deviceTypes: ['mobile'], languages: ['ja'] },
          url: 'https://example.com/jp',
        },
        { conditions: { os: ['android'], query: { promo: 'spring' } }, url: 'https://example.com/spring' },
      ],
    });
  });

  it('sends browsers picked by name and referrers, regions and cities typed as tags', async () => {
    const { sent, saved, user } = editorOn(
      shortUrl('spring', {
        id: 42,
        routingRules: [{ conditions: { browsers: ['safari'] }, url: 'https://example.com/safari' }],
      }),
    );
    // A link with rules opens with its routing section unfolded.
    // A family saved in another case shows as the list names it.
    expect(within(rule(1)).getByText('Safari')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '규칙 추가' }));
    await pick(user, rule(2), '브라우저', 'Sams', 'Samsung Internet');
    await pick(user, rule(2), '브라우저', 'Chr', 'Chrome');
    // A typed address becomes its host; the server wants bare lower-case hosts.
    const tag = (label: string, text: string) =>
      user.type(within(rule(2)).getByLabelText(label, { selector: 'input' }), `${text}{Enter}`);
    await tag('유입 경로(리퍼러)', 'https://Mobile.Twitter.com/home');
    await tag('유입 경로(리퍼러)', 't.co');
    await tag('지역', 'kr-11');
    await tag('도시', 'Seoul');
    await enter(user, within(rule(2)).getByLabelText(/이동할 주소/), 'https://example.com/social');

    await user.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(sent.find((r) => r.method === 'PUT')?.body).toMatchObject({
      routingRules: [
        { conditions: { browsers: ['Safari'] }, url: 'https://example.com/safari' },
        {
          conditions: {
            regions: ['KR-11'],
            cities: ['Seoul'],
            browsers: ['Samsung Internet', 'Chrome'],
            referrers: ['mobile.twitter.com', 't.co'],
          },
          url: 'https://example.com/social',
        },
      ],
    });
  });

  it('moves a rule from the keyboard, keeps the focus on it, and saves the new order', async () => {
    const { sent, saved, user } = editorOn(withRules);
    expect(ruleUrls()).toEqual(['https://example.com/kr', 'https://example.com/phone', 'https://example.com/ja']);
    // The drawer puts the focus on its close button as it opens; then the person reaches the rule's button.
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('닫기'));
    within(rule(3)).getByRole('button', { name: '규칙 3 위로 옮기기' }).focus();
    await user.keyboard('{Enter}');
    expect(ruleUrls()).toEqual(['https://example.com/kr', 'https://example.com/ja', 'https://example.com/phone']);
    // The focus followed the rule: it is now rule 2's button, and moves it again.
    expect(document.activeElement).toBe(within(rule(2)).getByRole('button', { name: '규칙 2 위로 옮기기' }));
    await user.keyboard('{Enter}');
    expect(ruleUrls()).toEqual(['https://example.com/ja', 'https://example.com/kr', 'https://example.com/phone']);
    // At the top its up button is disabled: the focus is on its down button.
    expect(document.activeElement).toBe(within(rule(1)).getByRole('button', { name: '규칙 1 아래로 옮기기' }));
    await user.click(within(rule(3)).getByRole('button', { name: '규칙 3 삭제' }));

    await user.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    const body = sent.find((r) => r.method === 'PUT')?.body as Record<string, unknown>;
    expect(body.routingRules).toEqual([
      { conditions: { languages: ['ja'] }, url: 'https://example.com/ja' },
      { conditions: { countries: ['KR'] }, url: 'https://example.com/kr' },
    ]);
    expect(body.variants).toEqual([]);
  });

  it('saves an A/B test only when its weights total 100, showing the total as they change', async () => {
    const { sent, saved, user } = editorOn(shortUrl('spring', { id: 42 }));
    await openRouting(user);
    await user.click(screen.getByRole('button', { name: 'A/B 테스트 시작' }));
    expect((screen.getByLabelText(/변형 A 주소/) as HTMLInputElement).value).toBe('https://example.com/spring');
    expect(screen.getByTestId('weight-sum').textContent).toBe('비중 합계 100%');
    await enter(user, screen.getByLabelText(/변형 B 주소/), 'https://example.com/b');
    // Two variants is the least: neither can be removed.
    expect(screen.getByRole('button', { name: '변형 A 삭제' }).matches(':disabled')).toBe(true);

    const weightA = screen.getByLabelText('변형 A 비중 (%)');
    await user.clear(weightA);
    await user.type(weightA, '70');
    expect(screen.getByTestId('weight-sum').textContent).toBe('비중 합계 120%');
    expect(screen.getByTestId('weight-error').textContent).toContain('지금은 120%');
    await user.click(screen.getByRole('button', { name: '저장' }));
    expect(screen.getByTestId('editor-error').textContent).toBe(
      'A/B 테스트 비중의 합이 100%가 아니어서 저장하지 않았습니다.',
    );
    expect(sent.filter((r) => r.method === 'PUT')).toHaveLength(0);

    const weightB = screen.getByLabelText('변형 B 비중 (%)');
    await user.clear(weightB);
    await user.type(weightB, '30');
    expect(screen.queryByTestId('weight-error')).toBeNull();
    await user.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(sent.find((r) => r.method === 'PUT')?.body).toMatchObject({
      variants: [
        { url: 'https://example.com/spring', weight: 70 },
        { url: 'https://example.com/b', weight: 30 },
      ],
    });
  });

  it('adds a third variant with the weights split evenly again', async () => {
    const { user } = editorOn(shortUrl('spring', { id: 42 }));
    await openRouting(user);
    await user.click(screen.getByRole('button', { name: 'A/B 테스트 시작' }));
    await user.click(screen.getByRole('button', { name: '변형 추가' }));
    const weights = ['A', 'B', 'C'].map(
      (name) => (screen.getByLabelText(`변형 ${name} 비중 (%)`) as HTMLInputElement).value,
    );
    expect(weights).toEqual(['34', '33', '33']);
    expect(screen.getByTestId('weight-sum').textContent).toBe('비중 합계 100%');
  });

  it("puts the server's refusal of a rule's field beside that field", async () => {
    const { user } = editorOn(withRules, {
      'PUT /organizations/1/urls/42': refused([
        { field: 'routingRules.1.url', message: 'must start with https://' },
        { field: 'routingRules.0.conditions.countries.0', message: 'must be an ISO 3166-1 alpha-2 country code' },
      ]),
    });
    await user.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() =>
      expect(describedBy(within(rule(2)).getByLabelText(/이동할 주소/))).toContain('must start with https://'),
    );
    expect(describedBy(within(rule(1)).getByLabelText(/이동할 주소/))).not.toContain('must start');
    expect(within(rule(1)).getByText('must be an ISO 3166-1 alpha-2 country code')).toBeTruthy();
  });

  it('shows where the server says a described visitor goes, testing the rules as they are in the editor', async () => {
    const { sent, user } = editorOn(withRules, {
      'POST /organizations/1/routing/test': { status: 200, body: { url: 'https://example.com/ja', route: 'rule:2' } },
    });
    const tester = screen.getByRole('region', { name: '테스터' });
    await pick(user, tester, '방문자의 국가', '일본', '일본');
    await pick(user, tester, '언어', '일본어', '일본어');
    await user.click(within(tester).getByLabelText('기기', { selector: 'input' }));
    await user.click(await within(tester).findByRole('option', { name: '태블릿' }));
    await enter(user, within(tester).getByLabelText('쿼리'), 'promo=spring');
    await pick(user, tester, '브라우저', 'Fire', 'Firefox');
    await enter(user, within(tester).getByLabelText('유입 경로(리퍼러)', { selector: 'input' }), 'https://t.co/abc');
    await user.click(within(tester).getByRole('button', { name: '어디로 가는지 보기' }));
    await waitFor(() =>
      expect(within(tester).getByRole('status').textContent).toBe(
        '이 방문자는 https://example.com/ja 으로 갑니다 (규칙 3).',
      ),
    );
    const test = sent.find((r) => r.path === '/organizations/1/routing/test')?.body as Record<string, unknown>;
    expect(test).toMatchObject({
      linkId: 42,
      originalUrl: 'https://example.com/spring',
      variants: [],
      visitor: {
        country: 'JP',
        language: 'ja',
        deviceType: 'tablet',
        browser: 'Firefox',
        referrer: 'https://t.co/abc',
        query: { promo: 'spring' },
      },
    });
    expect((test.routingRules as unknown[]).length).toBe(3);
  });
});
