import { describeException, type ExceptionDirection } from '../catalogue/exceptions.js';
import type { WebhookOrderType } from '../catalogue/order-types.js';
import { isFinalState, isKnownState, STATES } from '../catalogue/states.js';
import { FAILED_ATTEMPTS_LIMIT } from '../catalogue/transitions.js';
import { SandboxError } from './errors.js';
import { type Edge, edgesOf, flows, nodeKey, SCENARIOS, type ScenarioName, type ScenarioStep } from './flows.js';
import type { OrderRecord, SandboxStore, StateEvent } from './store.js';

/** What `advance` asks for: the next state, and for an Exception (47) optionally its reason code. */
export interface AdvanceOptions {
  /** The state to move to: one of `sandbox.nextStates(trackingNumber)`. */
  readonly to: number;
  /** Exception reason code for `to: 47`; default 1 (customer not at the address) going forward, 23 (business not answering) on the way back. */
  readonly exceptionCode?: number;
}

/** States any live order may enter whatever its flow (not shown by the spec; see docs/assumptions.md). */
const SIDE_STATES = [49, 100, 101, 102, 105];
const PAUSE_STATES = [102, 105];
const ARCHIVABLE = [45, 46, 60];
/** Not final, yet the sandbox moves them no further: Archived, which files away a settled order. */
const RESTING = [104];
/**
 * What may follow Awaiting your action (103), once the business has acted: the return completed
 * (46) or the order terminated (48). Not shown by the spec (docs/assumptions.md): offered so that
 * every path the sandbox plays can reach a final state.
 */
const AFTER_YOUR_ACTION = [46, 48];
/** States in which the courier is out: entering one is an attempt. */
const OUT_STATES = [22, 40, 41];
const DEFAULT_EXCEPTION: Readonly<Record<ExceptionDirection, number>> = { forward: 1, return: 23 };

const label = (state: number): string => `${state} (${isKnownState(state) ? STATES[state].name : 'unknown'})`;
const appliesTo = (state: number, type: WebhookOrderType): boolean => isKnownState(state) && STATES[state].appliesTo.includes(type);

/** Moves orders through their type's flow and reports each change; refuses what the flow does not allow. */
export class StateEngine {
  constructor(
    private readonly store: SandboxStore,
    private readonly now: () => number,
    private readonly onChange: (order: OrderRecord, event: StateEvent) => Promise<void>,
  ) {}

  order(trackingNumber: string): OrderRecord {
    const order = this.store.orders.get(String(trackingNumber));
    if (order === undefined) throw new SandboxError(`No order with tracking number ${trackingNumber} in this sandbox`);
    return order;
  }

  /** The transitions open to an order now, automatic ones excluded. */
  private options(order: OrderRecord): Edge[] {
    const { state, webhookType: type, leg } = order;
    if (PAUSE_STATES.includes(state)) {
      const resume: Edge[] = order.resumeState === undefined ? [] : [{ state: order.resumeState, type, leg, automatic: false }];
      return [...resume, ...this.side(order).filter((edge) => !PAUSE_STATES.includes(edge.state))];
    }
    if (ARCHIVABLE.includes(state)) return appliesTo(104, type) ? [{ state: 104, type, leg, automatic: false }] : [];
    if (isFinalState(state) || RESTING.includes(state)) return [];
    if (state === 103) return AFTER_YOUR_ACTION.filter((next) => appliesTo(next, type)).map((next) => ({ state: next, type, leg, automatic: false }));
    const flow = (edgesOf(order.kind).get(nodeKey(state, type, leg)) ?? []).filter((edge) => !edge.automatic);
    return [...flow, ...this.side(order).filter((edge) => !flow.some((f) => f.state === edge.state))];
  }

  private side(order: OrderRecord): Edge[] {
    return SIDE_STATES.filter((s) => s !== order.state && appliesTo(s, order.webhookType)).map((state) => ({
      state,
      type: order.webhookType,
      leg: order.leg,
      automatic: false,
    }));
  }

  /** The states `advance` would accept now. */
  nextStates(trackingNumber: string): number[] {
    return this.options(this.order(trackingNumber)).map((edge) => edge.state);
  }

  /** Moves the order one step (plus any automatic step that follows) and sends the webhooks. */
  async advance(trackingNumber: string, options: AdvanceOptions): Promise<StateEvent[]> {
    const order = this.order(trackingNumber);
    const choices = this.options(order);
    const edge = choices.find((e) => e.state === options.to);
    if (edge === undefined) {
      const allowed = choices.map((e) => e.state);
      throw new SandboxError(
        `Order ${order.trackingNumber} (${order.webhookType}) cannot move from ${label(order.state)} to ${label(options.to)}. ` +
          (allowed.length === 0 ? `Nothing follows ${label(order.state)} in the sandbox.` : `Allowed next: ${allowed.map(label).join(', ')}.`),
        { from: order.state, to: options.to, allowed },
      );
    }
    if (options.exceptionCode !== undefined && options.to !== 47) throw new SandboxError('exceptionCode applies only to the Exception state (47)');
    const events = [this.enter(order, edge, options.exceptionCode)];
    const automatic = this.automaticStep(order);
    if (automatic !== undefined) events.push(this.enter(order, automatic, undefined));
    for (const event of events) await this.onChange(order, event);
    return events;
  }

