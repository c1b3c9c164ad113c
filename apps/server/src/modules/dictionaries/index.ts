/** The dictionaries module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { DictionariesService } from './dictionaries.service.ts';
export { DictionaryDomainService, DictionaryEvents, isUniqueViolation, type LocationItems } from './dictionary-events.ts';
/** Locations are the LOCATION dictionary's items: their views and attribute values are kept here. */
export { deleteValuesOfItem, findItem, isInSubtree, itemView } from './dictionaries.repository.ts';
// The location.* messages are in the dictionaries' catalogue.
import './dictionaries.messages.ts';
