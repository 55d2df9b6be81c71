package io.jstark.air.logup;

import io.jstark.air.BusInteraction;
import io.jstark.air.Constraint;
import io.jstark.air.ConstraintDomain;
import io.jstark.air.expr.Expr;
import java.util.ArrayList;
import java.util.List;

/**
 * How a table's bus interactions become extension-field aux columns (LogUp).
 *
 * <p>Interaction i contributes sign_i * m_i / f_i on every row, where m_i is its multiplicity and
 * f_i = z - (busId + alpha*v1 + alpha^2*v2 + ...) its fingerprint (z, alpha: the global lookup
 * challenges). Consecutive interactions are batched two per "fraction" column h_j when the resulting
 * constraint h_j*f_a*f_b = s_a*m_a*f_b + s_b*m_b*f_a stays within the degree budget (the table's own
 * degree, at least 3); otherwise one per column (h_j*f_a = s_a*m_a). A last column S accumulates the row
 * sums: S[0] = sum_j h_j[0], S[i+1] = S[i] + sum_j h_j[i+1], and S[n-1] is the table's bus contribution,
 * which the verifier adds up over all tables.
 */
public final class LogUpPlan {
    public static final int CHALLENGE_Z = 0;
    public static final int CHALLENGE_ALPHA = 1;
    /** Number of global lookup challenges sampled after the main commitments. */
    public static final int CHALLENGE_COUNT = 2;

    private final List<BusInteraction> interactions;
    private final List<int[]> fractionColumns;
    private final List<Expr> fingerprints;
    private final List<Constraint> constraints;

    private LogUpPlan(
            List<BusInteraction> interactions,
            List<int[]> fractionColumns,
            List<Expr> fingerprints,
            List<Constraint> constraints) {
        this.interactions = interactions;
        this.fractionColumns = fractionColumns;
        this.fingerprints = fingerprints;
        this.constraints = constraints;
    }

    /** Plans the aux columns for {@code interactions} of a table whose own constraints reach {@code userMaxDegree}. */
    public static LogUpPlan of(List<BusInteraction> interactions, int userMaxDegree) {
        return of(interactions, userMaxDegree, -1);
    }

    /**
     * Plans the aux columns of a table in a zero-knowledge proof's mask ring: its main columns {@code maskColumn} to
     * {@code maskColumn + 2} hold the mask triple it sends in row 0 and the one it receives in row 1, and its running sum
     * starts with the mask fraction 1/f(row 0's triple) - 1/f(row 1's triple) (f the fingerprint of
     * {@link MaskRing#BUS_ID}), which the first-row constraint, of degree 3, pins:
     * (S[0] - rowSum[0]) * f(row 0) * f(row 1) = f(row 1) - f(row 0).
     *
     * @param interactions the table's bus interactions, at least one
     * @param userMaxDegree the degree its own constraints reach
     * @param maskColumn the first mask column, or -1 for none
     * @return the plan
     */
    public static LogUpPlan of(List<BusInteraction> interactions, int userMaxDegree, int maskColumn) {
        List<Expr> fingerprints = new ArrayList<>();
        for (BusInteraction i : interactions) {
            fingerprints.add(fingerprint(i));
        }
        int budget = Math.max(3, userMaxDegree);
        List<int[]> columns = new ArrayList<>();
        for (int i = 0; i < interactions.size(); i++) {
            if (i + 1 < interactions.size() && pairDegree(interactions, fingerprints, i, i + 1) <= budget) {
                columns.add(new int[] {i, i + 1});
                i++;
            } else {
                columns.add(new int[] {i});
            }
        }
        List<Constraint> constraints = new ArrayList<>();
        if (!interactions.isEmpty()) {
            for (int j = 0; j < columns.size(); j++) {
                constraints.add(new Constraint(
                        "logup fraction column " + j,
                        fractionConstraint(interactions, fingerprints, columns.get(j), new Expr.AuxCell(j, 0)),
                        ConstraintDomain.EVERY_ROW));
            }
            int s = columns.size();
            Expr rowSum = null;
            Expr nextRowSum = null;
            for (int j = 0; j < columns.size(); j++) {
                rowSum = rowSum == null ? new Expr.AuxCell(j, 0) : rowSum.add(new Expr.AuxCell(j, 0));
                nextRowSum = nextRowSum == null ? new Expr.AuxCell(j, 1) : nextRowSum.add(new Expr.AuxCell(j, 1));
            }
            Expr sum = new Expr.AuxCell(s, 0);
            if (maskColumn < 0) {
                constraints.add(new Constraint(
                        "logup running sum starts with row 0", sum.sub(rowSum), ConstraintDomain.FIRST_ROW));
            } else {
                Expr sent = MaskRing.fingerprint(maskColumn, 0);
                Expr received = MaskRing.fingerprint(maskColumn, 1);
                constraints.add(new Constraint(
                        "logup running sum starts with row 0 and the mask fraction",
                        sum.sub(rowSum).mul(sent).mul(received).sub(received.sub(sent)),
                        ConstraintDomain.FIRST_ROW));
            }
            constraints.add(new Constraint(
                    "logup running sum accumulates",
                    new Expr.AuxCell(s, 1).sub(sum).sub(nextRowSum),
                    ConstraintDomain.TRANSITION));
            constraints.add(new Constraint(
                    "logup running sum ends at the bus contribution",
                    sum.sub(new Expr.BusSum()),
                    ConstraintDomain.LAST_ROW));
        }
        return new LogUpPlan(
                List.copyOf(interactions), List.copyOf(columns), List.copyOf(fingerprints), List.copyOf(constraints));
    }

