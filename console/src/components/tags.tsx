// The organization's tags as lists and editors show them: loaded once per organization (the
// Tags screen's list, so a change there recolours every chip), and a link's tags as chips in
// their colours, the text black or white, whichever reads on the colour.
import { Badge, Group } from '@mantine/core';
import type { TagList } from '../api';
import { useOrgList } from './use-org-list';

export function useTags(orgId: number) {
  return useOrgList<TagList>(orgId, 'tags', 'tags');
}

export function TagChips({ names, tags }: { names: string[]; tags: TagList | undefined }) {
  if (names.length === 0) return null;
  const colorOf = (name: string) => tags?.items.find((t) => t.name.toLowerCase() === name.toLowerCase())?.color;
  return (
    <Group gap={4} data-testid="tag-chips">
      {names.map((name) => (
        <Badge key={name} size="sm" variant="filled" color={colorOf(name) ?? 'gray'} autoContrast tt="none">
          {name}
        </Badge>
      ))}
    </Group>
  );
}
