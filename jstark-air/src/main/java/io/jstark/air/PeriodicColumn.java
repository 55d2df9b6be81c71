package io.jstark.air;

import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.ntt.Ntt;

/**
 * A column known to both sides whose values repeat with a power-of-two period: row i holds
 * {@code values[i mod period]}. It costs no commitment; the verifier interpolates it at z.
 *
 * <p>As a polynomial over a trace domain of n = 2^logHeight rows it is P(x) = Q(x^(n/m)), where Q is the
 * interpolant of the m = period values over the m-th roots of unity (w_n^(n/m) generates them). The
 * prover evaluates P on its LDE coset ({@link #onCoset}), the verifier at the out-of-domain point
 * ({@link #evaluateAt}); both derive Q here. Both need a table of at least one period
 * ({@link #fitsHeight}); the statement rules refuse shorter tables before either runs.
 *
 * @param name the column's name
 * @param values one period: a power-of-two count of canonical field elements (copied in and out)
 */
public record PeriodicColumn(String name, long[] values) {
    /**
     * Copies and checks the values.
     *
     * @throws IllegalArgumentException when the period is not a power of two or a value is not canonical
     */
    public PeriodicColumn {
        values = values.clone();
        if (values.length == 0 || Integer.bitCount(values.length) != 1) {
            throw new IllegalArgumentException(
                    "periodic column '" + name + "' needs a power-of-two period, got " + values.length);
        }
        for (long v : values) {
            if (!Goldilocks.isCanonical(v)) {
                throw new IllegalArgumentException("periodic column '" + name + "' holds a non-canonical value");
            }
        }
    }

    /** {@return the period m, in rows} */
    public int period() {
        return values.length;
    }

    /** {@return a copy of one period's values} */
    @Override
    public long[] values() {
        return values.clone();
    }

    /**
     * {@return the value at {@code row}: {@code values[row mod period]}}
     *
     * @param row a row index, 0 or more
     */
    public long valueAt(int row) {
        return values[row & (values.length - 1)];
    }

    /**
     * {@return whether a table of 2^logHeight rows holds at least one period}
     *
     * @param logHeight log2 of the table's rows
     */
    public boolean fitsHeight(int logHeight) {
        return logPeriod() <= logHeight;
    }

    /**
     * P(z) for a table of 2^logHeight rows: Q at z^(n/m), Q from its m coefficients (Horner).
     *
     * @param z the point, in the extension field
     * @param logHeight log2 of the table's rows
     * @return P(z)
     * @throws IllegalArgumentException when a table of 2^logHeight rows holds less than one period
     */
    public Ext3 evaluateAt(Ext3 z, int logHeight) {
        long[] q = coefficients(logHeight);
        Ext3 point = z.pow(1L << (logHeight - logPeriod()));
        Ext3 acc = Ext3.ZERO;
        for (int k = q.length - 1; k >= 0; k--) {
            acc = acc.mul(point).add(q[k]);
        }
        return acc;
    }

    /**
     * P on the coset shift * &lt;w&gt; of 2^(logHeight + logBlowup) points, natural order: the values repeat
     * with period m * blowup, so this returns one repetition (entry j is P at shift * w^j).
     *
     * @param logHeight log2 of the table's rows
     * @param logBlowup log2 of the LDE blowup
     * @param shift the coset's shift, a nonzero field element
     * @return m * blowup values, natural order
     * @throws IllegalArgumentException when a table of 2^logHeight rows holds less than one period
     */
    public long[] onCoset(int logHeight, int logBlowup, long shift) {
        long[] q = coefficients(logHeight);
        int logM = logPeriod();
        // P(shift * w^j) = Q(shift^(n/m) * (w^(n/m))^j), and w^(n/m) generates the (m * blowup)-th roots of unity
        long[] table = new long[q.length << logBlowup];
        long shiftPower = Goldilocks.pow(shift, 1L << (logHeight - logM));
        long scale = 1;
        for (int k = 0; k < q.length; k++) {
            table[k] = Goldilocks.mul(q[k], scale);
            scale = Goldilocks.mul(scale, shiftPower);
        }
        Ntt.forwardNaturalToNatural(table, 0, logM + logBlowup);
        return table;
    }

    private int logPeriod() {
        return Integer.numberOfTrailingZeros(values.length);
    }

    /** Q's coefficients, natural order. */
    private long[] coefficients(int logHeight) {
        if (!fitsHeight(logHeight)) {
            throw new IllegalArgumentException("periodic column '" + name + "' has period " + values.length
                    + ", longer than a table of 2^" + logHeight + " rows");
        }
        long[] q = values.clone();
        Ntt.inverseNaturalToNatural(q, 0, logPeriod());
        return q;
    }
}