    private static Expr fingerprint(BusInteraction interaction) {
        Expr z = new Expr.Challenge(CHALLENGE_Z);
        Expr alpha = new Expr.Challenge(CHALLENGE_ALPHA);
        Expr compressed = Expr.constant(interaction.bus().id());
        Expr alphaPower = alpha;
        for (Expr v : interaction.values()) {
            compressed = compressed.add(alphaPower.mul(v));
            alphaPower = alphaPower.mul(alpha);
        }
        return z.sub(compressed);
    }

    private static Expr signedMultiplicity(BusInteraction interaction) {
        return interaction.direction() == BusInteraction.Direction.SEND
                ? interaction.multiplicity()
                : interaction.multiplicity().neg();
    }

    private static int pairDegree(List<BusInteraction> interactions, List<Expr> fingerprints, int a, int b) {
        int fa = fingerprints.get(a).degree();
        int fb = fingerprints.get(b).degree();
        int ma = interactions.get(a).multiplicity().degree();
        int mb = interactions.get(b).multiplicity().degree();
        return Math.max(1 + fa + fb, Math.max(ma + fb, mb + fa));
    }

    private static Expr fractionConstraint(
            List<BusInteraction> interactions, List<Expr> fingerprints, int[] members, Expr h) {
        if (members.length == 1) {
            int a = members[0];
            return h.mul(fingerprints.get(a)).sub(signedMultiplicity(interactions.get(a)));
        }
        int a = members[0];
        int b = members[1];
        Expr fa = fingerprints.get(a);
        Expr fb = fingerprints.get(b);
        Expr numerator = signedMultiplicity(interactions.get(a))
                .mul(fb)
                .add(signedMultiplicity(interactions.get(b)).mul(fa));
        return h.mul(fa).mul(fb).sub(numerator);
    }

    public List<BusInteraction> interactions() {
        return interactions;
    }

    /** Interactions batched into each fraction column, in column order. */
    public List<int[]> fractionColumns() {
        return fractionColumns;
    }

    /**
     * What the aux trace is built from, row by row: every interaction's fingerprint, then every
     * interaction's signed multiplicity (output i and interactions + i belong to interaction i).
     */
    public List<Expr> fingerprintsThenMultiplicities() {
        List<Expr> outputs = new ArrayList<>(2 * interactions.size());
        for (int i = 0; i < interactions.size(); i++) {
            outputs.add(fingerprint(i));
        }
        for (int i = 0; i < interactions.size(); i++) {
            outputs.add(signedMultiplicityOf(i));
        }
        return outputs;
    }

    /** The fingerprint expression of interaction {@code i}. */
    public Expr fingerprint(int i) {
        return fingerprints.get(i);
    }

    /** The signed multiplicity (negated for receives) of interaction {@code i}. */
    public Expr signedMultiplicityOf(int i) {
        return signedMultiplicity(interactions.get(i));
    }

    /** Extension aux columns: the fraction columns plus the running sum; 0 without interactions. */
    public int auxColumns() {
        return interactions.isEmpty() ? 0 : fractionColumns.size() + 1;
    }

    /** Index of the running-sum aux column. */
    public int runningSumColumn() {
        return fractionColumns.size();
    }

    public List<Constraint> constraints() {
        return constraints;
    }
}
