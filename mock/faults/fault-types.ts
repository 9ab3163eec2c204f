/**
 * The types of the API faults (`backend.faults`): the book, what it takes (one fault, a plan) and what it lists (armed
 * faults, the calls they changed). Reached as `MockFaults.X` from `linkgate/mock`, so the entry's top level stays the
 * few names a test starts from.
 *
 * @module
 */
export type { ArmedFault, FaultBook, FaultEvents, FiredFault } from './fault-book.js';
export type { ApiFaultInput, DeliveryFaultInput, FAULT_KINDS, FaultKind, FaultPlanInput } from './fault-input.js';
