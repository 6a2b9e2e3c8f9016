import type { WebhookOrderType } from '../catalogue/order-types.js';
import { type FlowStep, FULFILLMENT_FLOWS } from '../catalogue/transitions.js';
import type { FlowKind, Leg } from './store.js';

/** The scripted journeys `sandbox.play` runs. */
export type ScenarioName = 'success' | 'exceptionThenSuccess' | 'unsuccessful' | 'threeFailedAttempts';
/** Every {@link ScenarioName}, e.g. to run one test per scenario. */
export const SCENARIOS: readonly ScenarioName[] = ['success', 'exceptionThenSuccess', 'unsuccessful', 'threeFailedAttempts'];

export interface ScenarioStep extends FlowStep {
  readonly leg: Leg;
  /** Exception code used by `play` for this 47 (otherwise the leg's default). */
  readonly exceptionCode?: number;
  /** Pushed by the service itself after the third failed attempt, never asked for. */
  readonly automatic?: boolean;
}

/**
 * The flows of the types the spec leaves unshown (see docs/assumptions.md). Notation:
 * `TYPE: states | TYPE: states`; `47@8` is an exception with code 8; `48!` an automatic state.
 * `returnFailures` is no scenario: it only adds the return-leg exception edges to the graph.
 */
const DEFINED: Readonly<Record<Exclude<FlowKind, 'FXF_SEND'>, Readonly<Partial<Record<ScenarioName | 'returnFailures', string>>>>> = {
  SEND: {
    success: 'SEND: 10 20 21 24 30 24 41 45',
    exceptionThenSuccess: 'SEND: 10 20 21 24 30 24 41 47 24 41 45',
    unsuccessful: 'SEND: 10 20 21 24 30 24 41 47@8 24 | RTO: 24 30 24 41 46',
    threeFailedAttempts: 'SEND: 10 20 21 24 30 24 41 47@8 24 | RTO: 24 41 47 24 41 47 24 41 47 103!',
  },
  CASH_COLLECTION: {
    success: 'CASH_COLLECTION: 11 20 40 45',
    exceptionThenSuccess: 'CASH_COLLECTION: 11 20 40 47 40 45',
    unsuccessful: 'CASH_COLLECTION: 11 20 40 47@8 40 47@8 40 47@8 48!',
    threeFailedAttempts: 'CASH_COLLECTION: 11 20 40 47 40 47 40 47 48!',
  },
  CUSTOMER_RETURN_PICKUP: {
    success: 'CUSTOMER_RETURN_PICKUP: 10 20 22 23 24 30 24 41 46',
    exceptionThenSuccess: 'CUSTOMER_RETURN_PICKUP: 10 20 22 47 22 23 24 30 24 41 46',
    unsuccessful: 'CUSTOMER_RETURN_PICKUP: 10 20 22 47@8 22 47@8 22 47@8 48!',
    threeFailedAttempts: 'CUSTOMER_RETURN_PICKUP: 10 20 22 47 22 47 22 47 48!',
    returnFailures: 'CUSTOMER_RETURN_PICKUP: 10 20 22 23 24 30 24 41 47 24 41 47 24 41 47 103!',
  },
  EXCHANGE: {
    success: 'EXCHANGE: 10 20 21 24 30 24 22 23 24 30 24 41 46',
    exceptionThenSuccess: 'EXCHANGE: 10 20 21 24 30 24 22 47 24 22 23 24 30 24 41 46',
    unsuccessful: 'EXCHANGE: 10 20 21 24 30 24 22 47@8 24 | RTO: 24 41 46',
    threeFailedAttempts: 'EXCHANGE: 10 20 21 24 30 24 22 23 24 30 24 41 47 24 41 47 24 41 47 103!',
  },
  FXF_CUSTOMER_RETURN_PICKUP: {
    success: 'CUSTOMER_RETURN_PICKUP: 10 20 22 23 24 30 24 60',
    exceptionThenSuccess: 'CUSTOMER_RETURN_PICKUP: 10 20 22 47 22 23 24 30 24 60',
    unsuccessful: 'CUSTOMER_RETURN_PICKUP: 10 20 22 47@8 22 47@8 22 47@8 48!',
    threeFailedAttempts: 'CUSTOMER_RETURN_PICKUP: 10 20 22 47 22 47 22 47 48!',
  },
};

