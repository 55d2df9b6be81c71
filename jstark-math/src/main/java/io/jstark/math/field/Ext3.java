package io.jstark.math.field;

/**
 * An element c0 + c1*x + c2*x^2 of the cubic extension GF(p)[x]/(x^3 - 2) of {@link Goldilocks}.
 *
 * <p>x^3 - 2 is irreducible because 2 is not a cube mod p: 2 has order 192 = 2^6 * 3, and (p-1)/3 is
 * not a multiple of 3, so 2^((p-1)/3) != 1. The field has about 2^192 elements, which is what the
 * out-of-domain point, the random combinations and FRI's folding challenges are drawn from.
 *
 * <p>This record is the scalar reference (and what the verifier uses); bulk prover loops work on
 * structure-of-arrays columns through {@link ExtKernels}.
 *
 * @param c0 the constant coefficient, canonical (below p)
 * @param c1 the coefficient of x, canonical
 * @param c2 the coefficient of x^2, canonical
 */
public record Ext3(long c0, long c1, long c2) {
    /** x^3 = W. */
    public static final long W = 2;
    /** The extension's degree over the base field. */
    public static final int DEGREE = 3;
    /** Bytes of the encoding: three canonical base elements, c0 first. */
    public static final int BYTES = DEGREE * Goldilocks.BYTES;
    /** The zero element. */
    public static final Ext3 ZERO = new Ext3(0, 0, 0);
    /** The one element. */
    public static final Ext3 ONE = new Ext3(1, 0, 0);

    /**
     * Checks the coefficients.
     *
     * @throws IllegalArgumentException when a coefficient is not canonical
     */
    public Ext3 {
        if (!Goldilocks.isCanonical(c0) || !Goldilocks.isCanonical(c1) || !Goldilocks.isCanonical(c2)) {
            throw new IllegalArgumentException("Ext3 coefficients must be canonical field elements");
        }
    }

    /**
     * {@return the base-field element {@code base} in the extension}
     *
     * @param base a canonical base-field element
     */
    public static Ext3 of(long base) {
        return new Ext3(base, 0, 0);
    }

    /** {@return whether this is zero} */
    public boolean isZero() {
        return c0 == 0 && c1 == 0 && c2 == 0;
    }

    /** {@return whether this lies in the base field (c1 = c2 = 0)} */
    public boolean isBase() {
        return c1 == 0 && c2 == 0;
    }

    /**
     * {@return this + o}
     *
     * @param o the other element
     */
    public Ext3 add(Ext3 o) {
        return new Ext3(Goldilocks.add(c0, o.c0), Goldilocks.add(c1, o.c1), Goldilocks.add(c2, o.c2));
    }

    /**
     * {@return this - o}
     *
     * @param o the other element
     */
    public Ext3 sub(Ext3 o) {
        return new Ext3(Goldilocks.sub(c0, o.c0), Goldilocks.sub(c1, o.c1), Goldilocks.sub(c2, o.c2));
    }

    /** {@return -this} */
    public Ext3 neg() {
        return new Ext3(Goldilocks.neg(c0), Goldilocks.neg(c1), Goldilocks.neg(c2));
    }

    /**
     * {@return this + base}
     *
     * @param base a canonical base-field element
     */
    public Ext3 add(long base) {
        return new Ext3(Goldilocks.add(c0, base), c1, c2);
    }

    /**
     * {@return this - base}
     *
     * @param base a canonical base-field element
     */
    public Ext3 sub(long base) {
        return new Ext3(Goldilocks.sub(c0, base), c1, c2);
    }

    /**
     * {@return this * base}
     *
     * @param base a canonical base-field element
     */
    public Ext3 mul(long base) {
        return new Ext3(Goldilocks.mul(c0, base), Goldilocks.mul(c1, base), Goldilocks.mul(c2, base));
    }

    /**
     * {@return this * o}
     *
     * @param o the other element
     */
    public Ext3 mul(Ext3 o) {
        return new Ext3(
                mul0(c0, c1, c2, o.c0, o.c1, o.c2),
                mul1(c0, c1, c2, o.c0, o.c1, o.c2),
                mul2(c0, c1, c2, o.c0, o.c1, o.c2));
    }

    /** {@return this * this} */
    public Ext3 square() {
        return mul(this);
    }

    /**
     * {@return this^e for an unsigned 64-bit exponent (this^0 = 1)}
     *
     * @param e the exponent, unsigned
     */
    public Ext3 pow(long e) {
        Ext3 result = ONE;
        Ext3 base = this;
        while (e != 0) {
            if ((e & 1) != 0) {
                result = result.mul(base);
            }
            base = base.square();
            e >>>= 1;
        }
        return result;
    }

