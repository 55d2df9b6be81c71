package io.jstark.protocol;

import io.jstark.math.field.Ext3;

/**
 * The DEEP composition polynomial of one table, whose low degree FRI proves:
 *
 * <pre>
 *   DEEP(x) = (A(x) - A(z)) / (x - z)  +  (B(x) - B(z*w)) / (x - z*w)
 *   A(x)    = sum_k gamma^k * col_k(x)     over the frame's "at z" columns (trace and composition)
 *   B(x)    = sum_k gamma^k * col_k(x)     over the frame's "at z*w" columns (trace only)
 * </pre>
 *
 * Coefficients gamma^k follow {@link OodFrame#flatten()} order, k counting from 0 over the whole frame,
 * so that the "at z" and "at z*w" terms of one column get different powers. Each quotient is a
 * polynomial exactly when the opened value is the column's true value at that point.
 *
 * <p>With t trace columns, trace column c's "at z*w" power is gamma^(t + c) = gamma^t * gamma^c, so
 * B(x) = gamma^t * T(x) for T(x) = sum_c gamma^c * col_c(x), A's trace part ({@link #atZNextFactor()}): the
 * trace columns can be summed once for A and B together, as {@link #evaluate} does (and the prover's combination
 * from four trace columns on).
 */
public final class DeepComposition {
    private final Ext3 z;
    private final Ext3 zNext;
    /** gamma power per column of each group, in the order the rows are given. */
    private final Ext3[] atZCoefficients;

    private final Ext3[] atZNextCoefficients;
    /** gamma^t for t trace columns: atZNextCoefficients[c] = atZNextFactor * atZCoefficients[c]. */
    private final Ext3 atZNextFactor;

    private final Ext3 aAtZ;
    private final Ext3 bAtZNext;

    /**
     * @param frame the openings: preprocessed + main + aux limb columns (in that order) at z and z*w, composition
     *     limb columns at z
     * @param gamma the random combination's base, one power per opened value
     * @param z the out-of-domain point
     * @param traceGenerator the trace domain's generator w
     */
    public DeepComposition(OodFrame frame, Ext3 gamma, Ext3 z, long traceGenerator) {
        this.z = z;
        this.zNext = z.mul(traceGenerator);
        int pre = frame.preprocessedAtZ().length;
        int main = frame.mainAtZ().length;
        int aux = frame.auxAtZ().length;
        int comp = frame.compositionAtZ().length;
        int trace = pre + main + aux;
        // flatten order: preAtZ, mainAtZ, auxAtZ, preAtZNext, mainAtZNext, auxAtZNext, compAtZ
        Ext3[] powers = new Ext3[2 * trace + comp];
        Ext3 p = Ext3.ONE;
        for (int k = 0; k < powers.length; k++) {
            powers[k] = p;
            p = p.mul(gamma);
        }
        // gamma^t; an empty frame (t = 0, no composition) has no powers and takes gamma^0
        atZNextFactor = trace < powers.length ? powers[trace] : Ext3.ONE;
        Ext3[] values = frame.flatten();
        atZCoefficients = new Ext3[trace + comp];
        atZNextCoefficients = new Ext3[trace];
        Ext3 a = Ext3.ZERO;
        Ext3 b = Ext3.ZERO;
        for (int c = 0; c < trace; c++) {
            atZCoefficients[c] = powers[c];
            a = a.add(powers[c].mul(values[c]));
            atZNextCoefficients[c] = powers[trace + c];
            b = b.add(powers[trace + c].mul(values[trace + c]));
        }
        for (int c = 0; c < comp; c++) {
            atZCoefficients[trace + c] = powers[2 * trace + c];
            a = a.add(powers[2 * trace + c].mul(values[2 * trace + c]));
        }
        this.aAtZ = a;
        this.bAtZNext = b;
    }

    public Ext3 z() {
        return z;
    }

    public Ext3 zNext() {
        return zNext;
    }

    /** Coefficients of A: trace columns (preprocessed, main, aux limbs), then composition limbs. */
    public Ext3[] atZCoefficients() {
        return atZCoefficients.clone();
    }

    /** Coefficients of B: trace columns (preprocessed, main, aux limbs). */
    public Ext3[] atZNextCoefficients() {
        return atZNextCoefficients.clone();
    }

    /**
     * {@return gamma^t for the frame's t trace columns: B's coefficient of trace column c is this times A's, so
     * B(x) is this times the trace part of A(x)}
     */
    public Ext3 atZNextFactor() {
        return atZNextFactor;
    }

    /** A(z), the constant subtracted from A(x). */
    public Ext3 aAtZ() {
        return aAtZ;
    }

    /** B(z*w). */
    public Ext3 bAtZNext() {
        return bAtZNext;
    }

    /**
     * DEEP(x) at one domain point from that row's values: trace columns (preprocessed, main, aux limbs)
     * and composition limbs, in the coefficient order.
     */
    public Ext3 evaluate(long x, long[] traceRow, long[] compositionRow) {
        Ext3 a = Ext3.ZERO;
        for (int c = 0; c < traceRow.length; c++) {
            a = a.add(atZCoefficients[c].mul(traceRow[c]));
        }
        Ext3 b = atZNextFactor.mul(a);
        for (int c = 0; c < compositionRow.length; c++) {
            a = a.add(atZCoefficients[traceRow.length + c].mul(compositionRow[c]));
        }
        Ext3 xe = Ext3.of(x);
        return a.sub(aAtZ).div(xe.sub(z)).add(b.sub(bAtZNext).div(xe.sub(zNext)));
    }
}
