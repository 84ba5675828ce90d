// The operator API's answer to an organization id that does not exist: the organizations core's
// rule, under the name the other operator routes import until they call a core service.
export { existingOrganization as found } from '../../core/organizations/existing-organization.js';