    /**
     * {@return the inverse through the norm: a * adj(a) = N(a), a base-field element}
     *
     * @throws ArithmeticException when this is zero
     */
    public Ext3 inverse() {
        if (isZero()) {
            throw new ArithmeticException("inverse of zero in the cubic extension");
        }
        long a = Goldilocks.sub(Goldilocks.square(c0), Goldilocks.mul(W, Goldilocks.mul(c1, c2)));
        long b = Goldilocks.sub(Goldilocks.mul(W, Goldilocks.square(c2)), Goldilocks.mul(c0, c1));
        long c = Goldilocks.sub(Goldilocks.square(c1), Goldilocks.mul(c0, c2));
        long norm = Goldilocks.add(
                Goldilocks.mul(c0, a), Goldilocks.mul(W, Goldilocks.add(Goldilocks.mul(c2, b), Goldilocks.mul(c1, c))));
        long inv = Goldilocks.inverse(norm);
        return new Ext3(Goldilocks.mul(a, inv), Goldilocks.mul(b, inv), Goldilocks.mul(c, inv));
    }

    /**
     * {@return this / o}
     *
     * @param o the divisor, nonzero
     * @throws ArithmeticException when {@code o} is zero
     */
    public Ext3 div(Ext3 o) {
        return mul(o.inverse());
    }

    /**
     * {@return coefficient 0 of (a0 + a1 x + a2 x^2)(b0 + b1 x + b2 x^2) with x^3 = 2} (Coefficients as
     * primitives, for loops that keep elements in three arrays.) Each coefficient is one
     * {@link Goldilocks#sumOfProducts} over b's coefficients, some doubled, so b's must be canonical (as an
     * {@link Ext3}'s are); a's may be any 64-bit words. A loop that multiplies by a constant passes it as b: the
     * doubling is then loop-invariant, which the JIT computes once.
     *
     * @param a0 a's c0
     * @param a1 a's c1
     * @param a2 a's c2
     * @param b0 b's c0
     * @param b1 b's c1
     * @param b2 b's c2
     */
    public static long mul0(long a0, long a1, long a2, long b0, long b1, long b2) {
        return Goldilocks.sumOfProducts(a0, b0, a1, Goldilocks.dbl(b2), a2, Goldilocks.dbl(b1));
    }

    /**
     * {@return coefficient 1 of the product (see {@link #mul0})}
     *
     * @param a0 a's c0
     * @param a1 a's c1
     * @param a2 a's c2
     * @param b0 b's c0
     * @param b1 b's c1
     * @param b2 b's c2
     */
    public static long mul1(long a0, long a1, long a2, long b0, long b1, long b2) {
        return Goldilocks.sumOfProducts(a0, b1, a1, b0, a2, Goldilocks.dbl(b2));
    }

    /**
     * {@return coefficient 2 of the product (see {@link #mul0})}
     *
     * @param a0 a's c0
     * @param a1 a's c1
     * @param a2 a's c2
     * @param b0 b's c0
     * @param b1 b's c1
     * @param b2 b's c2
     */
    public static long mul2(long a0, long a1, long a2, long b0, long b1, long b2) {
        return Goldilocks.sumOfProducts(a0, b2, a1, b1, a2, b0);
    }

    /**
     * Inverts all elements at once (one extension inversion, 3 multiplications each).
     *
     * @param values the elements, nonzero
     * @return their inverses, in a new array
     * @throws ArithmeticException when an element is zero
     */
    public static Ext3[] batchInverse(Ext3[] values) {
        Ext3[] out = new Ext3[values.length];
        Ext3 acc = ONE;
        for (int i = 0; i < values.length; i++) {
            out[i] = acc;
            acc = acc.mul(values[i]);
        }
        Ext3 inv = acc.inverse();
        for (int i = values.length - 1; i >= 0; i--) {
            Ext3 t = inv.mul(out[i]);
            inv = inv.mul(values[i]);
            out[i] = t;
        }
        return out;
    }

    /**
     * Writes the {@value #BYTES}-byte encoding: c0, c1, c2, each 8 bytes little-endian.
     *
     * @param out the buffer
     * @param offset where the bytes start
     */
    public void encode(byte[] out, int offset) {
        Goldilocks.encode(c0, out, offset);
        Goldilocks.encode(c1, out, offset + 8);
        Goldilocks.encode(c2, out, offset + 16);
    }

    /**
     * Reads the {@value #BYTES}-byte encoding {@link #encode} writes.
     *
     * @param in the buffer
     * @param offset where the bytes start
     * @return the element
     * @throws NonCanonicalElementException when a coefficient is at or above p, naming its offset
     */
    public static Ext3 decodeCanonical(byte[] in, int offset) {
        return new Ext3(
                Goldilocks.decodeCanonical(in, offset),
                Goldilocks.decodeCanonical(in, offset + 8),
                Goldilocks.decodeCanonical(in, offset + 16));
    }

    /** {@return the element in unsigned decimals: "a" in the base field, else "(a + b*x + c*x^2)"} */
    @Override
    public String toString() {
        if (isBase()) {
            return Goldilocks.toString(c0);
        }
        return "(" + Goldilocks.toString(c0) + " + " + Goldilocks.toString(c1) + "*x + " + Goldilocks.toString(c2)
                + "*x^2)";
    }
}
