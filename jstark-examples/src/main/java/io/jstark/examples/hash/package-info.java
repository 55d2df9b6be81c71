/**
 * Hash permutations as tables: {@link io.jstark.examples.hash.KeccakAir} (Keccak-f[1600], one round per
 * row; also as a precompile receiving its calls on a bus) with its trace generator
 * {@link io.jstark.examples.hash.KeccakTrace} and the plain permutation {@link io.jstark.examples.hash.KeccakF};
 * {@link io.jstark.examples.hash.Poseidon2Air} (Poseidon2 over Goldilocks, widths 8 and 12, 8 permutations
 * per row) with {@link io.jstark.examples.hash.Poseidon2Trace} and {@link io.jstark.examples.hash.Poseidon2Goldilocks}.
 */
package io.jstark.examples.hash;
