package io.jstark.protocol;

import io.jstark.math.field.Ext3;

/**
 * An extension column is committed as three base columns A0, A1, A2 (its coefficients), so that
 * A(x) = A0(x) + A1(x)*u + A2(x)*u^2 with u the extension generator (x^3 = 2). Opening the limbs at an
 * extension point gives three extension values; this recombines them.
 */
public final class Limbs {
    private static final Ext3 U = new Ext3(0, 1, 0);
    private static final Ext3 U2 = new Ext3(0, 0, 1);

    private Limbs() {}

    /** A(z) from the limb values A0(z), A1(z), A2(z) at values[offset..offset+2]. */
    public static Ext3 combine(Ext3[] values, int offset) {
        return values[offset].add(values[offset + 1].mul(U)).add(values[offset + 2].mul(U2));
    }
}
