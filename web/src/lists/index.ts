/** The lists feature: an object's instances as a server-paged, virtualized table. */
export { ObjectList, type ObjectListProps } from './ObjectList';
