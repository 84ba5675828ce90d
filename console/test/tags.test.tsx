// The Tags screen as a person uses it: the list with colours and link counts (or what to do when
// there is none, or why it did not load), a tag made with a colour, renamed and recoloured in its
// dialog, and deleted after a confirmation that says how many links lose it.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Tags from '../src/pages/Tags';
import { analyst, developer } from './fixtures';
import { renderConsole, serveApi } from './render';

const spring = { id: 1, name: 'spring', color: '#2f9e44', linkCount: 3, createdAt: '2026-11-01T00:00:00Z' };

afterEach(() => vi.unstubAllGlobals());

describe('tags screen', () => {
  it('lists the tags with their colour and link count', async () => {
    serveApi({ 'GET /organizations/1/tags': { status: 200, body: { items: [spring] } } });
    renderConsole(<Tags membership={developer} />);
    const row = (await screen.findByText('spring')).closest('tr')!;
    expect(within(row).getByText('#2f9e44')).toBeTruthy();
    expect(within(row).getByText('3')).toBeTruthy();
  });

  it('says what to do when there are none, and why the list did not load', async () => {
    serveApi({ 'GET /organizations/1/tags': { status: 200, body: { items: [] } } });
    const { unmount } = renderConsole(<Tags membership={developer} />);
    expect(await screen.findByText(/아직 태그가 없습니다/)).toBeTruthy();
    unmount();
    serveApi({
      'GET /organizations/1/tags': {
        status: 500,
        body: { status: 500, error: 'Internal Server Error', message: 'database away', code: 'INTERNAL' },
      },
    });
    renderConsole(<Tags membership={developer} />);
    expect((await screen.findByRole('alert')).textContent).toContain('database away');
    expect(screen.getByRole('button', { name: '다시 시도' })).toBeTruthy();
  });

  it('makes a tag with a colour, and shows a clash beside the name', async () => {
    let clash = true;
    const sent = serveApi({
      'GET /organizations/1/tags': { status: 200, body: { items: [spring] } },
      'POST /organizations/1/tags': (r) =>
        clash
          ? {
              status: 409,
              body: {
                status: 409,
                error: 'Conflict',
                message: 'a tag with this name exists',
                code: 'TAG_EXISTS',
                details: [{ field: 'name', message: 'a tag with this name exists' }],
              },
            }
          : { status: 201, body: { ...spring, id: 2, linkCount: 0, ...(r.body as object) } },
    });
    renderConsole(<Tags membership={developer} />);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: '이름' }), 'Spring');
    await user.click(screen.getByRole('button', { name: '추가' }));
    expect((await screen.findAllByText('a tag with this name exists')).length).toBeGreaterThan(0);
    clash = false;
    const name = screen.getByRole('textbox', { name: '이름' });
    await user.clear(name);
    await user.type(name, 'vip');
    await user.type(screen.getByRole('textbox', { name: '색' }), '#e03131');
    await user.click(screen.getByRole('button', { name: '추가' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('태그 vip 을(를) 만들었습니다.'));
    expect(sent.filter((r) => r.method === 'POST').at(-1)?.body).toEqual({ name: 'vip', color: '#e03131' });
  });

  it('renames and recolours a tag in its dialog', async () => {
    const sent = serveApi({
      'GET /organizations/1/tags': { status: 200, body: { items: [spring] } },
      'PUT /organizations/1/tags/1': (r) => ({ status: 200, body: { ...spring, ...(r.body as object) } }),
    });
    renderConsole(<Tags membership={developer} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '편집: spring' }));
    const dialog = screen.getByRole('dialog', { name: '태그 편집: spring' });
    const name = within(dialog).getByRole('textbox', { name: '이름' });
    await user.clear(name);
    await user.type(name, 'spring-2027');
    const color = within(dialog).getByRole('textbox', { name: '색' });
    await user.clear(color);
    await user.type(color, '#1971c2');
    await user.click(within(dialog).getByRole('button', { name: '저장' }));
    await waitFor(() =>
      expect(sent.find((r) => r.method === 'PUT')?.body).toEqual({ name: 'spring-2027', color: '#1971c2' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('deletes a tag after saying how many links lose it', async () => {
    const sent = serveApi({
      'GET /organizations/1/tags': { status: 200, body: { items: [spring] } },
      'DELETE /organizations/1/tags/1': { status: 204 },
    });
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    renderConsole(<Tags membership={developer} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '삭제: spring' }));
    expect(confirm).toHaveBeenCalledWith('태그 spring 을(를) 삭제할까요? 링크 3개에서 이 태그가 빠집니다.');
    await waitFor(() =>
      expect(sent.some((r) => r.method === 'DELETE' && r.path === '/organizations/1/tags/1')).toBe(true),
    );
  });

  it('lets a developer without links.write look without changing', async () => {
    serveApi({ 'GET /organizations/1/tags': { status: 200, body: { items: [spring] } } });
    renderConsole(<Tags membership={analyst} />);
    expect((await screen.findByRole('button', { name: '삭제: spring' })).matches(':disabled')).toBe(true);
    expect(screen.getByText('태그를 바꾸려면 개발자 이상의 역할이 필요합니다.')).toBeTruthy();
  });
});