/** Legs: the return starts after the pickup from the consignee (23) or when the type turns RTO. */
function withLegs(steps: ReadonlyArray<Omit<ScenarioStep, 'leg'>>): ScenarioStep[] {
  let leg: Leg = 'forward';
  return steps.map((step) => {
    if (step.type === 'RTO') leg = 'return';
    const out: ScenarioStep = { ...step, leg };
    if (step.state === 23) leg = 'return';
    return out;
  });
}

function parse(text: string): ScenarioStep[] {
  const steps: Array<Omit<ScenarioStep, 'leg'>> = [];
  for (const segment of text.split('|')) {
    const [type = '', states = ''] = segment.split(':').map((part) => part.trim());
    for (const token of states.split(/\s+/)) {
      const match = /^(\d+)(?:@(\d+))?(!)?$/.exec(token);
      if (match === null) throw new Error(`Bad flow token ${token}`);
      steps.push({
        state: Number(match[1]) as FlowStep['state'],
        type: type as WebhookOrderType,
        ...(match[2] === undefined ? {} : { exceptionCode: Number(match[2]) }),
        ...(match[3] === undefined ? {} : { automatic: true }),
      });
    }
  }
  return withLegs(steps);
}

type FlowSet = Readonly<Partial<Record<ScenarioName | 'returnFailures', readonly ScenarioStep[]>>>;

function build(): Readonly<Record<FlowKind, FlowSet>> {
  const out = {} as Record<FlowKind, FlowSet>;
  // Fulfillment send flows come from the spec's catalogue as they are.
  out.FXF_SEND = {
    success: withLegs(FULFILLMENT_FLOWS.success),
    exceptionThenSuccess: withLegs(FULFILLMENT_FLOWS.exceptionThenSuccess),
    unsuccessful: withLegs(FULFILLMENT_FLOWS.unsuccessful),
  };
  for (const [kind, flows] of Object.entries(DEFINED) as Array<[Exclude<FlowKind, 'FXF_SEND'>, Record<string, string>]>) {
    out[kind] = Object.fromEntries(Object.entries(flows).map(([name, text]) => [name, parse(text)]));
  }
  return out;
}

let memo: Readonly<Record<FlowKind, FlowSet>> | undefined;

/** Every flow of every kind, parsed on first use. */
export function flows(): Readonly<Record<FlowKind, FlowSet>> {
  memo ??= build();
  return memo;
}

/** A node of a flow graph: the same state means different things on different legs and types. */
export const nodeKey = (state: number, type: string, leg: Leg): string => `${type}|${leg}|${state}`;

export interface Edge {
  readonly state: number;
  readonly type: WebhookOrderType;
  readonly leg: Leg;
  readonly automatic: boolean;
}

const graphs = new Map<FlowKind, ReadonlyMap<string, readonly Edge[]>>();

/** The transitions of a kind: the union of consecutive steps of all its flows. */
export function edgesOf(kind: FlowKind): ReadonlyMap<string, readonly Edge[]> {
  const known = graphs.get(kind);
  if (known !== undefined) return known;
  const graph = new Map<string, Edge[]>();
  for (const steps of Object.values(flows()[kind])) {
    for (let i = 1; i < steps.length; i += 1) {
      const from = steps[i - 1];
      const to = steps[i];
      if (from === undefined || to === undefined) continue;
      const key = nodeKey(from.state, from.type, from.leg);
      const list = graph.get(key) ?? [];
      if (!list.some((e) => e.state === to.state && e.type === to.type && e.leg === to.leg)) {
        list.push({ state: to.state, type: to.type, leg: to.leg, automatic: to.automatic === true });
      }
      graph.set(key, list);
    }
  }
  graphs.set(kind, graph);
  return graph;
}

/** Where an order of this kind starts (10, or 11 for Cash Collection). */
export function startOf(kind: FlowKind): ScenarioStep {
  const first = flows()[kind].success?.[0];
  if (first === undefined) throw new Error(`No flow for ${kind}`);
  return first;
}
