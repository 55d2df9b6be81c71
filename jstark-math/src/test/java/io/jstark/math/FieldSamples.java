package io.jstark.math;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.math.BigInteger;
import java.util.SplittableRandom;

/** Test values: canonical field elements with the edge cases mixed in, and a BigInteger reference. */
public final class FieldSamples {
    public static final BigInteger P =
            BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE.shiftLeft(32)).add(BigInteger.ONE);

    /** Values where carries, borrows and reductions change behaviour. */
    public static final long[] EDGES = {
        0,
        1,
        2,
        3,
        Goldilocks.P - 1,
        Goldilocks.P - 2,
        Goldilocks.P - 3,
        1L << 32,
        (1L << 32) - 1,
        (1L << 32) + 1,
        1L << 63,
        (1L << 63) - 1,
        (1L << 63) + 1,
        0xFFFF_FFFF_0000_0000L /* 2^64 - 2^32 = p - 1 */,
        0xFFFF_FFFE_FFFF_FFFFL,
        1L << 48,
        (1L << 48) - 1,
        0x0000_0001_FFFF_FFFFL,
        0x8000_0000_FFFF_FFFFL,
        0xFFFF_FFFE_0000_0001L,
        7
    };

    private FieldSamples() {}

    public static BigInteger big(long unsigned) {
        return new BigInteger(Long.toUnsignedString(unsigned));
    }

    /** The residue as a canonical long. */
    public static long fromBig(BigInteger value) {
        return value.mod(P).longValue();
    }

    /** A canonical element: an edge value one time in four, uniform otherwise. */
    public static long element(SplittableRandom random) {
        if (random.nextInt(4) == 0) {
            return EDGES[random.nextInt(EDGES.length)];
        }
        return Goldilocks.reduce(random.nextLong());
    }

    public static long nonZero(SplittableRandom random) {
        long v;
        do {
            v = element(random);
        } while (v == 0);
        return v;
    }

    public static long[] elements(SplittableRandom random, int count) {
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            out[i] = element(random);
        }
        return out;
    }

    public static Ext3 ext(SplittableRandom random) {
        return new Ext3(element(random), element(random), element(random));
    }

    public static Ext3 nonZeroExt(SplittableRandom random) {
        Ext3 v;
        do {
            v = ext(random);
        } while (v.isZero());
        return v;
    }
}
