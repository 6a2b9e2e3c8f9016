import { ConfigurationError, DeliveryError, type RequestSummary, type ValidationIssue } from './base.js';
import type { BulkCreatedDelivery, BulkCreateResult, BulkFailure } from './bulk-result.js';
import { ErrorCode, errorCodeMeaning } from './codes.js';
import type { PlaceCandidate } from './places.js';

/** What a {@link CodedDeliveryError} subclass is built with. You need it only to construct one yourself (e.g. in tests). */
export interface CodedErrorOptions {
  /** `'client'` when the SDK found the problem before sending; `'server'` when the service answered it. */
  source: 'client' | 'server';
  message?: string | undefined;
  status?: number | undefined;
  body?: unknown;
  headers?: Record<string, string> | undefined;
  request?: RequestSummary | undefined;
  issues?: readonly ValidationIssue[] | undefined;
  /** How many more problems were found than `issues` lists. */
  unlistedIssues?: number | undefined;
  cause?: unknown;
  /** A note for developers, kept out of `message` (see `DeliveryError.hint`). */
  hint?: string | undefined;
  /** `'message'` when the service sent no errorCode and the code was read from its message (one of the spec's own texts). */
  inferredFrom?: 'message' | undefined;
  /** City, zone and district not-found errors: the places the name may have meant, best first. */
  candidates?: readonly PlaceCandidate[] | undefined;
  /** City, zone and district not-found errors: what was not found, and where, without the candidates. */
  unmatched?: string | undefined;
}

/**
 * An error with one of the spec's errorCodes. The same class is thrown whether the
 * SDK caught the rule before sending (`source: 'client'`, nothing sent) or the service
 * answered it (`source: 'server'`, with `status`, `body`, `headers`), so one `catch` handles both.
 */
export abstract class CodedDeliveryError<C extends ErrorCode = ErrorCode> extends DeliveryError {
  declare readonly errorCode: C;
  /** `'client'`: the SDK found the problem and sent nothing; `'server'`: the service answered with this code. */
  readonly source: 'client' | 'server';
  /** HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** The error body, when the server answered. */
  readonly body: unknown;
  /** Response headers, when the server answered. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** Method and URL of the request, when the server answered. */
  readonly request: RequestSummary | undefined;
  /** The problems found with their field paths, the first 100 (client side; empty for server answers). */
  readonly issues: readonly ValidationIssue[];
  /** How many more problems were found than `issues` lists (0 unless there were more than 100). */
  readonly unlistedIssues: number;
  /**
   * `'message'` when the service answered without an errorCode and the SDK read the code from the
   * message, which was one of the spec's own texts (`District Not Found: ...`, as a bulk upload's
   * per-order failures read); `undefined` when the service sent the code or the SDK found the problem.
   */
  readonly inferredFrom: 'message' | undefined;

  protected constructor(code: C, options: CodedErrorOptions) {
    super(options.message ?? `${errorCodeMeaning[code]} (errorCode ${code})`, { errorCode: code, cause: options.cause, hint: options.hint });
    this.inferredFrom = options.inferredFrom;
    this.source = options.source;
    this.status = options.status;
    this.body = options.body;
    this.headers = options.headers;
    this.request = options.request;
    this.issues = options.issues ?? [];
    this.unlistedIssues = options.unlistedIssues ?? 0;
  }
}

/**
 * 1061: some deliveries of a bulk upload failed. Thrown by `deliveries.createBulk` whenever it did
 * not create every order, with what it did: `created` and `failed` by input index, and `stopped`
 * when it ended early. (A 1061 answer to a raw `client.request` leaves them empty; read `body`.)
 */
export class BulkCreationError extends CodedDeliveryError<1061> {
  override name = 'BulkCreationError';
  /** The whole outcome, as `createBulk` would have returned it. */
  declare readonly result: BulkCreateResult;
  /**
   * The errors the service answered for whole requests of the upload (a non-2xx answer that still
   * listed per-order outcomes), in order of arrival: each keeps the service's `errorCode`
   * (`777` stays `777`), `message`, `status` and `body`. The first one's `status`, `body`,
   * `headers` and `request` are this error's too, and it is the `cause` unless the upload stopped.
   */
  declare readonly serviceErrors: readonly DeliveryError[];

