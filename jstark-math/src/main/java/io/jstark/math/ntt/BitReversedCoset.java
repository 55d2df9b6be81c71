package io.jstark.math.ntt;

import io.jstark.math.field.Goldilocks;

/**
 * The order in which every LDE, Merkle tree and FRI layer lists a coset shift * &lt;w_N&gt;: position i holds
 * shift * w_N^bitrev(i), so that the pair (x, -x) sits in adjacent positions. Prover and verifier derive
 * points from here; it holds no tables and starts no vector code, so a verifier that needs a few points
 * pays for a few exponentiations only.
 */
public final class BitReversedCoset {
    private BitReversedCoset() {}

    /** {@code i} with its low {@code bits} bits in reverse order. */
    public static int reverseBits(int i, int bits) {
        return bits == 0 ? 0 : Integer.reverse(i) >>> (32 - bits);
    }

    /** The point at {@code position} of shift * &lt;w_N&gt;, N = 2^logSize, in bit-reversed order. */
    public static long point(int logSize, long shift, int position) {
        return Goldilocks.mul(
                shift, Goldilocks.pow(Goldilocks.twoAdicGenerator(logSize), reverseBits(position, logSize)));
    }
}
