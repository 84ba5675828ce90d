// The link editor as a person uses it: what they type becomes the API's body (empty fields left
// out on create, cleared with null on update), the address a click reaches and the share card
// follow the fields as they type, and a refusal lands under the field it names.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ShortUrl } from '../src/api';
import { LinkEditor } from '../src/components/LinkEditor';
import { shortUrl } from './fixtures';
import { describedBy, refused, renderConsole, serveApi } from './render';

const apps = {
  content: [{ id: 7, appName: 'Shop', platform: 'IOS', bundleId: 'com.shop', path: 'shop', apiKey: 'k', scheme: null }],
  page: 0,
  size: 100,
  totalElements: 1,
  totalPages: 1,
};
const noDomains = { content: [], page: 0, size: 100, totalElements: 0, totalPages: 0 };
const goalTypes = [
  { name: 'purchase', description: null, preset: true, createdAt: null },
  { name: 'newsletter', description: 'Newsletter sign-up', preset: false, createdAt: '2026-11-01T00:00:00Z' },
];
const tags = {
  items: [
    { id: 1, name: 'spring', color: '#2f9e44', linkCount: 2, createdAt: '2026-11-01T00:00:00Z' },
    { id: 2, name: 'newsletter', color: '#1971c2', linkCount: 0, createdAt: '2026-11-01T00:00:00Z' },
  ],
};
const lists = {
  'GET /organizations/1/tags': { status: 200, body: tags },
  'GET /organizations/1/mobile-apps': { status: 200, body: apps },
  'GET /organizations/1/custom-domains': { status: 200, body: noDomains },
  'GET /organizations/1/goal-types': { status: 200, body: goalTypes },
};

const existing = shortUrl('spring', {
  id: 42,
  clickCount: 3,
  iosAppId: 7,
  title: 'Spring sale',
  ogTitle: 'Up to 50% off',
  utmSource: 'kakao',
  iosDeepLinkPath: 'sale/spring',
  goalType: 'purchase',
  tags: ['spring'],
});

/** The editor on `record`, whose save the service answers with what was sent; the requests sent and the save spy. */
/**
 * Puts `text` in a field as a paste (one input event), where the test is about the value sent and
 * not about typing: typing re-renders the whole editor once a character.
 */
async function enter(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.click(field);
  await user.paste(text);
}

function editorOn(record: ShortUrl) {
  const sent = serveApi({
    ...lists,
    'PUT /organizations/1/urls/42': (r) => ({ status: 200, body: { ...record, ...(r.body as object) } }),
  });
  const saved = vi.fn();
  renderConsole(<LinkEditor kind="url" orgId={1} record={record} onSaved={saved} onClose={() => {}} />);
  return { sent, saved, user: userEvent.setup() };
}

