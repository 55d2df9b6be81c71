/** Runs a proof's tables under a memory budget. */
module io.jstark.scheduler {
    requires transitive io.jstark.prover;
    requires transitive io.jstark.storage;
    requires io.jstark.instrument;

    exports io.jstark.scheduler;
}
