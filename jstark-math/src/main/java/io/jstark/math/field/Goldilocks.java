package io.jstark.math.field;

/**
 * The Goldilocks prime field, p = 2^64 - 2^32 + 1.
 *
 * <p>Elements are {@code long}s holding the canonical representative in [0, p), read as unsigned.
 * Every method here takes canonical inputs and returns a canonical result; {@link #reduce(long)}
 * turns an arbitrary 64-bit pattern into one. This class is the scalar reference: the array kernels
 * in {@link FieldKernels} must agree with it bit for bit.
 */
public final class Goldilocks {
    /** The modulus 2^64 - 2^32 + 1 (negative as a signed long). */
    public static final long P = 0xFFFF_FFFF_0000_0001L;
    /** 2^64 mod p = 2^32 - 1: what a carry out of 64 bits is worth. */
    static final long EPSILON = 0xFFFF_FFFFL;
    /** A generator of the whole multiplicative group (order p - 1). */
    public static final long GENERATOR = 7;
    /** p - 1 = 2^32 * 3 * 5 * 17 * 257 * 65537: subgroups of order 2^k exist up to k = 32. */
    public static final int TWO_ADICITY = 32;
    /** Bytes of the canonical little-endian encoding. */
    public static final int BYTES = 8;

    private static final long[] TWO_ADIC_GENERATORS = twoAdicGeneratorTable();

    private Goldilocks() {}

    /**
     * {@return the canonical residue of {@code x} read as unsigned, below p}
     *
     * @param x any 64-bit pattern
     */
    public static long reduce(long x) {
        return Long.compareUnsigned(x, P) >= 0 ? x - P : x;
    }

    /**
     * {@return whether {@code x}, read as unsigned, is below p: a field element every operation here accepts}
     *
     * @param x any 64-bit pattern
     */
    public static boolean isCanonical(long x) {
        return Long.compareUnsigned(x, P) < 0;
    }

    /**
     * {@return the element for a signed integer: negative values map to p - |v|}
     *
     * @param v a signed integer
     */
    public static long fromSigned(long v) {
        return v >= 0 ? reduce(v) : neg(reduce(-v));
    }

    // add, sub and reduce128 are branch-free: on random operands their carries are coin flips, and a
    // mispredicted branch costs more than the whole operation.

    /**
     * {@return a + b mod p}
     *
     * @param a a canonical element (below p)
     * @param b a canonical element
     */
    public static long add(long a, long b) {
        // a + (b - p) wraps past 2^64 exactly when a + b >= p; otherwise add p back (subtract EPSILON)
        long bMinusP = b + EPSILON;
        long s = a + bMinusP;
        long carry = ((a & bMinusP) | ((a | bMinusP) & ~s)) >>> 63;
        return s - ((carry - 1) & EPSILON);
    }

    /**
     * {@return a - b mod p}
     *
     * @param a a canonical element (below p)
     * @param b a canonical element
     */
    public static long sub(long a, long b) {
        long d = a - b;
        // a borrow means the true difference is d - 2^64, and -2^64 = -EPSILON (mod p)
        long borrow = ((~a & b) | (~(a ^ b) & d)) >>> 63;
        return d - (-borrow & EPSILON);
    }

    /**
     * {@return -a mod p}
     *
     * @param a a canonical element (below p)
     */
    public static long neg(long a) {
        return a == 0 ? 0 : P - a;
    }

    /**
     * {@return a * b mod p}
     *
     * @param a a canonical element (below p)
     * @param b a canonical element
     */
    public static long mul(long a, long b) {
        return reduce128(Math.unsignedMultiplyHigh(a, b), a * b);
    }

    /**
     * {@return a * b + c * d + e * f mod p}, the three 128-bit products added exactly and reduced once: cheaper than
     * three reduced products and two modular additions. The sum stays below 3 * 2^128, so its third word is at most 2,
     * and 2^128 = -2^32 (mod p) folds it back. Any 64-bit patterns may be given, read as unsigned.
     *
     * @param a the first product's left factor
     * @param b the first product's right factor
     * @param c the second product's left factor
     * @param d the second product's right factor
     * @param e the third product's left factor
     * @param f the third product's right factor
     */
    public static long sumOfProducts(long a, long b, long c, long d, long e, long f) {
        long lo = a * b;
        long hi = Math.unsignedMultiplyHigh(a, b);
        long productLo = c * d;
        long productHi = Math.unsignedMultiplyHigh(c, d);
        long sumLo = lo + productLo;
        // productHi is below 2^64 - 1, so productHi + carry cannot wrap; the sum wraps past 2^64 when it ends below it
        long addend = productHi + (Long.compareUnsigned(sumLo, lo) < 0 ? 1 : 0);
        long sumHi = hi + addend;
        long top = Long.compareUnsigned(sumHi, addend) < 0 ? 1 : 0;
        productLo = e * f;
        productHi = Math.unsignedMultiplyHigh(e, f);
        lo = sumLo + productLo;
        addend = productHi + (Long.compareUnsigned(lo, sumLo) < 0 ? 1 : 0);
        hi = sumHi + addend;
        top += Long.compareUnsigned(hi, addend) < 0 ? 1 : 0;
        return sub(reduce128(hi, lo), top << 32);
    }

    /**
     * {@return a * a mod p}
     *
     * @param a a canonical element (below p)
     */
    public static long square(long a) {
        return mul(a, a);
    }

    /**
     * {@return 2a mod p}
     *
     * @param a a canonical element (below p)
     */
    public static long dbl(long a) {
        return add(a, a);
    }

