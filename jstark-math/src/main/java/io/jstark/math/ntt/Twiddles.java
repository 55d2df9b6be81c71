package io.jstark.math.ntt;

import io.jstark.math.field.FieldKernels;
import io.jstark.math.field.Goldilocks;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Root-of-unity tables for transforms of size n = 2^logN, built once per size and shared by every table
 * and thread (the arrays are never written after construction).
 *
 * <p>Layout ("layered"): {@code forward[h + j] = w_{2h}^j} for every power of two h &lt; n and j &lt; h, so
 * the butterflies of the stage with half-size h read {@code h} consecutive entries starting at index h.
 * {@code inverse} holds the inverses. Entry 0 is unused. A table for logN also serves every smaller
 * size, but each size is cached under its own key so that what is cached is predictable.
 *
 * <p>The cache only grows (until {@link #clearCache()}); {@link #cachedBytes()} is what a memory model
 * adds for it.
 */
public final class Twiddles {
    private static final ConcurrentHashMap<Integer, Twiddles> TABLES = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Integer, long[]> BIT_REVERSED_DOMAINS = new ConcurrentHashMap<>();
    private static final AtomicLong CACHED_BYTES = new AtomicLong();

    private final int logN;
    private final long[] forward;
    private final long[] inverse;

    private Twiddles(int logN) {
        this.logN = logN;
        this.forward = layered(Goldilocks.twoAdicGenerator(logN), logN);
        this.inverse = layered(Goldilocks.inverse(Goldilocks.twoAdicGenerator(logN)), logN);
    }

    /** The tables for size 2^logN (0 &lt;= logN &lt;= 32 and 2^logN must fit an array). */
    public static Twiddles forLogSize(int logN) {
        checkLogSize(logN);
        Twiddles cached = TABLES.get(logN);
        if (cached != null) {
            return cached;
        }
        return TABLES.computeIfAbsent(logN, k -> {
            Twiddles t = new Twiddles(k);
            CACHED_BYTES.addAndGet(bytesFor(k));
            return t;
        });
    }

    /**
     * The trace-domain points in bit-reversed order: entry q is w_n^{bitrev_logN(q)}, n = 2^logN. Cached and
     * shared: callers must not modify the array.
     */
    static long[] bitReversedDomain(int logN) {
        checkLogSize(logN);
        long[] cached = BIT_REVERSED_DOMAINS.get(logN);
        if (cached != null) {
            return cached;
        }
        return BIT_REVERSED_DOMAINS.computeIfAbsent(logN, k -> {
            long[] points = new long[1 << k];
            FieldKernels.powers(1, Goldilocks.twoAdicGenerator(k), points, 0, points.length);
            Ntt.bitReverse(points, 0, k);
            CACHED_BYTES.addAndGet((long) points.length * Long.BYTES);
            return points;
        });
    }

    private static void checkLogSize(int logN) {
        if (logN < 0 || logN > 30) {
            throw new IllegalArgumentException("transform size 2^" + logN + " is outside 2^0..2^30");
        }
    }

    /** Bytes the tables of one size occupy (forward and inverse). */
    public static long bytesFor(int logN) {
        return 2L * Long.BYTES << logN;
    }

    /** Bytes held by every cached table and domain array. */
    public static long cachedBytes() {
        return CACHED_BYTES.get();
    }

    /** Drops every cached table (tests, or a memory-constrained caller between proofs). */
    public static void clearCache() {
        TABLES.clear();
        BIT_REVERSED_DOMAINS.clear();
        CACHED_BYTES.set(0);
    }

    public int logSize() {
        return logN;
    }

    /** The layered forward table (see the class comment); shared, do not modify. */
    long[] forward() {
        return forward;
    }

    /** The layered inverse table; shared, do not modify. */
    long[] inverse() {
        return inverse;
    }

    private static long[] layered(long rootOfOrderN, int logN) {
        int n = 1 << logN;
        long[] table = new long[n];
        if (n == 1) {
            return table;
        }
        int half = n >>> 1;
        FieldKernels.powers(1, rootOfOrderN, table, half, half);
        // w_{2h}^j = w_{4h}^{2j}: each layer is every other entry of the layer above it
        for (int h = half >>> 1; h >= 1; h >>>= 1) {
            for (int j = 0; j < h; j++) {
                table[h + j] = table[2 * h + 2 * j];
            }
        }
        return table;
    }
}
