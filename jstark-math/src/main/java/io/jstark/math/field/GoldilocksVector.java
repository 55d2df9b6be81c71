package io.jstark.math.field;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Goldilocks arithmetic on every lane of a {@link LongVector}: the building block of the vector paths of
 * {@link FieldKernels}, {@link ExtKernels} and the NTT butterflies. Lanes hold canonical elements and every
 * method returns canonical lanes, equal bit for bit to {@link Goldilocks} on each lane.
 *
 * <p>There is no 64x64 -> 128 lane multiply, so {@link #mul} builds the product from four 32x32 -> 64
 * partial products (C2 turns a lane multiply of masked/shifted operands into {@code vpmuludq}) and
 * reduces it like {@link Goldilocks#reduce128} with unsigned lane compares.
 *
 * <p>How to use these methods without losing the vector path (HotSpot C2 as of JDK 25): a Vector API call
 * parses into hundreds of IR nodes before it collapses into a few instructions, and C2 stops inlining
 * ordinary (not JDK {@code @ForceInline}) methods once a compile unit has parsed about 18000 nodes. A
 * method of this class that is not inlined gets its vectors boxed: the result is still right, but every
 * loop iteration allocates and runs several times slower. {@link #mul} uses about half of that budget.
 * Hence two rules, which {@code VectorInliningTest} checks by watching allocation:
 * <ol>
 *   <li>a loop body holds at most one {@link #mul} and a few {@link #add}/{@link #sub};
 *   <li>every loop using this class is a method of its own, entered through a {@link CompileBarrier}, so
 *       that it is compiled as its own unit and never inlined into a caller that has used up the budget.
 * </ol>
 *
 * <p>Touching this class loads {@code jdk.incubator.vector}; callers check {@link FieldKernels#vectorEnabled()}
 * first.
 */
public final class GoldilocksVector {
    /** The widest species the CPU runs natively (8 lanes with AVX-512). */
    public static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    /** Lanes per vector. */
    public static final int LANES = SPECIES.length();

    private static final long LOW32 = 0xFFFF_FFFFL;

    private GoldilocksVector() {}

    public static LongVector load(long[] a, int offset) {
        return LongVector.fromArray(SPECIES, a, offset);
    }

    public static LongVector broadcast(long value) {
        return LongVector.broadcast(SPECIES, value);
    }

    public static LongVector add(LongVector a, LongVector b) {
        // a + (b - p) wraps exactly when a + b >= p; otherwise add p back (subtract 2^64 - p).
        LongVector s = a.add(b.add(Goldilocks.EPSILON));
        VectorMask<Long> noWrap = s.compare(VectorOperators.UGE, a);
        return s.sub(Goldilocks.EPSILON, noWrap);
    }

    public static LongVector sub(LongVector a, LongVector b) {
        LongVector d = a.sub(b);
        // a borrow means the true difference is d - 2^64, and -2^64 = -EPSILON (mod p)
        VectorMask<Long> borrow = a.compare(VectorOperators.ULT, b);
        return d.sub(Goldilocks.EPSILON, borrow);
    }

    public static LongVector dbl(LongVector a) {
        return add(a, a);
    }

    public static LongVector neg(LongVector a) {
        LongVector zero = LongVector.zero(SPECIES);
        return sub(zero, a);
    }

    /**
     * a * b. The product and its reduction are one flat method on purpose, so that they are one inlining
     * decision (see the class comment).
     */
    public static LongVector mul(LongVector a, LongVector b) {
        LongVector aHigh = a.lanewise(VectorOperators.LSHR, 32);
        LongVector bHigh = b.lanewise(VectorOperators.LSHR, 32);
        LongVector aLow = a.and(LOW32);
        LongVector bLow = b.and(LOW32);
        LongVector lowLow = aLow.mul(bLow);
        LongVector lowHigh = aLow.mul(bHigh);
        LongVector highLow = aHigh.mul(bLow);
        LongVector highHigh = aHigh.mul(bHigh);
        // Carry-free schoolbook: each sum below stays under 2^64.
        LongVector t = highLow.add(lowLow.lanewise(VectorOperators.LSHR, 32));
        LongVector u = lowHigh.add(t.and(LOW32));
        LongVector lo = u.lanewise(VectorOperators.LSHL, 32).or(lowLow.and(LOW32));
        LongVector hi = highHigh.add(t.lanewise(VectorOperators.LSHR, 32)).add(u.lanewise(VectorOperators.LSHR, 32));
        // hi * 2^64 + lo mod p, as Goldilocks.reduce128 (2^64 = EPSILON, 2^96 = -1)
        LongVector hiHi = hi.lanewise(VectorOperators.LSHR, 32);
        LongVector hiLo = hi.and(LOW32);
        LongVector t0 = lo.sub(hiHi);
        t0 = t0.sub(Goldilocks.EPSILON, lo.compare(VectorOperators.ULT, hiHi));
        LongVector t1 = hiLo.lanewise(VectorOperators.LSHL, 32).sub(hiLo); // hiLo * EPSILON
        LongVector t2 = t0.add(t1);
        t2 = t2.add(Goldilocks.EPSILON, t2.compare(VectorOperators.ULT, t1));
        // t2 - p wraps to t2 + 2^64 - p > t2 exactly when t2 < p: the unsigned minimum is canonical
        return t2.lanewise(VectorOperators.UMIN, t2.sub(Goldilocks.P));
    }

    /**
     * a * s where every lane of s is below 2^32 (small constants: powers of two, MDS entries): two lane products
     * instead of four, and the product's high word is below 2^32, so its reduction has no 2^96 term.
     *
     * @param a any 64-bit lanes (the result is canonical even for non-canonical a)
     * @param s lanes below 2^32 (higher bits are ignored)
     * @return a * s mod p, canonical
     */
    public static LongVector mulSmall(LongVector a, LongVector s) {
        LongVector small = s.and(LOW32);
        LongVector lowProduct = a.and(LOW32).mul(small);
        LongVector highProduct = a.lanewise(VectorOperators.LSHR, 32).mul(small);
        LongVector lo = lowProduct.add(highProduct.lanewise(VectorOperators.LSHL, 32));
        LongVector hi =
                highProduct.lanewise(VectorOperators.LSHR, 32).add(1, lo.compare(VectorOperators.ULT, lowProduct));
        // hi * 2^64 = hi * EPSILON (mod p), and hi * EPSILON < 2^64 because hi < 2^32
        LongVector hiTimesEpsilon = hi.lanewise(VectorOperators.LSHL, 32).sub(hi);
        LongVector t = lo.add(hiTimesEpsilon);
        t = t.add(Goldilocks.EPSILON, t.compare(VectorOperators.ULT, hiTimesEpsilon));
        return t.lanewise(VectorOperators.UMIN, t.sub(Goldilocks.P));
    }

    public static LongVector square(LongVector a) {
        return mul(a, a);
    }

    /** Lane-wise {@link Goldilocks#reduce}: subtracts p from lanes at or above p. */
    public static LongVector canonicalize(LongVector x) {
        // x - p wraps to x + 2^64 - p > x exactly when x < p, so the unsigned minimum picks the right one
        return x.lanewise(VectorOperators.UMIN, x.sub(Goldilocks.P));
    }
}