    /**
     * Reduces hi * 2^64 + lo modulo p, using 2^64 = 2^32 - 1 and 2^96 = -1 (mod p).
     * Works for any hi, lo (not only products of canonical values).
     *
     * @param hi the high 64 bits, unsigned
     * @param lo the low 64 bits, unsigned
     * @return the canonical residue
     */
    public static long reduce128(long hi, long lo) {
        long hiHi = hi >>> 32;
        long hiLo = hi & EPSILON;
        long t0 = lo - hiHi;
        long borrow = ((~lo & hiHi) | (~(lo ^ hiHi) & t0)) >>> 63;
        t0 -= -borrow & EPSILON;
        long t1 = (hiLo << 32) - hiLo; // hiLo * EPSILON
        long t2 = t0 + t1;
        long carry = ((t0 & t1) | ((t0 | t1) & ~t2)) >>> 63;
        t2 += -carry & EPSILON;
        return reduce(t2);
    }

    /**
     * {@return a^e mod p, with e read as an unsigned 64-bit exponent (a^0 = 1)}
     *
     * @param a a canonical element (below p)
     * @param e the exponent, unsigned
     */
    public static long pow(long a, long e) {
        long result = 1;
        long base = a;
        while (e != 0) {
            if ((e & 1) != 0) {
                result = mul(result, base);
            }
            base = mul(base, base);
            e >>>= 1;
        }
        return result;
    }

    /**
     * {@return the multiplicative inverse (Fermat: a^(p-2))}
     *
     * @param a a canonical nonzero element
     * @throws ArithmeticException when {@code a} is zero
     */
    public static long inverse(long a) {
        if (a == 0) {
            throw new ArithmeticException("inverse of zero in the Goldilocks field");
        }
        return pow(a, P - 2);
    }

    /**
     * Inverts every element of {@code values[from, from+count)} into {@code out} (which may be
     * {@code values}) with one field inversion and 3 multiplications per element (Montgomery's trick).
     *
     * @param values the elements, canonical and nonzero
     * @param from the first element's index
     * @param count how many
     * @param out where the inverses go (may be {@code values})
     * @param outFrom the first inverse's index in {@code out}
     * @throws ArithmeticException if any element is zero
     */
    public static void batchInverse(long[] values, int from, int count, long[] out, int outFrom) {
        if (count == 0) {
            return;
        }
        long[] prefix = new long[count];
        long acc = 1;
        for (int i = 0; i < count; i++) {
            long v = values[from + i];
            if (v == 0) {
                throw new ArithmeticException("batch inverse: element " + (from + i) + " is zero");
            }
            prefix[i] = acc;
            acc = mul(acc, v);
        }
        long inv = inverse(acc);
        for (int i = count - 1; i >= 0; i--) {
            long v = values[from + i];
            out[outFrom + i] = mul(inv, prefix[i]);
            inv = mul(inv, v);
        }
    }

    /**
     * {@return the inverses of all {@code values}, in a new array} ({@link #batchInverse(long[], int, int, long[], int)})
     *
     * @param values the elements, canonical and nonzero
     * @throws ArithmeticException if any element is zero
     */
    public static long[] batchInverse(long[] values) {
        long[] out = new long[values.length];
        batchInverse(values, 0, values.length, out, 0);
        return out;
    }

    /**
     * {@return a generator of the subgroup of order 2^logN, for 0 &lt;= logN &lt;= 32}
     *
     * @param logN log2 of the subgroup's order, 0..32
     * @throws IllegalArgumentException when {@code logN} is out of 0..32
     */
    public static long twoAdicGenerator(int logN) {
        if (logN < 0 || logN > TWO_ADICITY) {
            throw new IllegalArgumentException("no subgroup of order 2^" + logN + " (two-adicity is 32)");
        }
        return TWO_ADIC_GENERATORS[logN];
    }

    private static long[] twoAdicGeneratorTable() {
        long[] table = new long[TWO_ADICITY + 1];
        // 7^((p-1)/2^32) generates the subgroup of order 2^32; squaring halves the order.
        long g = pow(GENERATOR, (P - 1) >>> TWO_ADICITY);
        for (int k = TWO_ADICITY; k >= 0; k--) {
            table[k] = g;
            g = mul(g, g);
        }
        return table;
    }

    /**
     * Writes the canonical little-endian encoding of {@code a}: {@value #BYTES} bytes.
     *
     * @param a a canonical element
     * @param out the buffer
     * @param offset where the 8 bytes start
     */
    public static void encode(long a, byte[] out, int offset) {
        for (int i = 0; i < 8; i++) {
            out[offset + i] = (byte) (a >>> (8 * i));
        }
    }

    /**
     * Reads 8 little-endian bytes as a field element, rejecting values at or above p.
     *
     * @param in the buffer
     * @param offset where the 8 bytes start
     * @return the element
     * @throws NonCanonicalElementException when the value is at or above p, naming the offset
     */
    public static long decodeCanonical(byte[] in, int offset) {
        long v = decodeRaw(in, offset);
        if (!isCanonical(v)) {
            throw new NonCanonicalElementException(offset, v);
        }
        return v;
    }

    /**
     * {@return the 64-bit little-endian value at {@code offset}, not checked against p}
     *
     * @param in the buffer
     * @param offset where the 8 bytes start
     */
    public static long decodeRaw(byte[] in, int offset) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (in[offset + i] & 0xFF);
        }
        return v;
    }

    /**
     * {@return the element as an unsigned decimal}
     *
     * @param a an element
     */
    public static String toString(long a) {
        return Long.toUnsignedString(a);
    }

    /**
     * {@return elements as unsigned decimals: "[a, b, c]"}
     *
     * @param elements the elements
     */
    public static String toString(long[] elements) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < elements.length; i++) {
            out.append(i == 0 ? "" : ", ").append(Long.toUnsignedString(elements[i]));
        }
        return out.append(']').toString();
    }
}
