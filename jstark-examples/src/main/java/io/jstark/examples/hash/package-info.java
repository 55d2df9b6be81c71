/**
 * Hash permutations as tables: {@link io.jstark.examples.hash.KeccakAir} (Keccak-f[1600], one round per
 * row) with its trace generator {@link io.jstark.examples.hash.KeccakTrace} and the plain permutation
 * {@link io.jstark.examples.hash.KeccakF}.
 */
package io.jstark.examples.hash;
