/**
 * Example workloads for the demo, the tests and the benchmarks.
 *
 * <p>{@link io.jstark.examples.Examples#byName} finds an {@link io.jstark.examples.Example} ("fib",
 * "periodic", "vm", "mix", "keccak", "poseidon2", "vm-keccak"); {@link io.jstark.examples.Example#generate} makes a seeded
 * {@link io.jstark.examples.Workload} (the traces, in table-index order, owned by the workload) and
 * {@link io.jstark.examples.Example#shapes} gives its table shapes without allocating.
 * {@link io.jstark.examples.WorkloadChecks} runs the debug checks (constraints per table, bus balance,
 * LogUp) over a whole workload. {@link io.jstark.examples.MixSpec} and {@link io.jstark.examples.Mix}
 * describe and generate arbitrary table mixes (the zkvm preset, random mixes for property tests).
 * {@link io.jstark.examples.PermutationExample}s (keccak, poseidon2) can also be sized by a count of
 * permutations; their tables live in {@link io.jstark.examples.hash}.
 * Every constraint of every example has degree at most 3.
 */
package io.jstark.examples;
