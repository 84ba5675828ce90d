// The error body's `message` in Korean, by `code`, for callers whose Accept-Language prefers Korean
// to English (the body's shape and code never change; English stays the default). Where the
// English message carries a detail the caller needs (which field, what the database or the SQL
// check refused), the Korean sentence is followed by that detail as it was, after `; `: the
// separator of a validation message's parts, so a client that reads `body.field: …` parts (the
// console) still finds them. Partner sign-in errors
// (SSO_…) are Korean already, as the contract wants them.
import { negotiateLanguage } from '../shared/language.js';

const API_LANGUAGES = ['en', 'ko'] as const;

/** Codes whose English message names what was wrong: kept after the Korean. */
const WITH_DETAIL = 'detail';

const KOREAN: Record<string, string | readonly [string, typeof WITH_DETAIL]> = {
  VALIDATION_FAILED: ['요청 값이 규칙에 맞지 않습니다', WITH_DETAIL],
  INVALID_TEXT: ['저장할 수 없는 문자가 들어 있습니다', WITH_DETAIL],
  INVALID_VALUE: ['값이 올바르지 않습니다', WITH_DETAIL],
  VALUE_TOO_LONG: ['값이 너무 깁니다', WITH_DETAIL],
  VALUE_OUT_OF_RANGE: ['값이 허용 범위를 벗어났습니다', WITH_DETAIL],
  INVALID_DATE_TIME: ['날짜나 시각이 올바르지 않습니다', WITH_DETAIL],
  VALUE_TOO_LARGE: ['값이 너무 큽니다', WITH_DETAIL],
  BAD_REQUEST: ['요청을 처리할 수 없습니다', WITH_DETAIL],
  MALFORMED_JSON: '요청 본문이 올바른 JSON이 아닙니다.',
  EMPTY_BODY: '요청 본문이 비어 있습니다. JSON 객체를 보내 주세요.',
  BODY_TOO_LARGE: '요청 본문이 너무 큽니다.',
  UNSUPPORTED_MEDIA_TYPE: 'Content-Type은 application/json이어야 합니다.',
  INVALID_CONTENT_LENGTH: 'Content-Length 헤더가 올바르지 않습니다.',
  BAD_URL: 'URL이 올바르지 않습니다. 퍼센트 인코딩된 부분이 UTF-8 텍스트가 아닙니다.',
  URI_TOO_LONG: 'URL이 너무 깁니다.',
  REQUEST_TIMEOUT: '요청이 제시간에 도착하지 않았습니다.',
  ROUTE_NOT_FOUND: '요청한 경로가 없습니다.',
  INTERNAL_ERROR: '서버 내부 오류가 발생했습니다. 응답의 X-Request-Id로 문의해 주세요.',
  SHUTTING_DOWN: '이 인스턴스는 종료 중입니다. 잠시 후 다시 시도해 주세요.',
  API_KEY_MISSING: 'X-API-KEY 헤더가 필요합니다.',
  API_KEY_INVALID: 'API 키가 유효하지 않거나 삭제되었습니다.',
  API_KEY_NOT_FOUND: 'API 키를 찾을 수 없습니다.',
  API_KEY_SCOPE_MISSING: ['이 API 키에는 이 호출에 필요한 범위(scope)가 없습니다', WITH_DETAIL],
  SESSION_FAILURES: '잘못된 콘솔 세션 시도가 너무 많습니다. Retry-After 이후에 다시 시도해 주세요.',
  API_KEY_FAILURES: '잘못된 API 키 시도가 너무 많습니다. Retry-After 이후에 다시 시도해 주세요.',
  ADMIN_TOKEN_INVALID: '운영자 토큰이 없거나 올바르지 않습니다.',
  ADMIN_TOKEN_FAILURES: '잘못된 운영자 토큰 시도가 너무 많습니다. Retry-After 이후에 다시 시도해 주세요.',
  METRICS_TOKEN_INVALID: '메트릭 토큰이 없거나 올바르지 않습니다.',
  APP_CREDENTIALS_MISSING: '앱 ID와 모바일 앱 API 키가 필요합니다.',
  APP_CREDENTIALS_INVALID: '앱 ID 또는 모바일 앱 API 키가 올바르지 않습니다.',
  APP_CREDENTIALS_FAILURES: '잘못된 앱 인증 시도가 너무 많습니다. Retry-After 이후에 다시 시도해 주세요.',
  APP_ID_MISSING: '앱 ID가 필요합니다.',
  APP_ID_INVALID: '앱 ID가 올바르지 않습니다.',
  USER_HASH_REQUIRED: '신원 확인을 위한 userHash가 필요합니다.',
  USER_HASH_INVALID: 'userHash가 올바르지 않습니다.',
  USER_HASH_FAILURES: '잘못된 신원 확인 시도가 너무 많습니다. Retry-After 이후에 다시 시도해 주세요.',
  IDENTITY_VERIFICATION_REQUIRED: '이 조직에서는 신원 확인을 켠 앱으로만 사용자를 식별할 수 있습니다.',
  IP_NOT_ALLOWED: '조직의 IP 허용 목록에 없는 주소에서 온 요청입니다.',
  QUOTA_EXCEEDED: '이번 달 Service API 호출 한도를 모두 사용했습니다.',
  RATE_LIMITED: '요청이 너무 많습니다. Retry-After 이후에 다시 시도해 주세요.',
  ADD_ON_REQUIRED: '이 조직에는 사용자 여정 분석 부가 기능이 켜져 있지 않습니다.',
  PLAN_UPGRADE_REQUIRED: '이 기능은 상위 요금제에서 사용할 수 있습니다.',
  ORGANIZATION_NOT_FOUND: '조직을 찾을 수 없습니다.',
  SHORT_URL_NOT_FOUND: '단축 URL을 찾을 수 없습니다.',
  CAMPAIGN_NOT_FOUND: '캠페인을 찾을 수 없습니다.',
  LINK_NOT_FOUND: '링크를 찾을 수 없습니다.',
  LINK_EXPIRED: '링크가 만료되었습니다.',
  ALIAS_TAKEN: '이미 사용 중인 단축 코드 또는 별칭입니다.',
  MOBILE_APP_NOT_FOUND: '모바일 앱을 찾을 수 없습니다.',
  APP_NOT_FOUND: '앱을 찾을 수 없습니다.',
  APP_IN_USE: '링크가 연결된 앱이라 이 변경을 할 수 없습니다.',
  APP_PLATFORM_MISMATCH: '앱의 플랫폼이 요청과 맞지 않습니다.',
  CUSTOM_DOMAIN_NOT_FOUND: '커스텀 도메인을 찾을 수 없습니다.',
  CUSTOM_DOMAIN_NOT_USABLE: '인증(VERIFIED 또는 ACTIVE)되지 않은 커스텀 도메인입니다.',
  DOMAIN_TAKEN: '이미 등록된 도메인입니다.',
  DOMAIN_NOT_SERVED: '이 도메인은 아직 인증되지 않아 제공되지 않습니다.',
  DEEP_LINK_TOKEN_NOT_FOUND: '딥 링크 토큰이 없거나 만료되었습니다.',
  SESSION_NOT_FOUND: '세션을 찾을 수 없습니다.',
  SESSION_REQUIRED: '로그인이 필요합니다. 세션이 없거나 만료되었습니다.',
  CSRF_ORIGIN_MISMATCH: '다른 출처에서 온 변경 요청은 받을 수 없습니다.',
  CSRF_TOKEN_INVALID: 'X-CSRF-Token이 없거나 이 세션의 것이 아닙니다.',
  ROLE_FORBIDDEN: '현재 역할로는 이 작업을 할 수 없습니다.',
  OWNER_ROLE_RESERVED: '소유자(owner)만 소유자를 지정하거나 바꾸거나 내보낼 수 있습니다.',
  LAST_OWNER: '조직에 소유자가 한 명도 남지 않게 되는 변경입니다.',
  MEMBER_NOT_FOUND: '구성원을 찾을 수 없습니다.',
  USER_NOT_FOUND: '이 이메일 주소의 계정이 없습니다.',
  EMAIL_INVALID: '이메일 주소가 올바르지 않습니다.',
  SIGN_IN_RATE_LIMITED: '로그인 시도가 너무 많습니다. 잠시 후 다시 시도해 주세요.',
  SIGN_IN_EMAIL_LIMIT: '이 이메일 주소로 보낸 로그인 링크가 너무 많습니다. 잠시 후 다시 시도해 주세요.',
  PARTNER_NOT_FOUND: '파트너를 찾을 수 없습니다.',
  GOAL_TYPE_NOT_FOUND: '목표 유형을 찾을 수 없습니다.',
  GOAL_TYPE_EXISTS: '같은 이름의 목표 유형이 이미 있습니다.',
  GOAL_TYPE_PRESET: '기본 제공 목표 유형과 같은 이름은 쓸 수 없습니다.',
  WEBHOOK_NOT_CONFIGURED: '웹훅이 설정되어 있지 않습니다.',
  WEBHOOK_DISABLED: '웹훅이 꺼져 있습니다.',
  WEBHOOK_SECRET_REQUIRED: '처음 설정할 때는 웹훅 시크릿이 필요합니다.',
  WEBHOOK_DELIVERY_NOT_FOUND: '웹훅 전송 기록을 찾을 수 없습니다.',
  WEBHOOK_URL_INVALID: ['웹훅 URL이 올바르지 않습니다', WITH_DETAIL],
  WEBHOOK_URL_INSECURE: '웹훅 URL은 https://여야 합니다.',
  WEBHOOK_URL_FORBIDDEN: ['웹훅 URL이 사설, 루프백 또는 예약된 주소를 가리킵니다', WITH_DETAIL],
  WEBHOOK_DNS_FAILED: ['웹훅 호스트 이름을 확인할 수 없습니다', WITH_DETAIL],
  SQL_EMPTY: '쿼리가 비어 있습니다.',
  SQL_MULTIPLE_STATEMENTS: '쿼리는 한 문장만 보낼 수 있습니다.',
  SQL_NOT_READ_ONLY: ['읽기 전용 쿼리만 실행할 수 있습니다', WITH_DETAIL],
  SQL_CLAUSE_NOT_ALLOWED: ['허용되지 않는 구문이 들어 있습니다', WITH_DETAIL],
  SQL_REFUSED: ['ClickHouse가 쿼리를 거부했습니다', WITH_DETAIL],
};

/** The language of the error messages for a request's Accept-Language: Korean only when preferred. */
export const errorLanguageOf = (acceptLanguage: string | undefined): 'en' | 'ko' =>
  negotiateLanguage(acceptLanguage, API_LANGUAGES) ?? 'en';

/** The message in the caller's language; the English one where no Korean is written. */
export function localizedMessage(language: 'en' | 'ko', code: string, english: string): string {
  if (language === 'en') return english;
  const korean = KOREAN[code];
  if (korean === undefined) return english;
  if (typeof korean === 'string') return korean;
  return `${korean[0]}; ${english}`;
}
