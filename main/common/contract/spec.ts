// How a service of the contract is written down: each method as its arguments (a name, a schema, and the words a
// refusal says are expected) and the schema of its result; each event (named onDidX) as the schema of its payload.
// The TypeScript of a service is derived from that (ServiceOf): the door checks the same schemas the code is
// compiled against, so a field cannot be added to one and forgotten in the other.
import type { z } from 'zod';

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (event: T) => void) => Disposable;

export interface ArgumentSpec<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly schema: S;
  // What a refusal says the argument should have been: "a run id", "json, csv or csv-samples".
  readonly expected: string;
}

export interface MethodSpec<A extends readonly ArgumentSpec[] = readonly ArgumentSpec[], R extends z.ZodType = z.ZodType> {
  readonly args: A;
  readonly result: R;
}

export interface EventSpec<P extends z.ZodType = z.ZodType> {
  readonly payload: P;
}

export function arg<S extends z.ZodType>(name: string, schema: S, expected: string): ArgumentSpec<S> {
  return { name, schema, expected };
}

export function method<const A extends readonly ArgumentSpec[], R extends z.ZodType>(args: A, result: R): MethodSpec<A, R> {
  return { args, result };
}

export function event<P extends z.ZodType>(payload: P): EventSpec<P> {
  return { payload };
}

export function isEventSpec(spec: MethodSpec | EventSpec): spec is EventSpec {
  return 'payload' in spec;
}

// Events are named onDidX and methods are not: a client tells them apart by name (VS Code's convention), so a
// service whose names break it does not compile.
type Named<T> = { [K in keyof T]: K extends `onDid${string}` ? EventSpec : MethodSpec };

export function service<const T extends Record<string, MethodSpec | EventSpec>>(members: T & Named<T>): T {
  return members;
}

// The arguments of a method as a parameter list: one that may be left out (its schema takes undefined) is optional.
type ParameterList<A extends readonly ArgumentSpec[]> = A extends readonly [infer H extends ArgumentSpec, ...infer T extends readonly ArgumentSpec[]]
  ? undefined extends z.input<H['schema']>
    ? [value?: z.input<H['schema']>, ...ParameterList<T>]
    : [value: z.input<H['schema']>, ...ParameterList<T>]
  : [];

// A service as TypeScript: methods return a Promise of their result, events are subscriptions.
export type ServiceOf<T> = {
  [K in keyof T]: T[K] extends MethodSpec<infer A, infer R>
    ? (...args: ParameterList<A>) => Promise<z.output<R>>
    : T[K] extends EventSpec<infer P>
      ? Event<z.output<P>>
      : never;
};
