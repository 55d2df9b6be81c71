package io.jstark.air;

import io.jstark.air.logup.LogUpPlan;
import io.jstark.air.logup.MaskRing;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The definition of one kind of table: its columns, constraints and bus interactions. Immutable;
 * build one with {@link #builder(String)}. A proof may contain several tables of the same kind (with
 * different heights).
 *
 * <p>Everything a prover and a verifier must agree on is derived here once: the LogUp aux columns and
 * their constraints ({@link #logUp()}), every constraint's degree, and the number of composition parts.
 */
public final class Air {
    private final String name;
    private final List<String> mainColumns;
    private final List<PreprocessedColumn> preprocessedColumns;
    private final int fixedLogHeight;
    private final List<PeriodicColumn> periodicColumns;
    private final List<String> publicInputs;
    private final List<Constraint> userConstraints;
    private final List<BusInteraction> interactions;
    private final LogUpPlan logUp;
    private final List<Constraint> allConstraints;
    /** {@link #withMaskRing}, made on the first call: one committed definition per definition, for caches keyed by it. */
    private volatile Air withMaskRing;

    private final Object withMaskRingLock = new Object();

    Air(
            String name,
            List<String> mainColumns,
            List<PreprocessedColumn> preprocessedColumns,
            int fixedLogHeight,
            List<PeriodicColumn> periodicColumns,
            List<String> publicInputs,
            List<Constraint> userConstraints,
            List<BusInteraction> interactions) {
        this(
                name,
                mainColumns,
                preprocessedColumns,
                fixedLogHeight,
                periodicColumns,
                publicInputs,
                userConstraints,
                interactions,
                -1);
    }

    /** @param maskColumn the first of the mask ring's main columns ({@link #withMaskRing}), or -1 */
    private Air(
            String name,
            List<String> mainColumns,
            List<PreprocessedColumn> preprocessedColumns,
            int fixedLogHeight,
            List<PeriodicColumn> periodicColumns,
            List<String> publicInputs,
            List<Constraint> userConstraints,
            List<BusInteraction> interactions,
            int maskColumn) {
        this.name = name;
        this.mainColumns = List.copyOf(mainColumns);
        this.preprocessedColumns = List.copyOf(preprocessedColumns);
        this.fixedLogHeight = fixedLogHeight;
        this.periodicColumns = List.copyOf(periodicColumns);
        this.publicInputs = List.copyOf(publicInputs);
        this.userConstraints = List.copyOf(userConstraints);
        this.interactions = List.copyOf(interactions);
        int userMaxDegree = 0;
        for (Constraint c : userConstraints) {
            userMaxDegree = Math.max(userMaxDegree, c.degree());
        }
        this.logUp = LogUpPlan.of(this.interactions, userMaxDegree, maskColumn);
        List<Constraint> all = new ArrayList<>(userConstraints);
        all.addAll(logUp.constraints());
        this.allConstraints = List.copyOf(all);
    }

    /**
     * {@return this table as a zero-knowledge proof commits it when it has buses: its main columns and
     * {@link MaskRing#COLUMNS} more holding its mask ring triples, and the running sum starting with the mask fraction
     * ({@link LogUpPlan#of(List, int, int)}); the same name, and a definition's digest is always the user's own (of this
     * table as defined)}; every call returns the same instance
     *
     * @throws IllegalStateException when the table has no buses
     */
    public Air withMaskRing() {
        if (interactions.isEmpty()) {
            throw new IllegalStateException("table definition '" + name + "' has no buses, so no mask ring");
        }
        Air made = withMaskRing;
        if (made == null) {
            synchronized (withMaskRingLock) {
                made = withMaskRing;
                if (made == null) {
                    made = maskRingDefinition();
                    withMaskRing = made;
                }
            }
        }
        return made;
    }

    private Air maskRingDefinition() {
        List<String> columns = new ArrayList<>(mainColumns);
        for (int k = 0; k < MaskRing.COLUMNS; k++) {
            columns.add("zk mask " + k);
        }
        return new Air(
                name,
                columns,
                preprocessedColumns,
                fixedLogHeight,
                periodicColumns,
                publicInputs,
                userConstraints,
                interactions,
                mainColumns.size());
    }

    /**
     * {@return a builder of a table definition of this name}
     *
     * @param name the definition's name (what statements and verifying keys call it), not blank
     * @throws IllegalArgumentException when {@code name} is blank
     */
    public static AirBuilder builder(String name) {
        return new AirBuilder(name);
    }

    /** {@return the definition's name} */
    public String name() {
        return name;
    }

    /** {@return the number of main-trace columns} */
    public int mainWidth() {
        return mainColumns.size();
    }

    /** {@return the main columns' names, in declaration order (the trace's column order)} */
    public List<String> mainColumns() {
        return mainColumns;
    }

    /** {@return the number of preprocessed columns} */
    public int preprocessedWidth() {
        return preprocessedColumns.size();
    }

    /** {@return the preprocessed columns, in declaration order} */
    public List<PreprocessedColumn> preprocessedColumns() {
        return preprocessedColumns;
    }

    /** {@return log2 of the height a table with preprocessed columns must have; -1 when the height is free} */
    public int fixedLogHeight() {
        return fixedLogHeight;
    }

    /** {@return the periodic columns, in declaration order} */
    public List<PeriodicColumn> periodicColumns() {
        return periodicColumns;
    }

    /** {@return the public inputs' names, in declaration order (the order of a trace's public input values)} */
    public List<String> publicInputs() {
        return publicInputs;
    }

    /** {@return the constraints the author wrote} */
    public List<Constraint> userConstraints() {
        return userConstraints;
    }

    /** {@return the bus sends and receives, in declaration order} */
    public List<BusInteraction> interactions() {
        return interactions;
    }

    /** {@return the LogUp aux columns and constraints derived from the interactions (the prover's and verifier's)} */
    // for the protocol, prover and verifier, to which the plan's package is exported; a user reads interactions()
    @SuppressWarnings("exports")
    public LogUpPlan logUp() {
        return logUp;
    }

    /** {@return the number of extension-field aux columns (LogUp), 0 when the table uses no bus} */
    public int auxWidth() {
        return logUp.auxColumns();
    }

    /** {@return the user constraints followed by the LogUp constraints: the order of the composition coefficients} */
    public List<Constraint> constraints() {
        return allConstraints;
    }

    /** {@return the highest constraint degree (derived from the expressions)} */
    public int maxDegree() {
        int d = 0;
        for (Constraint c : allConstraints) {
            d = Math.max(d, c.degree());
        }
        return d;
    }

    /**
     * Why a table of this definition cannot have 2^logHeight rows and {@code publicInputCount} public
     * inputs, or empty when it can: the declared public inputs and {@link #heightViolation}. Traces are
     * checked with it when they are made, proofs' statements before anything of them is evaluated.
     *
     * @param logHeight log2 of the table's rows
     * @param publicInputCount the number of public input values
     * @return the reason, for a message, or empty
     */
    public Optional<String> shapeViolation(int logHeight, int publicInputCount) {
        if (publicInputCount != publicInputs.size()) {
            return Optional.of(publicInputCount + " public inputs, but table definition '" + name + "' declares "
                    + publicInputs.size() + " " + publicInputs);
        }
        return heightViolation(logHeight);
    }

    /**
     * Why a table of this definition cannot have 2^logHeight rows, or empty when it can: the fixed height,
     * every periodic column's period and every constraint's rows must fit.
     *
     * @param logHeight log2 of the table's rows
     * @return the reason, for a message, or empty
     */
    public Optional<String> heightViolation(int logHeight) {
        if (fixedLogHeight >= 0 && logHeight != fixedLogHeight) {
            return Optional.of("table definition '" + name + "' has the fixed height 2^" + fixedLogHeight + ", not 2^"
                    + logHeight);
        }
        for (PeriodicColumn p : periodicColumns) {
            if (!p.fitsHeight(logHeight)) {
                return Optional.of("periodic column '" + p.name() + "' repeats every " + p.period()
                        + " rows, more than a table of 2^" + logHeight + " rows holds");
            }
        }
        long rows = 1L << logHeight;
        for (Constraint c : allConstraints) {
            if (c.domain() instanceof ConstraintDomain.Transition t && t.exemptRows() >= rows) {
                // nothing would remain to constrain, and the divisor would be a constant
                return Optional.of("constraint '" + c.name() + "' exempts its last " + t.exemptRows()
                        + " rows, the whole table of 2^" + logHeight + " rows");
            }
            if (c.domain() instanceof ConstraintDomain.Boundary b && b.row() >= rows) {
                return Optional.of("constraint '" + c.name() + "' holds at row " + b.describe()
                        + ", outside a table of 2^" + logHeight + " rows");
            }
        }
        return Optional.empty();
    }

    /**
     * Number of composition-polynomial parts (each of degree below the trace length) for a trace of
     * 2^logHeight rows: the highest quotient degree over all constraints, divided by the trace length,
     * rounded up. The LDE blowup must be at least this.
     *
     * @param logHeight log2 of the table's rows
     * @return the parts, at least 1
     */
    public int compositionParts(int logHeight) {
        long n = 1L << logHeight;
        long parts = (compositionDegreeBound(logHeight, logHeight) + n - 1) / n;
        return (int) Math.max(1, parts);
    }

    /**
     * The composition polynomial's degree bound (one more than the highest quotient degree over all constraints,
     * at least 1) for a trace of 2^logHeight rows whose committed columns have degree below 2^logColumnHeight (the
     * trace height, or a zero-knowledge proof's randomized columns' taller one).
     *
     * @param logHeight log2 of the table's rows (the constraints' divisors)
     * @param logColumnHeight log2 of the committed columns' degree bound, at least {@code logHeight}
     * @return the bound
     */
    public long compositionDegreeBound(int logHeight, int logColumnHeight) {
        long n = 1L << logHeight;
        long columns = 1L << logColumnHeight;
        long maxQuotientDegree = 0;
        for (Constraint c : allConstraints) {
            long numerator = (long) c.degree() * (columns - 1);
            long divisor = switch (c.domain()) {
                case ConstraintDomain.Transition t -> n - Math.min(t.exemptRows(), n);
                case ConstraintDomain.Boundary b -> 1;
            };
            maxQuotientDegree = Math.max(maxQuotientDegree, numerator - divisor);
        }
        return maxQuotientDegree + 1;
    }

    @Override
    public String toString() {
        return "Air[" + name + ", main " + mainWidth() + ", preprocessed " + preprocessedWidth() + ", aux " + auxWidth()
                + ", constraints " + allConstraints.size() + ", degree " + maxDegree() + "]";
    }
}
