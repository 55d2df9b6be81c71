package io.jstark.prover;

import io.jstark.math.field.Goldilocks;
import io.jstark.math.ntt.Lde;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Geometry of a bit-reversed LDE of a 2^logN-row trace with blowup 2^logBlowup on shift * &lt;w_N&gt;:
 * row p = block * n + i holds the point s_block * w_n^{bitrev(i)}, with
 * s_block = shift * w_N^{bitrev_logBlowup(block)}; the next row of the trace (natural index + blowup) is
 * row block * n + next(i) with next(i) = bitrev(bitrev(i) + 1 mod n).
 */
final class LdeDomain {
    private static final Map<Integer, int[]> NEXT_ROW = new ConcurrentHashMap<>();

    final int logN;
    final int logBlowup;
    final int n;
    final long shift;
    /** s_block per block. */
    final long[] blockShifts;
    /** 1 / (s_block^n - 1): the inverse of x^n - 1, constant on a block. */
    final long[] vanishingInverses;
    /** w_n^{bitrev(i)} (shared, do not modify). */
    final long[] tracePointsBitReversed;
    /** next(i) (shared, do not modify). */
    final int[] nextRow;

    LdeDomain(int logN, int logBlowup, long shift) {
        this.logN = logN;
        this.logBlowup = logBlowup;
        this.n = 1 << logN;
        this.shift = shift;
        int blocks = 1 << logBlowup;
        long wBig = Goldilocks.twoAdicGenerator(logN + logBlowup);
        blockShifts = new long[blocks];
        long[] vanishing = new long[blocks];
        for (int b = 0; b < blocks; b++) {
            blockShifts[b] = Goldilocks.mul(shift, Goldilocks.pow(wBig, reverse(b, logBlowup)));
            vanishing[b] = Goldilocks.sub(Goldilocks.pow(blockShifts[b], n), 1);
        }
        vanishingInverses = Goldilocks.batchInverse(vanishing);
        tracePointsBitReversed = Lde.traceDomainBitReversed(logN);
        nextRow = NEXT_ROW.computeIfAbsent(logN, LdeDomain::nextRowTable);
    }

    /** Bytes of the cached next-row tables (a memory model's figure, tested against it). */
    static long cachedBytes() {
        long bytes = 0;
        for (int[] table : NEXT_ROW.values()) {
            bytes += (long) Integer.BYTES * table.length;
        }
        return bytes;
    }

    /** Drops the cached next-row tables (tests). */
    static void clearCache() {
        NEXT_ROW.clear();
    }

    static int reverse(int value, int bits) {
        return bits == 0 ? 0 : Integer.reverse(value) >>> (32 - bits);
    }

    private static int[] nextRowTable(int logN) {
        int n = 1 << logN;
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            next[i] = reverse((reverse(i, logN) + 1) & (n - 1), logN);
        }
        return next;
    }

    /** Points of rows [rowStart, rowStart + length), which must lie in one block. */
    void points(int rowStart, int length, long[] out) {
        long s = blockShifts[rowStart >>> logN];
        int i0 = rowStart & (n - 1);
        for (int k = 0; k < length; k++) {
            out[k] = Goldilocks.mul(s, tracePointsBitReversed[i0 + k]);
        }
    }

    /** Natural index (in the LDE) of bit-reversed row p. */
    int naturalIndex(int p) {
        return reverse(p, logN + logBlowup);
    }
}
