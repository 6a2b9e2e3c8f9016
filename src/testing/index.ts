/** The sandbox lands here (see README). */
export {};
