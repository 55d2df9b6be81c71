package io.jstark.air;

/**
 * A column known to both sides whose values repeat with a power-of-two period: row i holds
 * {@code values[i mod period]}. It costs no commitment; the verifier interpolates it at z.
 */
public record PeriodicColumn(String name, long[] values) {
    public PeriodicColumn {
        values = values.clone();
        if (values.length == 0 || Integer.bitCount(values.length) != 1) {
            throw new IllegalArgumentException("periodic column '" + name + "' needs a power-of-two period, got " + values.length);
        }
        for (long v : values) {
            if (!io.jstark.math.field.Goldilocks.isCanonical(v)) {
                throw new IllegalArgumentException("periodic column '" + name + "' holds a non-canonical value");
            }
        }
    }

    public int period() {
        return values.length;
    }

    @Override
    public long[] values() {
        return values.clone();
    }

    public long valueAt(int row) {
        return values[row & (values.length - 1)];
    }
}
