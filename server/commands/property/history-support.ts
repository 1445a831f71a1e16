/** What the property.history.* commands share: the history service over the caller's property service, and the version parameter. */
import type { JsonSchema } from '../../../shared/commands';
import { PropertyHistoryService } from '../../store/property-history-service';
import { propertiesOf, type PropertyContext } from './property-command-support';

/** The history service (stateless, over the server's property service). */
export function historyOf(ctx: PropertyContext): PropertyHistoryService {
  return new PropertyHistoryService(propertiesOf(ctx));
}

export const VERSION_ID: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description: 'The id of a kept version, as property.history.list shows it.',
};
