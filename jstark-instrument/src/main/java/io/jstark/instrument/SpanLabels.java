package io.jstark.instrument;

/**
 * The span labels and field names that readers of a timeline rely on, defined once for the code that records
 * them (prover, scheduler, math, crypto, FRI) and the code that reads them (the timing report and the analyses
 * of {@code jstark-profile}): a label typed twice drifts, and a report row then silently goes empty.
 *
 * <p>The prover's phases run one after the other on the calling thread, begun through {@link Phases}; per-table
 * spans carry the suffix {@value #TABLE_SUFFIX}; sub-operations (an LDE, a Merkle tree...) run inside the
 * per-table spans and sometimes inside a phase on the calling thread.
 */
public final class SpanLabels {
    /** The whole proof: the root of the prover's phases. */
    public static final String PROVE = "prove";
    /** Checks, preprocessed commitments and the statement, before any table is committed (split into phases). */
    public static final String PREPASS = "prepass";

    public static final String CHECK_STATEMENT = "check_statement";
    public static final String DEBUG_CHECKS = "debug_checks";
    public static final String PREPROCESSED_COMMIT = "preprocessed_commit";
    /** A backend that owns its tables builds them where they live and reports their claims (no trace on this host). */
    public static final String BUILD_TABLES = "build_tables";

    public static final String ABSORB_STATEMENT = "absorb_statement";
    /** Every table's main-trace LDE and Merkle tree. */
    public static final String MAIN_COMMIT = "main_commit";
    /** The proof object. */
    public static final String ASSEMBLE = "assemble";

    /**
     * The instruments' own work at a phase boundary (memory samples, JFR events, the CPU clocks, starting and
     * stopping a JFR capture), recorded as a span of its own between the phases it separates: see {@link Phases}.
     */
    public static final String INSTRUMENTATION = "instrumentation";

    /** Suffix of per-table instance spans: {@code main_commit_table} is one table's part of {@code main_commit}. */
    public static final String TABLE_SUFFIX = "_table";

    // the sub-operations the report totals by kind
    public static final String LDE = "lde";
    public static final String LDE_COEFFICIENTS = "lde_coefficients";
    public static final String COSET_INTERPOLATE = "coset_interpolate";
    public static final String MERKLE = "merkle";
    public static final String CONSTRAINT_EVALUATION = "constraint_evaluation";
    public static final String FRI_COMMIT = "fri_commit";
    public static final String QUERIES = "queries";
    public static final String GRINDING = "grinding";

    /** Field of a per-table span: the table's name. */
    public static final String TABLE_FIELD = "table";
    /**
     * Field of {@value #PROVE}: how many proofs this JVM had completed when this one began (0: the first, in a JVM that
     * has not yet loaded and compiled the prover's code).
     */
    public static final String PROOFS_COMPLETED_BEFORE_FIELD = "proofs_completed_before";
    /** Field of {@value #PROVE}: how many other proofs were running in this JVM when this one began. */
    public static final String PROOFS_RUNNING_AT_START_FIELD = "proofs_running_at_start";
    /**
     * Field set (true) on a span that a {@link Phases} sequence split into phases: its phases and the
     * instrumentation spans between them tile it exactly, which the report checks.
     */
    public static final String TILED_BY_PHASES_FIELD = "tiled_by_phases";

    /**
     * Stem of the worker pool's occupancy figures sampled at the phase boundaries: {@code pool_busy_N_open_ns} and
     * {@code pool_busy_N_close_ns}, the nanoseconds so far with N threads running pool work.
     */
    public static final String POOL_BUSY_FIELD_STEM = "pool_busy_";

    /** Field of an {@value #INSTRUMENTATION} span: the JFR capture it started or stopped. */
    public static final String JFR_CAPTURE_FIELD = "jfr_capture";

    private SpanLabels() {}

    /** The per-table label of a phase: {@code main_commit_table} for {@code main_commit}. */
    public static String tableLabel(String phase) {
        return phase + TABLE_SUFFIX;
    }

    public static boolean isTableLabel(String label) {
        return label.endsWith(TABLE_SUFFIX);
    }

    /** The phase a per-table label belongs to: {@code main_commit} for {@code main_commit_table}. */
    public static String phaseOfTable(String tableLabel) {
        if (!isTableLabel(tableLabel)) {
            throw new IllegalArgumentException(
                    "'" + tableLabel + "' is not a per-table label (suffix " + TABLE_SUFFIX + ")");
        }
        return tableLabel.substring(0, tableLabel.length() - TABLE_SUFFIX.length());
    }
}
