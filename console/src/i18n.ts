// The console's words, Korean first. The language comes from the page (the service sets <html
// lang> from ?lang and Accept-Language), then from the user's saved choice.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './locales/en';
import { ko } from './locales/ko';

export function startI18n(): typeof i18next {
  const lang = document.documentElement.lang === 'en' ? 'en' : 'ko';
  void i18next.use(initReactI18next).init({
    resources: { ko: { translation: ko }, en: { translation: en } },
    lng: lang,
    fallbackLng: 'ko',
    interpolation: { escapeValue: false },
  });
  return i18next;
}
