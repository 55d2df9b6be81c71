/** The prover, the table executors it runs passes on, and the per-table memory its plans and backends name. */
// qualified exports name the modules above this one, not yet built when this one compiles
@SuppressWarnings("module")
module io.jstark.prover {
    requires transitive io.jstark.protocol;
    requires io.jstark.crypto;
    requires io.jstark.instrument;

    exports io.jstark.prover;
    // the facade's plan, the storage plan and the backend seam name a table's dimensions and memory; the
    // scheduler's executors implement the table executor
    exports io.jstark.prover.exec;
    exports io.jstark.prover.memory;
}