describe('link editor', () => {
  it('creates a link with only the fields filled in, and shows where a click goes as the person types', async () => {
    const sent = serveApi({ ...lists, 'POST /organizations/1/urls': { status: 201, body: { ...existing, id: 43 } } });
    const saved = vi.fn();
    renderConsole(<LinkEditor kind="url" orgId={1} record={null} onSaved={saved} onClose={() => {}} />);
    const user = userEvent.setup();
    await enter(user, screen.getByLabelText(/원본 URL/), 'https://example.com/p?x=1');
    expect(screen.getByTestId('utm-destination').textContent).toBe('https://example.com/p?x=1');
    await user.type(screen.getByLabelText('utm_source'), 'kakao');
    expect(screen.getByTestId('utm-destination').textContent).toBe('https://example.com/p?x=1&utm_source=kakao');
    await user.type(screen.getByLabelText('utm_medium'), 'chat');
    expect(screen.getByTestId('utm-destination').textContent).toBe(
      'https://example.com/p?x=1&utm_source=kakao&utm_medium=chat',
    );
    await enter(user, screen.getByLabelText('별칭 (선택)'), 'p1');
    await user.click(screen.getByRole('button', { name: '만들기' }));
    await waitFor(() => expect(saved).toHaveBeenCalledWith(expect.objectContaining({ id: 43 }), true));
    const post = sent.find((r) => r.method === 'POST');
    expect(post?.body).toEqual({
      url: 'https://example.com/p?x=1',
      customAlias: 'p1',
      utmSource: 'kakao',
      utmMedium: 'chat',
      showAdPage: false,
    });
  });

  it('edits a link: its fields are filled in, the alias is fixed, and a field emptied is cleared with null', async () => {
    const { sent, saved, user } = editorOn(existing);
    expect((screen.getByLabelText(/원본 URL/) as HTMLInputElement).value).toBe('https://example.com/spring');
    expect((screen.getByLabelText(/별칭/) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByTestId('editing-address').textContent).toBe('http://localhost:8080/spring');
    await user.clear(screen.getByLabelText('제목'));
    await user.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() => expect(saved).toHaveBeenCalledWith(expect.objectContaining({ id: 42 }), false));
    const body = sent.find((r) => r.method === 'PUT')?.body as Record<string, unknown>;
    expect(body.title).toBeNull();
    expect(body.originalUrl).toBe('https://example.com/spring');
    expect(body.iosAppId).toBe(7);
    expect(body.iosDeepLinkPath).toBe('sale/spring');
    expect(body.goalType).toBe('purchase');
    expect(body).not.toHaveProperty('customAlias');
  });

  it('turns conversion tracking on with its switch, explained in the console language', async () => {
    const { sent, saved, user } = editorOn(existing);
    const toggle = screen.getByRole('switch', { name: /전환 추적/ });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(describedBy(toggle)).toMatch(/signpost_token/);
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(sent.find((r) => r.method === 'PUT')?.body).toMatchObject({ conversionTracking: true });
  });

  it('shows the share card as the Open Graph fields are typed', async () => {
    serveApi(lists);
    renderConsole(<LinkEditor kind="url" orgId={1} record={existing} onSaved={() => {}} onClose={() => {}} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /OG 태그/ }));
    const card = screen.getByTestId('share-preview');
    expect(within(card).getByText('Up to 50% off')).toBeTruthy();
    expect(within(card).getByText('localhost:8080')).toBeTruthy();
    await user.type(screen.getByLabelText('OG 설명'), 'This week only');
    expect(within(card).getByText('This week only')).toBeTruthy();
  });

  /** The editor of a new link whose save the service refuses with `message` and `details`, after a URL is typed. */
  async function refusedSave(message: string, details: Array<{ field: string; message: string }>) {
    serveApi({
      ...lists,
      'POST /organizations/1/urls': refused(details, message),
    });
    renderConsole(<LinkEditor kind="url" orgId={1} record={null} onSaved={() => {}} onClose={() => {}} />);
    const user = userEvent.setup();
    await enter(user, screen.getByLabelText(/원본 URL/), 'ftp://example.com');
    await user.click(screen.getByRole('button', { name: '만들기' }));
    return screen.getByLabelText(/원본 URL/) as HTMLInputElement;
  }

  it('puts a refusal under the field it names, and keeps what was typed', async () => {
    const destination = await refusedSave('body.url: must be an https URL; body.utmTerm: is too long', [
      { field: 'url', message: 'must be an https URL' },
      { field: 'utmTerm', message: 'is too long' },
    ]);
    await waitFor(() => expect(destination.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(destination)).toBe('must be an https URL');
    expect(screen.getByRole('alert').textContent).toContain('body.url: must be an https URL');
    expect(destination.value).toBe('ftp://example.com');
  });

  it("reads the fields from the error body's details, not from its message", async () => {
    const destination = await refusedSave('요청 값이 규칙에 맞지 않습니다', [
      { field: 'url', message: 'must be an https URL' },
    ]);
    await waitFor(() => expect(describedBy(destination)).toBe('must be an https URL'));
  });

  it("offers the preset and the organization's own goal types", async () => {
    serveApi(lists);
    renderConsole(<LinkEditor kind="url" orgId={1} record={null} onSaved={() => {}} onClose={() => {}} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: '목표 유형' }));
    await waitFor(() => expect(screen.getByRole('option', { name: 'newsletter' })).toBeTruthy());
    expect(screen.getByRole('option', { name: 'purchase' })).toBeTruthy();
  });

  it('lets a member without the links.write permission look without saving', async () => {
    serveApi(lists);
    renderConsole(
      <LinkEditor kind="campaign" orgId={1} record={null} readOnly onSaved={() => {}} onClose={() => {}} />,
    );
    expect(screen.queryByRole('button', { name: '만들기' })).toBeNull();
    expect(screen.getByLabelText(/원본 URL/).matches(':disabled')).toBe(true);
    expect(screen.getByText('링크를 만들거나 바꾸려면 개발자 이상의 역할이 필요합니다.')).toBeTruthy();
    // A campaign carries two UTM parameters and no share card.
    expect(screen.queryByLabelText('utm_term')).toBeNull();
    expect(screen.queryByRole('button', { name: /OG 태그/ })).toBeNull();
  });

  it('tags a link from the suggestions, sets a password, a click limit, where clicks go after it and a note', async () => {
    const { sent, saved, user } = editorOn(existing);
    expect(screen.queryByTestId('password-protected')).toBeNull();
    const tagsInput = screen.getByLabelText('태그', { selector: 'input' });
    await user.click(tagsInput);
    await user.click(await screen.findByRole('option', { name: 'newsletter' }));
    await user.type(tagsInput, 'vip{Enter}');
    await enter(user, screen.getByLabelText('비밀번호', { selector: 'input' }), 's3cret!');
    await user.type(screen.getByLabelText('클릭 한도'), '100');
    await enter(user, screen.getByLabelText('한도를 넘은 뒤 이동할 주소'), 'https://example.com/sold-out');
    await enter(user, screen.getByLabelText('만료 뒤 이동할 주소'), 'https://example.com/over');
    await enter(user, screen.getByLabelText('메모'), 'for the newsletter');
    await user.click(screen.getByRole('switch', { name: /보관/ }));
    await user.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(sent.find((r) => r.method === 'PUT')?.body).toMatchObject({
      tags: ['spring', 'newsletter', 'vip'],
      password: 's3cret!',
      clickLimit: 100,
      clickLimitUrl: 'https://example.com/sold-out',
      expiredUrl: 'https://example.com/over',
      note: 'for the newsletter',
      archived: true,
    });
  });

  it('says a link is protected without showing a password, keeps it unless changed, and removes it', async () => {
    const record = { ...existing, passwordProtected: true, clickLimit: 50, remainingClicks: 12, tags: [] };
    const { sent, saved, user } = editorOn(record);
    expect(screen.getByTestId('password-protected').textContent).toBe('비밀번호로 보호됨');
    const password = screen.getByLabelText('새 비밀번호', { selector: 'input' }) as HTMLInputElement;
    expect(password.value).toBe('');
    expect(password.type).toBe('password');
    expect((screen.getByLabelText('클릭 한도') as HTMLInputElement).value).toBe('50');
    expect(screen.getByText('남은 클릭: 12')).toBeTruthy();

    // Saved untouched: no password in the body, so the server keeps it; tags emptied stay empty.
    await user.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    const first = sent.filter((r) => r.method === 'PUT')[0]?.body as Record<string, unknown>;
    expect(first).not.toHaveProperty('password');
    expect(first).toMatchObject({ tags: [], clickLimit: 50 });

    await user.click(screen.getByRole('checkbox', { name: '비밀번호 없애기' }));
    expect(password.disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(2));
    expect(sent.filter((r) => r.method === 'PUT')[1]?.body).toMatchObject({ password: null });
  });

  it('puts a refusal of the new fields beside them', async () => {
    serveApi({
      ...lists,
      'PUT /organizations/1/urls/42': refused([
        { field: 'password', message: 'must be 4 to 128 characters' },
        { field: 'clickLimit', message: 'must be at least 1' },
        { field: 'tags.0', message: 'is too long' },
      ]),
    });
    renderConsole(<LinkEditor kind="url" orgId={1} record={existing} onSaved={() => {}} onClose={() => {}} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('비밀번호', { selector: 'input' }), 'abc');
    await user.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() =>
      expect(describedBy(screen.getByLabelText('비밀번호', { selector: 'input' }))).toContain(
        'must be 4 to 128 characters',
      ),
    );
    expect(describedBy(screen.getByLabelText('클릭 한도'))).toContain('must be at least 1');
    expect(screen.getByText('is too long')).toBeTruthy();
  });

  it('gives a new campaign its tags, a click limit and a note', async () => {
    const sent = serveApi({
      ...lists,
      'POST /organizations/1/campaigns': (r) => ({ status: 201, body: { id: 5, ...(r.body as object) } }),
    });
    const saved = vi.fn();
    renderConsole(<LinkEditor kind="campaign" orgId={1} record={null} onSaved={saved} onClose={() => {}} />);
    const user = userEvent.setup();
    await enter(user, screen.getByLabelText(/원본 URL/), 'https://example.com/fall');
    await enter(user, screen.getByLabelText(/캠페인 이름/), 'Fall');
    await user.type(screen.getByLabelText('태그', { selector: 'input' }), 'autumn{Enter}');
    await user.type(screen.getByLabelText('클릭 한도'), '500');
    await enter(user, screen.getByLabelText('메모'), 'print run');
    await user.click(screen.getByRole('button', { name: '만들기' }));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
      originalUrl: 'https://example.com/fall',
      name: 'Fall',
      tags: ['autumn'],
      clickLimit: 500,
      note: 'print run',
    });
  });
});
