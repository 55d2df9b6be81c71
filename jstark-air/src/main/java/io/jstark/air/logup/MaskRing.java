package io.jstark.air.logup;

import io.jstark.air.expr.Expr;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The mask ring of a zero-knowledge proof: every table with buses sends a random triple t_j (its mask columns' row 0)
 * and receives its predecessor's (row 1), the tables with buses in index order and the first's predecessor the last
 * (a single one receives its own). A message's fingerprint is f(t) = z - (BUS_ID + alpha t1 + alpha^2 t2 + alpha^3 t3),
 * and table j's running sum starts with 1/f(t_j) - 1/f(t_prev): each bus claim is masked by a uniform offset, and the
 * offsets cancel around the ring, so the claims still add up to the tables' total.
 */
public final class MaskRing {
    /** The mask columns: one triple. */
    public static final int COLUMNS = 3;
    /**
     * The ring's bus id: derived from a label no bus name can give ({@code Bus} ids hash "jstark-bus:" and the name), and
     * refused for a bus made with an explicit id.
     */
    public static final long BUS_ID = busId();

    private MaskRing() {}

    private static long busId() {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest("jstark-zk-mask-ring".getBytes(StandardCharsets.UTF_8));
            return Goldilocks.reduce(Goldilocks.decodeRaw(digest, 0));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /** f of the triple in main columns {@code column..column+2} of row {@code rowOffset}, as an expression. */
    static Expr fingerprint(int column, int rowOffset) {
        Expr alpha = new Expr.Challenge(LogUpPlan.CHALLENGE_ALPHA);
        Expr compressed = new Expr.Const(BUS_ID);
        Expr power = alpha;
        for (int k = 0; k < COLUMNS; k++) {
            compressed = compressed.add(power.mul(new Expr.MainCell(column + k, rowOffset)));
            power = power.mul(alpha);
        }
        return new Expr.Challenge(LogUpPlan.CHALLENGE_Z).sub(compressed);
    }

    /**
     * {@return f(t) for a triple, at the lookup challenges}
     *
     * @param challenges z and alpha ({@link LogUpPlan#CHALLENGE_COUNT})
     * @param triple the triple's three elements
     */
    public static Ext3 fingerprint(Ext3[] challenges, long[] triple) {
        Ext3 alpha = challenges[LogUpPlan.CHALLENGE_ALPHA];
        Ext3 compressed = Ext3.of(BUS_ID);
        Ext3 power = alpha;
        for (int k = 0; k < COLUMNS; k++) {
            compressed = compressed.add(power.mul(triple[k]));
            power = power.mul(alpha);
        }
        return challenges[LogUpPlan.CHALLENGE_Z].sub(compressed);
    }

    /**
     * {@return the offset table j's running sum starts with: 1/f(sent) - 1/f(received)}
     *
     * @param challenges z and alpha
     * @param sent t_j
     * @param received t_prev(j)
     */
    public static Ext3 offset(Ext3[] challenges, long[] sent, long[] received) {
        return fingerprint(challenges, sent)
                .inverse()
                .sub(fingerprint(challenges, received).inverse());
    }
}
