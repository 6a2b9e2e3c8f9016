// Facts of the service that calls check before sending, in a module of their own: the main entry
// publishes them without loading the calls that use them.

/** The states in which an order may still be changed (10, 11, 20, 21, 22, 24, 30, 41, 47), as the integrations document it. */
export const EDITABLE_STATES: readonly number[] = [10, 11, 20, 21, 22, 24, 30, 41, 47];

/** The most labels one call returns: the service e-mails larger requests instead of answering them. */
export const MAX_AIRWAY_BILLS = 50;
