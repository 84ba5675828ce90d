// A list read a page at a time: the page (zero-based, as the API counts) and, once the answer has
// come, the table's page picker for it.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Paging } from './DataTable';

export function usePages() {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const paging = (answer: { totalPages: number } | undefined): Paging | undefined =>
    answer && { page, totalPages: answer.totalPages, onChange: setPage, label: t('links.pages') };
  return { page, setPage, paging };
}