  /**
   * After the third failed attempt of a leg the service moves on by itself (48 or 103, spec
   * Events 6). A canceled order (49) is terminated (48) at once: what follows 49 is not shown,
   * and an order must not rest for ever in a state that is not final (docs/assumptions.md).
   */
  private automaticStep(order: OrderRecord): Edge | undefined {
    if (order.state === 49) return { state: 48, type: order.webhookType, leg: order.leg, automatic: true };
    if (order.state !== 47 || order.failures < FAILED_ATTEMPTS_LIMIT) return undefined;
    return edgesOf(order.kind)
      .get(nodeKey(order.state, order.webhookType, order.leg))
      ?.find((edge) => edge.automatic);
  }

  private enter(order: OrderRecord, edge: Edge, exceptionCode: number | undefined): StateEvent {
    const direction: ExceptionDirection = edge.leg === 'forward' ? 'forward' : 'return';
    let exception: { exceptionCode: number; exceptionReason: string } | undefined;
    if (edge.state === 47) {
      const code = exceptionCode ?? DEFAULT_EXCEPTION[direction];
      const described = describeException(code, direction);
      if (!described.known) throw new SandboxError(`Exception code ${code} is not a ${direction} exception reason of the spec`);
      exception = { exceptionCode: code, exceptionReason: described.reason };
    }
    if (edge.leg !== order.leg) {
      order.attempts = 0;
      order.failures = 0;
    }
    order.resumeState = PAUSE_STATES.includes(edge.state) ? (PAUSE_STATES.includes(order.state) ? order.resumeState : order.state) : undefined;
    order.state = edge.state;
    order.webhookType = edge.type;
    order.leg = edge.leg;
    if (OUT_STATES.includes(edge.state)) order.attempts += 1;
    if (edge.state === 47) order.failures += 1;
    // The service's timeStamps order an order's events; a clock that has not moved since the last
    // change (play() runs many steps in one millisecond) must not make two events look simultaneous.
    const last = order.history.at(-1)?.timeStamp ?? Number.NEGATIVE_INFINITY;
    const event: StateEvent = { state: edge.state, type: edge.type, timeStamp: Math.max(this.now(), last + 1), numberOfAttempts: order.attempts, ...exception };
    order.history.push(event);
    return event;
  }

  /**
   * Runs a scenario to its end from where the order is: from any state, type and leg the scenario
   * passes through (however the order got there), paused orders resuming first. An order whose
   * history is the start of the scenario goes on from there; otherwise from the scenario's last
   * pass through its state with as many failed attempts on the leg as the order has had. Refuses
   * an order at a state the scenario never passes through (or cannot go on from).
   */
  async play(trackingNumber: string, scenario: ScenarioName): Promise<StateEvent[]> {
    const order = this.order(trackingNumber);
    if (!SCENARIOS.includes(scenario)) throw new SandboxError(`Unknown scenario '${String(scenario)}'; use one of ${SCENARIOS.join(', ')}`);
    const steps = flows()[order.kind][scenario];
    if (steps === undefined) {
      const available = SCENARIOS.filter((name) => flows()[order.kind][name] !== undefined);
      throw new SandboxError(`Scenario '${scenario}' does not apply to ${order.kind} orders; available: ${available.join(', ')}`);
    }
    const events: StateEvent[] = [];
    const left = (): SandboxError =>
      new SandboxError(`Order ${order.trackingNumber} has left the '${scenario}' scenario (now in ${label(order.state)}), and cannot reach its end from there`);
    if (PAUSE_STATES.includes(order.state) && order.resumeState !== undefined && positionIn(steps, order, order.resumeState) !== undefined) {
      events.push(...(await this.advance(order.trackingNumber, { to: order.resumeState })));
    }
    let at = positionIn(steps, order, order.state);
    if (at === undefined) throw left();
    while (at < steps.length - 1) {
      const step = steps[at + 1] as ScenarioStep;
      if (step.automatic === true || !this.options(order).some((edge) => edge.state === step.state && edge.type === step.type)) throw left();
      const moved = await this.advance(
        order.trackingNumber,
        step.exceptionCode === undefined ? { to: step.state } : { to: step.state, exceptionCode: step.exceptionCode },
      );
      events.push(...moved);
      for (const event of moved) {
        at += 1;
        if (steps[at]?.state !== event.state || steps[at]?.type !== event.type) throw left();
      }
    }
    return events;
  }
}

/**
 * Where in `steps` the order (at `state`) stands: its place in history when that history is the
 * scenario's start; else the last step at that state, type and leg after as many failed attempts
 * on the leg as the order has had (so the automatic end comes on time); else the last at that state.
 */
function positionIn(steps: readonly ScenarioStep[], order: OrderRecord, state: number): number | undefined {
  const { history } = order;
  if (history.at(-1)?.state === state && history.every((event, i) => steps[i]?.state === event.state && steps[i]?.type === event.type))
    return history.length - 1;
  let fallback: number | undefined;
  for (let i = steps.length - 1; i >= 0; i -= 1) {
    const step = steps[i] as ScenarioStep;
    if (step.state !== state || step.type !== order.webhookType || step.leg !== order.leg) continue;
    const failures = steps.slice(0, i + 1).filter((earlier) => earlier.state === 47 && earlier.leg === step.leg).length;
    if (failures === order.failures) return i;
    fallback ??= i;
  }
  return fallback;
}
