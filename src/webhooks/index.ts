export {
  DeliveryState,
  describeException,
  describeState,
  ExceptionReason,
  isFinalState,
  STATES,
  WebhookOrderType,
} from '../catalogue/index.js';