  constructor(options: CodedErrorOptions & { result?: BulkCreateResult | undefined; serviceErrors?: readonly DeliveryError[] | undefined }) {
    super(ErrorCode.BulkCreationFailed, options);
    // Not enumerable: logging the error (toJSON, util.inspect) must not print 100,000 entries.
    Object.defineProperty(this, 'result', { value: options.result ?? { created: [], failed: [], createdIds: [] }, enumerable: false });
    Object.defineProperty(this, 'serviceErrors', { value: options.serviceErrors ?? [], enumerable: false });
  }

  /** The orders that were created, with their input index. */
  get created(): readonly BulkCreatedDelivery[] {
    return this.result.created;
  }

  /** The orders sent but not created, each with its error (`mayExist` when the outcome is unknown). */
  get failed(): readonly BulkFailure[] {
    return this.result.failed;
  }

  /** Where and why the upload stopped before the end of the input, if it did. */
  get stopped(): BulkCreateResult['stopped'] {
    return this.result.stopped;
  }
}

/** 1073: the business has no pickup location yet; add one with `businesses.updatePickupLocations`. */
export class BusinessLocationRequiredError extends CodedDeliveryError<1073> {
  override name = 'BusinessLocationRequiredError';
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.BusinessLocationRequired, options);
  }
}

/** 2150: `allowToOpenPackage` is true but `deliveryImages` is missing or empty. */
export class DeliveryImagesRequiredError extends CodedDeliveryError<2150> {
  override name = 'DeliveryImagesRequiredError';
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.DeliveryImagesRequired, options);
  }
}

/** 2151: a URL in `deliveryImages` is not a valid http(s) URL. */
export class InvalidDeliveryImageUrlError extends CodedDeliveryError<2151> {
  override name = 'InvalidDeliveryImageUrlError';
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.InvalidDeliveryImageUrl, options);
  }
}

/** 2152: images of one type mix dashboard uploads and external links. */
export class MixedDeliveryImageSourcesError extends CodedDeliveryError<2152> {
  override name = 'MixedDeliveryImageSourcesError';
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.MixedDeliveryImageSources, options);
  }
}

/** 3001: the city is unknown; take it from `lookup.cities`. */
export class CityNotFoundError extends CodedDeliveryError<3001> {
  override name = 'CityNotFoundError';
  /** From `lookup.resolveAddress`: the places the name may have meant (`{ id, name, nameAr? }`), best first; empty otherwise. */
  readonly candidates: readonly PlaceCandidate[];
  /**
   * From `lookup.resolveAddress`: what was not found, and where, as the message says it before its
   * closest places (`no district matches 'Zamalik' in Cairo (القاهرة)`): a message of your own adds
   * its "did you mean" from {@link candidates}. Undefined otherwise.
   */
  readonly unmatched: string | undefined;
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.CityNotFound, options);
    this.candidates = options.candidates ?? [];
    this.unmatched = options.unmatched;
  }
}

/** 3002: the zone is unknown; take it from `lookup.zones`. */
export class ZoneNotFoundError extends CodedDeliveryError<3002> {
  override name = 'ZoneNotFoundError';
  /** From `lookup.resolveAddress`: the places the name may have meant (`{ id, name, nameAr? }`), best first; empty otherwise. */
  readonly candidates: readonly PlaceCandidate[];
  /**
   * From `lookup.resolveAddress`: what was not found, and where, as the message says it before its
   * closest places (`no district matches 'Zamalik' in Cairo (القاهرة)`): a message of your own adds
   * its "did you mean" from {@link candidates}. Undefined otherwise.
   */
  readonly unmatched: string | undefined;
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.ZoneNotFound, options);
    this.candidates = options.candidates ?? [];
    this.unmatched = options.unmatched;
  }
}

