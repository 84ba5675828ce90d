// The visitor traits rules read, from the stores the click consumer uses too: the country of the
// address from the geo database, the device and OS from the user-agent parser, named as rules name
// them (deviceTypes mobile/tablet/desktop, os ios/android/windows/macos/linux).
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

export function createVisitorTraits(deps: { geo: GeoLookup; parseAgent: AgentParser }): VisitorTraits {
  return {
    country: (ip) => deps.geo.country(ip),
    agent(userAgent) {
      const parsed = deps.parseAgent(userAgent);
      return { deviceType: parsed.deviceType.toLowerCase() as RuleDeviceType, os: ruleOsOf(parsed.os) };
    },
  };
}
