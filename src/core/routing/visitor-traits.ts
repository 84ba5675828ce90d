// The visitor traits rules read, from the stores the click consumer uses too: the country, region
// and city of the address from the geo database, the device, OS and browser from the user-agent
// parser, named as rules name them (deviceTypes mobile/tablet/desktop, os
// ios/android/windows/macos/linux, browsers as BROWSERS lists them, in lower case).
import type { AgentParser } from '../../ingest/enrich.js';
import type { GeoLookup } from '../../ingest/geo.js';
import type { RuleDeviceType, RuleOs, VisitorTraits } from './routing-rules.js';

/** ua-parser's OS names of the Linux family (Android and Chrome OS are not "linux" to a rule). */
const LINUX_NAMES =
  /^(linux|ubuntu|kubuntu|xubuntu|debian|fedora|mint|arch|centos|gentoo|red ?hat|suse|opensuse|slackware|mandriva|mageia|manjaro|deepin|elementary os|raspbian|pclinuxos|zenwalk|linpus|knoppix|sabayon|vectorlinux)$/i;

export function ruleOsOf(osName: string): RuleOs | '' {
  switch (osName) {
    case 'iOS':
      return 'ios';
    case 'Android':
      return 'android';
    case 'Windows':
      return 'windows';
    case 'Mac OS':
    case 'macOS':
      return 'macos';
    default:
      return LINUX_NAMES.test(osName) ? 'linux' : '';
  }
}

/** The parser's names folded into the families rules name (BROWSERS), in lower case. */
const BROWSER_FAMILY: Record<string, string> = {
  'mobile safari': 'safari',
  'mobile chrome': 'chrome',
  'chrome headless': 'chrome',
  'mobile firefox': 'firefox',
  'firefox focus': 'firefox',
  'opera mini': 'opera',
  'opera mobi': 'opera',
  'opera touch': 'opera',
  'opera gx': 'opera',
  'opera coast': 'opera',
  uc: 'ucbrowser',
  'uc browser': 'ucbrowser',
};

export function browserFamilyOf(browserName: string): string {
  const name = browserName.toLowerCase();
  if (name === 'unknown') return '';
  return BROWSER_FAMILY[name] ?? name;
}

export function createVisitorTraits(deps: { geo: GeoLookup; parseAgent: AgentParser }): VisitorTraits {
  return {
    country: (ip) => deps.geo.country(ip),
    place: (ip) => deps.geo.place(ip),
    agent(userAgent) {
      const parsed = deps.parseAgent(userAgent);
      return {
        deviceType: parsed.deviceType.toLowerCase() as RuleDeviceType,
        os: ruleOsOf(parsed.os),
        browser: browserFamilyOf(parsed.browser),
      };
    },
  };
}
