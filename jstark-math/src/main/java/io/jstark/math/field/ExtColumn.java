package io.jstark.math.field;

import java.util.Objects;

/**
 * An extension-field column in structure-of-arrays form: element i is
 * {@code c0[off + i] + c1[off + i]*x + c2[off + i]*x^2} for the offset a kernel is given. Keeping the three
 * coefficients in separate base arrays lets every extension kernel run on base-field vector lanes, and
 * matches how a {@link io.jstark.math.memory.Matrix} stores an extension column (three base columns).
 */
public record ExtColumn(long[] c0, long[] c1, long[] c2) {
    public ExtColumn {
        Objects.requireNonNull(c0, "c0");
        Objects.requireNonNull(c1, "c1");
        Objects.requireNonNull(c2, "c2");
        if (c0.length != c1.length || c0.length != c2.length) {
            throw new IllegalArgumentException("extension column coefficient arrays differ in length: " + c0.length
                    + ", " + c1.length + ", " + c2.length);
        }
    }

    /** A zeroed column of {@code length} elements. */
    public static ExtColumn zeros(int length) {
        return new ExtColumn(new long[length], new long[length], new long[length]);
    }

    /** Elements per coefficient array. */
    public int length() {
        return c0.length;
    }

    public Ext3 get(int i) {
        return new Ext3(c0[i], c1[i], c2[i]);
    }

    public void set(int i, Ext3 value) {
        c0[i] = value.c0();
        c1[i] = value.c1();
        c2[i] = value.c2();
    }

    /** Coefficient array {@code k} (0, 1 or 2). */
    public long[] coefficient(int k) {
        return switch (k) {
            case 0 -> c0;
            case 1 -> c1;
            case 2 -> c2;
            default -> throw new IndexOutOfBoundsException("extension coefficient " + k + " (degree is 3)");
        };
    }
}
