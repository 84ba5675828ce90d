// The outcome of an action, above the screen's content: green and announced politely on success,
// red and announced at once on failure; the person closes it.
import { Alert } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface NoticeState {
  ok: boolean;
  text: string;
}

function Notice({ notice, onClose }: { notice: NoticeState | null; onClose: () => void }) {
  const { t } = useTranslation();
  if (!notice) return null;
  return (
    <Alert
      color={notice.ok ? 'green' : 'red'}
      role={notice.ok ? 'status' : 'alert'}
      withCloseButton
      closeButtonLabel={t('close')}
      onClose={onClose}
    >
      {notice.text}
    </Alert>
  );
}

/** A screen's notice: what to call with an outcome, and the box that shows it until closed. */
export function useNotice() {
  const [notice, setNotice] = useState<NoticeState | null>(null);
  return { notify: setNotice, noticeBox: <Notice notice={notice} onClose={() => setNotice(null)} /> };
}