/** 3003: the district is unknown; take it from `lookup.districts`. */
export class DistrictNotFoundError extends CodedDeliveryError<3003> {
  override name = 'DistrictNotFoundError';
  /** From `lookup.resolveAddress`: the places the name may have meant (`{ id, name, nameAr? }`), best first; empty otherwise. */
  readonly candidates: readonly PlaceCandidate[];
  /**
   * From `lookup.resolveAddress`: what was not found, and where, as the message says it before its
   * closest places (`no district matches 'Zamalik' in Cairo (القاهرة)`): a message of your own adds
   * its "did you mean" from {@link candidates}. Undefined otherwise.
   */
  readonly unmatched: string | undefined;
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.DistrictNotFound, options);
    this.candidates = options.candidates ?? [];
    this.unmatched = options.unmatched;
  }
}

/** 3004: the street code is unknown. */
export class StreetCodeNotFoundError extends CodedDeliveryError<3004> {
  override name = 'StreetCodeNotFoundError';
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.StreetCodeNotFound, options);
  }
}

/** 3005: a Customer Return Pickup accepts only a refund COD (a negative amount). */
export class CrpRefundCodOnlyError extends CodedDeliveryError<3005> {
  override name = 'CrpRefundCodOnlyError';
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.CrpRefundCodOnly, options);
  }
}

/** 3006: a Cash Collection order needs `cod`. */
export class CodRequiredError extends CodedDeliveryError<3006> {
  override name = 'CodRequiredError';
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.CodRequired, options);
  }
}

/** 3007: `cod` is above 30000 EGP. */
export class CodLimitExceededError extends CodedDeliveryError<3007> {
  override name = 'CodLimitExceededError';
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.CodLimitExceeded, options);
  }
}

/** 3008: a refund COD is above 30000 EGP. */
export class RefundCodLimitExceededError extends CodedDeliveryError<3008> {
  override name = 'RefundCodLimitExceededError';
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.RefundCodLimitExceeded, options);
  }
}

/** 3009: the address has none of `city`, `zoneId` or `districtId`. */
export class AddressLocationRequiredError extends CodedDeliveryError<3009> {
  override name = 'AddressLocationRequiredError';
  constructor(options: CodedErrorOptions) {
    super(ErrorCode.AddressLocationRequired, options);
  }
}

/** The class thrown for each code. */
export interface ErrorClassByCode {
  1061: BulkCreationError;
  1073: BusinessLocationRequiredError;
  2150: DeliveryImagesRequiredError;
  2151: InvalidDeliveryImageUrlError;
  2152: MixedDeliveryImageSourcesError;
  3001: CityNotFoundError;
  3002: ZoneNotFoundError;
  3003: DistrictNotFoundError;
  3004: StreetCodeNotFoundError;
  3005: CrpRefundCodOnlyError;
  3006: CodRequiredError;
  3007: CodLimitExceededError;
  3008: RefundCodLimitExceededError;
  3009: AddressLocationRequiredError;
}

const constructors: { [C in ErrorCode]: new (options: CodedErrorOptions) => ErrorClassByCode[C] } = {
  1061: BulkCreationError,
  1073: BusinessLocationRequiredError,
  2150: DeliveryImagesRequiredError,
  2151: InvalidDeliveryImageUrlError,
  2152: MixedDeliveryImageSourcesError,
  3001: CityNotFoundError,
  3002: ZoneNotFoundError,
  3003: DistrictNotFoundError,
  3004: StreetCodeNotFoundError,
  3005: CrpRefundCodOnlyError,
  3006: CodRequiredError,
  3007: CodLimitExceededError,
  3008: RefundCodLimitExceededError,
  3009: AddressLocationRequiredError,
};

/** Builds the error of a spec code, from either side. */
export function createCodedError<C extends ErrorCode>(code: C, options: CodedErrorOptions): ErrorClassByCode[C] {
  const Ctor = (typeof code === 'number' && Object.hasOwn(constructors, code) ? constructors[code] : undefined) as
    | (new (
        options: CodedErrorOptions,
      ) => ErrorClassByCode[C])
    | undefined;
  if (Ctor === undefined) throw new ConfigurationError(`createCodedError: ${typeof code === 'number' ? code : typeof code} is not a spec errorCode`);
  let read: CodedErrorOptions;
  try {
    read = { ...options };
  } catch (cause) {
    throw new ConfigurationError('createCodedError: the options could not be read', { cause });
  }
  return new Ctor(read);
}
