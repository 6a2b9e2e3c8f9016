/** The longest wait a timer takes (2^31-1 ms, 24.8 days); a longer one is no timer at all (it fires at once). */
export const MAX_TIMER = 2 ** 31 - 1;
