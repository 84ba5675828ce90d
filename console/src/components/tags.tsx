// The organization's tags as lists and editors show them: loaded once per organization (the
// Tags screen's list, so a change there recolours every chip), and a link's tags as chips in
// their colours, the text black or white, whichever contrasts more with the colour (WCAG's
// relative luminance: Mantine's autoContrast puts white on mid greens that fall short of AA).
import { Badge, Group } from '@mantine/core';
import type { TagList } from '../api';
import { useOrgList } from './use-org-list';

export function useTags(orgId: number) {
  return useOrgList<TagList>(orgId, 'tags', 'tags');
}

const channel = (hex: string) => {
  const c = Number.parseInt(hex, 16) / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** Black or white, whichever reads better on `#rrggbb`. */
function textOn(color: string): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!m) return '#000';
  const l = 0.2126 * channel(m[1]!) + 0.7152 * channel(m[2]!) + 0.0722 * channel(m[3]!);
  // White's contrast (1.05 / (l + 0.05)) against black's ((l + 0.05) / 0.05).
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#fff' : '#000';
}

export function TagChips({ names, tags }: { names: string[]; tags: TagList | undefined }) {
  if (names.length === 0) return null;
  const colorOf = (name: string) => tags?.items.find((t) => t.name.toLowerCase() === name.toLowerCase())?.color;
  return (
    <Group gap={4} data-testid="tag-chips">
      {names.map((name) => {
        const color = colorOf(name) ?? '#495057';
        return (
          <Badge key={name} size="sm" variant="filled" color={color} c={textOn(color)} tt="none">
            {name}
          </Badge>
        );
      })}
    </Group>
  );
}
